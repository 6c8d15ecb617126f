import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { BENEFICIARY_ERRORS } from "../beneficiaries/beneficiaries.errors.js";
import { EMAIL_ERRORS } from "../emails/emails.errors.js";
import type { BrandingService } from "./collection.branding.js";
import {
  BeneficiaryIdParamsSchema,
  CollectionRequestParamsSchema,
  CreateCollectionRequestBodySchema,
  UpdateBrandingBodySchema,
} from "./collection.schemas.js";
import type { CollectionService } from "./collection.service.js";

const tags = ["Collection links"];

export function registerCollectionRoutes(app: AppInstance, service: CollectionService, branding: BrandingService): void {
  app.post(
    "/v1/beneficiaries/:id/collection-requests",
    {
      schema: {
        tags,
        operationId: "createCollectionRequest",
        summary: "Create a collection link",
        description:
          "Mints a hosted collection link with a scope, live for 7 days. Answers **201** with the request id, scope, `expires_at` and the link `url`, which holds the raw token: shown only in this response (and in the invitation e-mail when `send_email` is true); only a hash of it is stored. A new link for the same Beneficiary invalidates the live one (a resend), so `pending_requests` holds at most one entry. A `full_onboarding` link moves `collection_status` from `not_invited` to `invited`. A submission that changes the declared destination (either scope) e-mails the Beneficiary a notice whatever `send_email` was, and records `declared_destination_change` with `changed_by` `beneficiary_link` and this request's id. Archived Beneficiaries refuse links (422 `BENEFICIARY_ARCHIVED`); archiving closes the live link for good. Needs a `business_admin` key.",
        params: BeneficiaryIdParamsSchema,
        body: CreateCollectionRequestBodySchema,
        response: routeResponses(
          { 201: Type.Ref("CollectionRequestCreated") },
          {
            access: "write",
            hasBody: true,
            hasInput: true,
            codes: [
              "not_found",
              BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED,
              EMAIL_ERRORS.MAIL_DAILY_LIMIT_REACHED,
              EMAIL_ERRORS.BUSINESS_NOT_VERIFIED,
            ],
          },
        ),
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(requireActor(request), request.params.id, request.body)),
  );

  app.delete(
    "/v1/beneficiaries/:id/collection-requests/:requestId",
    {
      schema: {
        tags,
        operationId: "cancelCollectionRequest",
        summary: "Cancel a collection link",
        description:
          "Invalidates one collection link (the id shown in `pending_requests`) so it can no longer be opened or submitted. Answers **204** with no body. Idempotent: cancelling a request already consumed, cancelled, replaced or expired succeeds as a no-op. A request id that does not belong to the named Beneficiary in the caller's Business and environment is 404 `not_found`. Allowed on archived Beneficiaries. Needs a `business_admin` key.",
        params: CollectionRequestParamsSchema,
        response: routeResponses(
          { 204: Type.Null({ description: "Cancelled (or already gone)." }) },
          { access: "write", hasInput: true, codes: ["not_found"] },
        ),
      },
    },
    async (request, reply) => {
      await service.cancel(requireActor(request), request.params.id, request.params.requestId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/v1/branding",
    {
      schema: {
        tags,
        operationId: "getBranding",
        summary: "Branding of the hosted pages",
        description:
          "How the hosted collection pages of this environment present the Business: `display_name` (null: the name of the Business profile, `GET /v1/business`), `brand_color` and the uploaded `logo` (its type and size; the image itself is served only on the pages of a live link). Every field is null until set.",
        response: routeResponses({ 200: Type.Ref("Branding") }, { access: "read" }),
      },
    },
    async (request) => branding.get(requireActor(request)),
  );

  app.patch(
    "/v1/branding",
    {
      schema: {
        tags,
        operationId: "updateBranding",
        summary: "Change the branding of the hosted pages",
        description:
          "Changes the fields present in the body; `null` clears one, an absent field stays as it is. Per environment, like every setting. `brand_color` must keep white text readable (contrast at least 4.5:1, else 400 `validation_failed` with code `low_contrast`). `logo` is an uploaded PNG or JPEG (base64, at most 100 KiB), checked by its first bytes; the pages serve it from this service, so a payee's browser never contacts a third party. Admins only; from a session it needs a recent confirmation (step-up).",
        body: UpdateBrandingBodySchema,
        response: routeResponses({ 200: Type.Ref("Branding") }, { access: "write", hasBody: true, codes: ["STEP_UP_REQUIRED"] }),
      },
    },
    async (request) => branding.update(requireActor(request), request.body),
  );
}
