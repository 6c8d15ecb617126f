// Collection links as the API shows them. The raw token appears once, inside `url`, in the create response.
import { type Static, Type } from "@sinclair/typebox";
import { stringEnum } from "../../platform/http/schema-types.js";

export const CollectionScopeSchema = stringEnum(["full_onboarding", "payout_destination", "tax_documents"], {
  description:
    "`full_onboarding`: identity fields and a payout destination (sets `collection_status` `details_submitted`); `payout_destination`: a destination only; `tax_documents`: a W-9, W-8BEN or W-8BEN-E.",
});

export const CreateCollectionRequestBodySchema = Type.Object(
  {
    scope: CollectionScopeSchema,
    send_email: Type.Optional(
      Type.Boolean({
        description:
          "When true, the link is e-mailed to the Beneficiary's address in the Business's name (default false). Whatever it is, a submission that changes the declared destination sends the Beneficiary a notice. In sandbox the invitation is captured in the sandbox mailbox (`GET /v1/sandbox/emails`), not delivered, unless the address belongs to one of the Business's own verified people. In production it counts against the Business's daily e-mail limit: over it the request is refused with 429 `MAIL_DAILY_LIMIT_REACHED` and no link is minted.",
      }),
    ),
  },
  { "x-component": "CreateCollectionRequestBody", additionalProperties: false },
);
export type CreateCollectionRequestBody = Static<typeof CreateCollectionRequestBodySchema>;

export const CollectionRequestCreatedSchema = Type.Object(
  {
    id: Type.String({ format: "uuid", description: "The request (token) id, as listed in `pending_requests`." }),
    beneficiary_id: Type.String({ format: "uuid" }),
    scope: CollectionScopeSchema,
    url: Type.String({
      format: "uri",
      description:
        "The hosted page, `{PUBLIC_BASE_URL}/collect/{token}`. Holds the raw token: returned only in this response (and in the invitation e-mail when asked); only a hash is stored, so it cannot be shown again. Create a new link if it is lost.",
    }),
    expires_at: Type.String({ format: "date-time", description: "7 days after minting." }),
    email_sent: Type.Boolean({
      description:
        "Whether an invitation e-mail was issued for the Beneficiary: queued for delivery, or in sandbox captured in the sandbox mailbox (see `send_email`).",
    }),
    created_at: Type.String({ format: "date-time" }),
  },
  { $id: "CollectionRequestCreated" },
);
export type CollectionRequestCreatedBody = Static<typeof CollectionRequestCreatedSchema>;

export const BeneficiaryIdParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });
export const CollectionRequestParamsSchema = Type.Object({
  id: Type.String({ format: "uuid" }),
  requestId: Type.String({ format: "uuid" }),
});

/** Decoded size limit of an uploaded logo: enough for a crisp 320 px wide PNG, small enough to inline in a row. */
export const LOGO_MAX_BYTES = 100 * 1024;

const BrandColorSchema = Type.String({
  pattern: "^#[0-9a-fA-F]{6}$",
  "x-pattern-message": "Expected a colour as #rrggbb, e.g. #0a5c36.",
  description:
    "`#rrggbb`. Used for the pages' buttons (white text) and top bar, so it must have a contrast ratio of at least 4.5:1 with white (WCAG AA); a lighter colour is refused with `low_contrast`.",
});

export const LogoUploadSchema = Type.Object(
  {
    media_type: stringEnum(["image/png", "image/jpeg"], {
      description: "PNG or JPEG (SVG is refused: it can carry script). Checked against the image's first bytes.",
    }),
    data: Type.String({
      minLength: 8,
      maxLength: Math.ceil(LOGO_MAX_BYTES / 3) * 4,
      pattern: "^[A-Za-z0-9+/]+={0,2}$",
      "x-pattern-message": "Expected the image bytes in base64.",
      description: `The image, base64-encoded; at most ${LOGO_MAX_BYTES / 1024} KiB decoded.`,
    }),
  },
  { additionalProperties: false },
);

export const UpdateBrandingBodySchema = Type.Object(
  {
    display_name: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
        description:
          "The name the pages show as the sender; null shows the Business profile's name (`GET /v1/business`), read when the page is shown.",
      }),
    ),
    brand_color: Type.Optional(Type.Union([BrandColorSchema, Type.Null()])),
    logo: Type.Optional(
      Type.Union([LogoUploadSchema, Type.Null()], {
        description:
          "An uploaded image the pages serve themselves (no third-party request from a payee's browser); null removes it.",
      }),
    ),
  },
  { "x-component": "UpdateBrandingBody", additionalProperties: false },
);
export type UpdateBrandingBody = Static<typeof UpdateBrandingBodySchema>;

export const BrandingSchema = Type.Object(
  {
    display_name: Type.Union([Type.String(), Type.Null()]),
    brand_color: Type.Union([Type.String(), Type.Null()]),
    logo: Type.Union([
      Type.Object({
        media_type: Type.String(),
        size_bytes: Type.Integer(),
      }),
      Type.Null(),
    ]),
    updated_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
      description: "Null while the Business never set its branding.",
    }),
  },
  { $id: "Branding" },
);
export type BrandingBody = Static<typeof BrandingSchema>;
