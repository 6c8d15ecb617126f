// TypeBox schemas of the Beneficiary resource: request validation, response serialization (only the
// fields listed here can ever leave the service) and the OpenAPI document, from one source.
import { type Static, Type } from "@sinclair/typebox";
import { DOCUMENTED_AS } from "../../platform/http/openapi-document.js";
import { nameString, nullable, stringEnum } from "../../platform/http/schema-types.js";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";
import { SCREENING_STATUSES } from "./beneficiaries.schema.js";

export const CountryCodeSchema = Type.String({
  pattern: "^[A-Z]{2}$",
  "x-pattern-message": "Expected an ISO 3166-1 alpha-2 country code in capitals, e.g. DE.",
  description: "ISO 3166-1 alpha-2 country code, e.g. `DE`.",
});
const DateOfBirthSchema = Type.String({
  format: "date",
  description: "`YYYY-MM-DD`; a real date in the past.",
});
const PhoneSchema = Type.String({
  pattern: "^\\+[1-9][0-9]{6,14}$",
  "x-pattern-message": "Expected an E.164 phone number, e.g. +4915123456789.",
  description: "E.164, e.g. `+4915123456789`.",
});
const EmailSchema = Type.String({ format: "email", maxLength: 254 });
const text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });
const TaxIdSchema = Type.String({
  minLength: 2,
  maxLength: 40,
  pattern: "^[A-Za-z0-9][A-Za-z0-9 ./-]*$",
  "x-pattern-message": "Letters, digits, spaces, dots, slashes and dashes only.",
});

export const PostalAddressSchema = Type.Object(
  {
    line1: text(200, "Street line 1"),
    line2: Type.Optional(text(200, "Suite, unit and so on")),
    city: text(100),
    state: Type.Optional(text(100)),
    postal_code: Type.Optional(text(20)),
    country: CountryCodeSchema,
  },
  { additionalProperties: false, $id: "PostalAddress" },
);
export type PostalAddressBody = Static<typeof PostalAddressSchema>;

export const BeneficiaryTypeSchema = stringEnum(["person", "business"]);

/**
 * Identity fields shared by create and update. The names (`name`, `nickname`, `first_name`, `last_name`,
 * `business_name`) must contain a letter or digit: spaces or invisible characters alone are refused (`blank`).
 */
const identityFields = {
  name: Type.Optional(
    nameString(
      200,
      "Legal display name; derived from first and last name, or the business name, when omitted. Must contain a letter or digit.",
    ),
  ),
  nickname: Type.Optional(
    nullable(nameString(100, "Business-facing label; `display_name` shows it when set. Must contain a letter or digit.")),
  ),
  phone: Type.Optional(nullable(PhoneSchema)),
  first_name: Type.Optional(nullable(nameString(100, "Must contain a letter or digit."))),
  last_name: Type.Optional(nullable(nameString(100, "Must contain a letter or digit."))),
  country_of_residence: Type.Optional(nullable(CountryCodeSchema)),
  date_of_birth: Type.Optional(nullable(DateOfBirthSchema)),
  business_name: Type.Optional(nullable(nameString(200, "Must contain a letter or digit."))),
  country_of_incorporation: Type.Optional(nullable(CountryCodeSchema)),
  registration_number: Type.Optional(nullable(text(50))),
  tax_id: Type.Optional(nullable(TaxIdSchema)),
  postal_address: Type.Optional(Type.Union([Type.Ref(PostalAddressSchema), Type.Null()])),
};

export const CreateBeneficiaryBodySchema = Type.Object(
  {
    beneficiary_type: BeneficiaryTypeSchema,
    email: EmailSchema,
    ...identityFields,
  },
  { "x-component": "CreateBeneficiaryRequest", additionalProperties: false },
);
export type CreateBeneficiaryBody = Static<typeof CreateBeneficiaryBodySchema>;

export const UpdateBeneficiaryBodySchema = Type.Object(
  { email: Type.Optional(EmailSchema), ...identityFields },
  {
    "x-component": "UpdateBeneficiaryRequest",
    additionalProperties: false,
    minProperties: 1,
    description: "Fields sent replace the stored ones; `null` clears an optional field; fields not sent are kept.",
  },
);
export type UpdateBeneficiaryBody = Static<typeof UpdateBeneficiaryBodySchema>;

export const PendingCollectionRequestSchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    scope: stringEnum(["full_onboarding", "payout_destination", "tax_documents"]),
    expires_at: Type.String({ format: "date-time" }),
  },
  { $id: "PendingCollectionRequest" },
);

const timestamp = Type.String({ format: "date-time" });

/** The latest tax form a Beneficiary submitted over a `tax_documents` link, masked. */
export const TaxDocumentSchema = Type.Object(
  {
    form: stringEnum(["W-9", "W-8BEN", "W-8BEN-E"], {
      description: "IRS form: W-9 for US persons, W-8BEN for foreign individuals, W-8BEN-E for foreign entities.",
    }),
    status: stringEnum(["submitted", "expired"], {
      description:
        "`submitted` when the Beneficiary certified it; `expired` for a W-8 form past the end of the third calendar year after signing (a W-9 does not expire).",
    }),
    submitted_at: timestamp,
    expires_at: nullable(Type.String({ format: "date-time", description: "W-8 forms only: end of validity." })),
    name: Type.String({ description: "Name as given on the form." }),
    tin_type: stringEnum(["ssn", "ein", "itin", "foreign_tin", "none"]),
    tin: nullable(
      Type.String({
        description: "Masked: at most the last four characters, never more than half of the TIN, e.g. `•••••6789`.",
      }),
    ),
    country: Type.String({ description: "Country of citizenship (individuals) or of incorporation (entities); `US` on a W-9." }),
    treaty_country: nullable(Type.String({ description: "Country whose income tax treaty benefits are claimed (W-8 forms)." })),
    signed_by: Type.String({ description: "The typed signature." }),
    signed_on: Type.String({ format: "date", description: "Date of the certification (UTC)." }),
  },
  { $id: "TaxDocument" },
);
export type TaxDocumentBody = Static<typeof TaxDocumentSchema>;

/** Who last set, changed or cleared `declared_destination_id`, how and when. */
export const DeclaredDestinationChangeSchema = Type.Object(
  {
    changed_at: timestamp,
    changed_by: stringEnum(["business", "beneficiary_link"], {
      description:
        "`business`: a call with the Business's API key (`api_key_id`, `membership_id`, `user_id` say whose). `beneficiary_link`: a submission on a collection link (`collection_request_id`); the link's holder made it, which may be the Business itself if it kept the link.",
    }),
    reason: stringEnum(["declared", "destination_deleted", "link_submitted"], {
      description:
        "`declared`: `PUT /v1/beneficiaries/{id}/declared-destination`; `destination_deleted`: the declared destination was deleted, which cleared it; `link_submitted`: a `payout_destination` or `full_onboarding` link was submitted.",
    }),
    previous_destination_id: nullable(Type.String({ format: "uuid" })),
    destination_id: nullable(Type.String({ format: "uuid", description: "Null when the change cleared it." })),
    api_key_id: nullable(Type.String({ format: "uuid" })),
    membership_id: nullable(Type.String({ format: "uuid" })),
    user_id: nullable(Type.String({ format: "uuid" })),
    collection_request_id: nullable(Type.String({ format: "uuid" })),
  },
  { $id: "DeclaredDestinationChange" },
);
export type DeclaredDestinationChangeBody = Static<typeof DeclaredDestinationChangeSchema>;

const ScreeningMatchSchema = Type.Object({
  hit_id: Type.String({ format: "uuid", description: "The hit (GET /v1/screening-hits/{id})." }),
  list_id: Type.String({ description: "`ofac_sdn` or `eu_consolidated`." }),
  entry_ref: Type.String({ description: "The publisher's id of the entry." }),
  entry_name: Type.String({ description: "The entry's primary name." }),
  matched_name: Type.String({ description: "The listed name (primary or alias) closest to the Beneficiary's." }),
  score: Type.Number({ minimum: 0, maximum: 1, description: "Name similarity, 0 to 1." }),
  status: stringEnum(["open", "cleared", "confirmed"], { description: "The hit's status." }),
});

export const BeneficiarySchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    beneficiary_type: BeneficiaryTypeSchema,
    name: Type.String(),
    nickname: nullable(Type.String()),
    display_name: Type.String({ description: "The nickname when set, else the legal name." }),
    email: Type.String(),
    phone: nullable(Type.String()),
    first_name: nullable(Type.String()),
    last_name: nullable(Type.String()),
    country_of_residence: nullable(Type.String()),
    date_of_birth: nullable(Type.String({ format: "date" })),
    business_name: nullable(Type.String()),
    country_of_incorporation: nullable(Type.String()),
    registration_number: nullable(Type.String()),
    tax_id: nullable(
      Type.String({
        description:
          "Masked: at most the last four characters, never more than half of the tax id (fewer for short ones), e.g. `•••••6789`.",
      }),
    ),
    postal_address: Type.Union([Type.Ref(PostalAddressSchema), Type.Null()]),
    bank_details: Type.Null({
      description: "Deprecated and always null: list destinations with `GET /v1/beneficiaries/{id}/bank-accounts`.",
    }),
    compliance_status: stringEnum(["pending", "compliant", "suspended"]),
    identity_complete: Type.Boolean(),
    missing_identity_fields: Type.Array(Type.String(), {
      description: "Required identity fields still missing (empty when `identity_complete`).",
    }),
    acknowledged_at: nullable(timestamp),
    reacknowledgment_required: Type.Boolean(),
    collection_status: stringEnum(["not_invited", "invited", "details_submitted"]),
    details_submitted_at: nullable(timestamp),
    declared_destination_id: nullable(Type.String({ format: "uuid" })),
    // A nullable object as a type array, not an anyOf union (see tax_document).
    declared_destination_change: Type.Unsafe<DeclaredDestinationChangeBody | null>({
      properties: DeclaredDestinationChangeSchema.properties,
      required: DeclaredDestinationChangeSchema.required,
      [DOCUMENTED_AS]: "DeclaredDestinationChange",
      type: ["object", "null"],
      description:
        "The latest set, change or clear of `declared_destination_id`: who made it, why and when (schema `DeclaredDestinationChange`); null when it was never set. Every such change, whoever made it, is announced to the Beneficiary by e-mail, naming the new destination by its masked value only.",
    }),
    status: stringEnum(["suspended", "reacknowledgment_required", "pending_details", "pending_kyc", "action_required", "ready"], {
      description:
        "Derived at read time; first match wins: suspended, reacknowledgment_required, pending_details (identity incomplete), pending_kyc (not yet acknowledged), action_required (no payout-usable destination, or enrollment rejected), ready.",
    }),
    enrollment_status: nullable(
      stringEnum(["pending", "verified", "rejected", "suspended", "closed"], {
        description:
          "Enrollment with the environment's payout rail; null until the first attempt. Attempted after the compliance acknowledgment, after a destination is registered for a compliant Beneficiary (import: by the worker after the import), and on `POST /v1/beneficiaries/{id}/enrollment`. `pending` while an attempt is in flight; `rejected` blocks new payouts until a later attempt verifies.",
      }),
    ),
    enrollment_failure_detail: nullable(
      Type.String({
        description:
          "The rail's wording of the refusal behind `rejected` (no provider named); null in every other state, including an attempt in flight.",
      }),
    ),
    enrollment_failure_bank_account_id: nullable(
      Type.String({
        description:
          "The bank account the refusal named (its `rail_rejection_reason` repeats the wording); null when it named none and in every other state.",
      }),
    ),
    missing_for_ready: Type.Array(
      Type.Object({
        code: stringEnum([
          "archived",
          "compliance_suspended",
          "identity_incomplete",
          "reacknowledgment_required",
          "compliance_acknowledgment",
          "payout_destination",
          "enrollment_rejected",
        ]),
        message: Type.String({ description: "In words, for people; may change wording (the code does not)." }),
      }),
      {
        description:
          "Everything that stands between this Beneficiary and `ready` (a payout can be created), each with a stable `code` and a human `message`; empty when nothing does. Unlike `status`, which names the first rule that matches, this lists them all, and also says when the Beneficiary is archived. Codes: `archived`, `compliance_suspended`, `identity_incomplete` (see `missing_identity_fields`), `reacknowledgment_required`, `compliance_acknowledgment` (not yet acknowledged), `payout_destination` (no payout-usable destination), `enrollment_rejected`. New codes may be added.",
      },
    ),
    pending_requests: Type.Array(Type.Ref("PendingCollectionRequest"), {
      description:
        "Live collection links only (not consumed, cancelled, replaced, expired or closed by archiving), computed when read. 0 or 1 entries: a new link replaces the live one. Empty while archived, and after un-archiving until a new link is minted.",
    }),
    // A nullable object as a type array, not an anyOf union: fast-json-stringify checks every row against each
    // branch of an anyOf, which cost ~1 ms of CPU per 100-row list page (measured, bench beneficiaries_list).
    tax_document: Type.Unsafe<TaxDocumentBody | null>({
      properties: TaxDocumentSchema.properties,
      required: TaxDocumentSchema.required,
      [DOCUMENTED_AS]: "TaxDocument",
      type: ["object", "null"],
      description: "The latest tax form submitted over a `tax_documents` link, masked (schema `TaxDocument`); null when none.",
    }),
    screening_status: stringEnum(SCREENING_STATUSES, {
      description:
        "Sanctions screening (destination policy `screening: on`, lists loaded by the operator): `not_screened`, `clear` (no listed name close enough), `potential_match` (a hit waits for an admin: new payouts are refused with 422 `SANCTIONS_REVIEW_REQUIRED`, approved ones not yet sent are held), `cleared` (an admin found the hits false positives) or `confirmed_match` (an admin confirmed one: blocked while the entry is listed). Screened at creation, on a change of name or country, and again whenever a list changes.",
    }),
    screening_match: Type.Unsafe<ScreeningMatchBody | null>({
      ...ScreeningMatchSchema,
      type: ["object", "null"],
      description:
        "The hit the `screening_status` is about (the highest-scoring live one; GET /v1/screening-hits?beneficiary_id= lists all); null when none.",
    }),
    screened_at: nullable({ ...timestamp, description: "When it was last screened; null when never." }),
    archived_at: nullable(timestamp),
    environment: stringEnum(["sandbox", "production"]),
    created_at: timestamp,
    updated_at: timestamp,
  },
  { $id: "Beneficiary" },
);
export type BeneficiaryBody = Static<typeof BeneficiarySchema>;

export type ScreeningMatchBody = Static<typeof ScreeningMatchSchema>;
export const BeneficiaryIdParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });

export const ListBeneficiariesQuerySchema = Type.Object(
  {
    ...PageQuerySchema,
    status: Type.Optional(BeneficiarySchema.properties.status),
    compliance_status: Type.Optional(BeneficiarySchema.properties.compliance_status),
    beneficiary_type: Type.Optional(BeneficiaryTypeSchema),
    email: Type.Optional(Type.String({ maxLength: 254, description: "Exact e-mail, case-insensitive." })),
    created_from: Type.Optional(Type.String({ format: "date-time", description: "Created at or after." })),
    created_to: Type.Optional(Type.String({ format: "date-time", description: "Created before." })),
  },
  { additionalProperties: false },
);
export type ListBeneficiariesQuery = Static<typeof ListBeneficiariesQuerySchema>;

export const BeneficiaryListSchema = Type.Object(
  {
    beneficiaries: Type.Array(Type.Ref("Beneficiary")),
    next_cursor: nullable(Type.String()),
  },
  { "x-component": "BeneficiaryList" },
);
