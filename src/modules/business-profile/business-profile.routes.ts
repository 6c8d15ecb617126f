import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { UpdateBusinessProfileBodySchema } from "./business-profile.schemas.js";
import type { BusinessProfileService } from "./business-profile.service.js";

const tags = ["Business"];

export function registerBusinessProfileRoutes(app: AppInstance, service: BusinessProfileService): void {
  app.get(
    "/v1/business",
    {
      schema: {
        tags,
        operationId: "getBusinessProfile",
        summary: "The Business profile",
        description:
          "The caller's Business: display name, legal identity, contact and home time zone. One profile for the whole Business: sandbox and production keys (and a session in either environment) read the same one.",
        response: routeResponses({ 200: Type.Ref("BusinessProfile") }, { access: "read" }),
      },
    },
    async (request) => service.get(requireActor(request)),
  );

  app.patch(
    "/v1/business",
    {
      schema: {
        tags,
        operationId: "updateBusinessProfile",
        summary: "Change the Business profile",
        description:
          "Changes the fields sent; `null` clears an optional one, a field not sent is kept; `name` cannot be cleared. Business-wide, not per environment: a change made with a sandbox key changes the production profile too. The caller's Business is the one changed (there is no id in the path or body). A new `name` shows at once wherever the Business is named: the dashboard's header and Business switch, e-mails written from then on and the hosted pages (unless the branding sets a display name). `country` must be an ISO 3166-1 alpha-2 code (`invalid_country`), `website` an `https://` address, `time_zone` an IANA name (`invalid_format`). Each change that alters a value is recorded in the audit log (`business_profile_changed`, with the before and after of each changed field). Admins only; from a session it needs a recent confirmation (step-up).",
        body: UpdateBusinessProfileBodySchema,
        response: routeResponses(
          { 200: Type.Ref("BusinessProfile") },
          { access: "write", hasBody: true, codes: ["STEP_UP_REQUIRED"] },
        ),
      },
    },
    async (request) => service.update(requireActor(request), request.body),
  );
}
