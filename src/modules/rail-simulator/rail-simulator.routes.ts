import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { PayoutIdParamsSchema, PushOutcomeBodySchema, PushOutcomeResponseSchema } from "./rail-simulator.schemas.js";
import type { RailSimulatorService } from "./rail-simulator.service.js";

const BEARER = /^Bearer ([^\s]+)$/i;

/** Registered only when SIMULATOR_CONTROL_TOKEN is set; otherwise the path answers 404 like any unknown one. */
export function registerRailSimulatorRoutes(app: AppInstance, service: RailSimulatorService): void {
  app.post(
    "/operator/simulator/payouts/:payoutId/outcomes",
    {
      // Not an API key: the operator token is checked below, before the body is parsed.
      config: { rateLimit: "none" },
      onRequest: async (request) => {
        const match = BEARER.exec(request.headers.authorization ?? "");
        service.verifyToken(match?.[1] ?? null);
      },
      schema: {
        tags: ["Production simulator (operator)"],
        operationId: "pushSimulatorOutcome",
        summary: "Push a rail outcome for a production payout",
        description:
          "Operator-only control of the production simulator rail, present only when the service runs with `SIMULATOR_CONTROL_TOKEN` (otherwise 404). " +
          "Authenticate with `Authorization: Bearer <SIMULATOR_CONTROL_TOKEN>`, not an API key; a missing or wrong token is 401. " +
          "The outcome is queued as a rail-outcome job and applied by the worker exactly like one the rail reported itself: " +
          "the payout's state machine decides whether it applies (an outcome that does not fit the payout's state changes nothing). " +
          "Answers 202 with the queued job; 404 for an id that is not a production payout.",
        params: PayoutIdParamsSchema,
        body: PushOutcomeBodySchema,
        response: routeResponses(
          { 202: PushOutcomeResponseSchema },
          { access: "read", hasBody: true, hasInput: true, codes: ["not_found"] },
        ),
      },
    },
    async (request, reply) => reply.code(202).send(await service.pushOutcome(request.params.payoutId, request.body)),
  );
}
