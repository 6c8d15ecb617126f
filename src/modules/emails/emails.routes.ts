import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { ListSandboxEmailsQuerySchema, SandboxEmailIdParamsSchema, SandboxEmailListSchema } from "./emails.schemas.js";
import type { EmailsService } from "./emails.service.js";

const tags = ["Sandbox mailbox"];

const CAPTURE_RULE =
  "In sandbox, e-mail the service would send for the Business (collection-link invitations, declared-destination notices) is **captured here instead of delivered**, unless it is addressed to one of the Business's own people (a member whose e-mail address is verified), who receive it. So a test can follow the link it just sent to a made-up Beneficiary, and a sandbox key cannot send mail to strangers. Captured messages are kept with their text and HTML bodies as they would have been delivered, encrypted at rest, for 30 days by default (SANDBOX_EMAIL_RETENTION_DAYS), then deleted: their bodies carry link tokens. Sandbox keys only: a production key answers 403 `forbidden` (production e-mail is delivered, never captured). A `business_read_only` key may read.";

export function registerEmailRoutes(app: AppInstance, service: EmailsService): void {
  app.get(
    "/v1/sandbox/emails",
    {
      schema: {
        tags,
        operationId: "listSandboxEmails",
        summary: "List captured sandbox e-mail",
        description: `${CAPTURE_RULE} Newest first, cursor pages; \`to\` filters by recipient.`,
        querystring: ListSandboxEmailsQuerySchema,
        response: routeResponses({ 200: SandboxEmailListSchema }, { access: "read", hasInput: true, codes: ["forbidden"] }),
      },
    },
    async (request) => service.listSandboxEmails(requireActor(request), request.query),
  );

  app.get(
    "/v1/sandbox/emails/:id",
    {
      schema: {
        tags,
        operationId: "getSandboxEmail",
        summary: "Read a captured sandbox e-mail",
        description: `${CAPTURE_RULE} Another Business's message, or one of another environment, is 404 like a missing one.`,
        params: SandboxEmailIdParamsSchema,
        response: routeResponses(
          { 200: Type.Ref("SandboxEmail") },
          { access: "read", hasInput: true, codes: ["forbidden", "not_found"] },
        ),
      },
    },
    async (request) => service.getSandboxEmail(requireActor(request), request.params.id),
  );
}
