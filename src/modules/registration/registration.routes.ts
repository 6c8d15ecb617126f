import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { RegistrationBodySchema, RegistrationResponseSchema } from "./registration.schemas.js";
import type { RegistrationService } from "./registration.service.js";

export function registerRegistrationRoutes(app: AppInstance, service: RegistrationService): void {
  app.post(
    "/v1/registration",
    {
      config: { access: "public", rateLimit: "client_address" },
      schema: {
        tags: ["Registration"],
        summary: "Register a Business",
        description:
          "Creates the Business, its admin user and membership (role `business_admin`), and issues one `sandbox` and one `production` API key, each shown only in this response. No API key needed; rate-limited per client address (behind a proxy, the address the proxies named by the operator's `TRUST_PROXY` saw, never an `X-Forwarded-For` entry the client wrote itself).",
        body: RegistrationBodySchema,
        response: routeResponses(
          { 201: RegistrationResponseSchema },
          { access: "public", hasBody: true, codes: ["EMAIL_ALREADY_REGISTERED"] },
        ),
      },
    },
    async (request, reply) => {
      const result = await service.register(request.body);
      return reply.code(201).send(result);
    },
  );
}
