import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { REGISTRATION_ERRORS } from "./registration.errors.js";
import {
  RegistrationAcceptedSchema,
  RegistrationBodySchema,
  RegistrationResponseSchema,
  VerificationBodySchema,
} from "./registration.schemas.js";
import type { RegistrationService } from "./registration.service.js";

const tags = ["Registration"];

export function registerRegistrationRoutes(app: AppInstance, service: RegistrationService): void {
  app.post(
    "/v1/registration",
    {
      config: { rateLimit: "client_address" },
      schema: {
        tags,
        operationId: "registerBusiness",
        summary: "Register a Business (step 1: e-mail a verification token)",
        description:
          "Starts a registration: e-mails a single-use verification token to `email`, valid 24 hours by default (REGISTRATION_TOKEN_TTL_HOURS). Nothing is created until the token comes back through `POST /v1/registration/verification`, which answers with the Business and its keys. The answer is **202 with the same body whether or not the address already has an account**, so this route does not tell who is registered: a new address receives the token that creates its account; an address that has one receives a notice whose token adds the new Business to that account (the password sent is then ignored). An address receives at most 3 registration e-mails in 24 hours by default (REGISTRATION_EMAILS_PER_ADDRESS_PER_DAY), so registration cannot flood a mailbox; further requests are answered alike and send nothing. On the embedded default the e-mail is written under `DATA_DIR/mail/` unless `SMTP_URL` is set. No API key needed; rate-limited per client address (shared with the verification route; behind a proxy, the address the proxies named by the operator's `TRUST_PROXY` saw, never an `X-Forwarded-For` entry the client wrote itself).",
        body: RegistrationBodySchema,
        response: routeResponses(
          { 202: RegistrationAcceptedSchema },
          { access: "public", hasBody: true, codes: [REGISTRATION_ERRORS.WEAK_PASSWORD] },
        ),
      },
    },
    async (request, reply) => reply.code(202).send(await service.register(request.body)),
  );

  app.post(
    "/v1/registration/verification",
    {
      config: { rateLimit: "client_address" },
      schema: {
        tags,
        operationId: "verifyRegistration",
        summary: "Register a Business (step 2: verify the e-mail address)",
        description:
          "Consumes the token e-mailed by `POST /v1/registration` and creates, in one transaction, the Business, its admin user (or, for an address that already has one, adds the Business to that user without touching the password) with a verified e-mail address, a `business_admin` membership, and one `sandbox` and one `production` API key, each shown only in this response. A token works once: sending it again, even at the same moment, creates nothing more. An unknown, expired or used token is 410 `REGISTRATION_TOKEN_INVALID` (the same answer for all three). No API key needed; rate-limited per client address (shared with registration).",
        body: VerificationBodySchema,
        response: routeResponses(
          { 201: RegistrationResponseSchema },
          { access: "public", hasBody: true, codes: [REGISTRATION_ERRORS.REGISTRATION_TOKEN_INVALID] },
        ),
      },
    },
    async (request, reply) => reply.code(201).send(await service.verify(request.body)),
  );
}
