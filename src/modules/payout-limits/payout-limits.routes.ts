import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { PEOPLE_ERRORS } from "../people/people.errors.js";
import { PutPayoutLimitsBodySchema } from "./payout-limits.schemas.js";
import type { PayoutLimitsService } from "./payout-limits.service.js";

const tags = ["Payout limits"];
const limits = Type.Ref("PayoutLimits");

export function registerPayoutLimitRoutes(app: AppInstance, service: PayoutLimitsService): void {
  app.get(
    "/v1/payout-limits",
    {
      schema: {
        tags,
        operationId: "getPayoutLimits",
        summary: "Read the payout limits",
        description:
          "The environment's limits per currency (per payout, per day) and what today's approvals took, today being the calendar day in the Business's time zone (UTC when unset). Every role.",
        response: routeResponses({ 200: limits }, { access: "read" }),
      },
    },
    async (request) => service.get(requireActor(request)),
  );

  app.put(
    "/v1/payout-limits",
    {
      schema: {
        tags,
        operationId: "putPayoutLimits",
        summary: "Replace the payout limits",
        description:
          "Replaces the whole set (a currency left out has no limits). `per_payout_max_minor` is checked at creation (422 `PAYOUT_LIMIT_EXCEEDED`; a bulk row on its own); `daily_max_minor` at approval, by a person or the approval policy (409 `DAILY_LIMIT_EXCEEDED`: the payout stays pending; the policy leaves it for a person). Admins, with step-up from a session; audited (`payout_limits_changed`). Raising or removing a limit weakens a control: an API key gets 403 `CONTROL_WEAKENING_NEEDS_PERSON`; with maker-checker on the change is not applied but answered 202 with a pending control change a second admin approves (POST /v1/control-changes/{id}/approve); otherwise it applies and every admin is e-mailed. Lowering or adding a limit applies at once.",
        body: PutPayoutLimitsBodySchema,
        response: routeResponses(
          {
            200: limits,
            202: Type.Ref("ControlChange", { description: "The change waits for a second admin (maker-checker on)." }),
          },
          { access: "write", hasBody: true, codes: [PEOPLE_ERRORS.CONTROL_WEAKENING_NEEDS_PERSON] },
        ),
      },
    },
    async (request, reply) => {
      const outcome = await service.put(requireActor(request), request.body);
      return outcome.kind === "pending" ? reply.code(202).send(outcome.change) : outcome.limits;
    },
  );
}
