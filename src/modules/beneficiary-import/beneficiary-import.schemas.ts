// Schemas of POST /v1/beneficiaries/import. The body schema checks only the envelope (1 to 500 objects):
// each row is checked on its own against BeneficiaryImportRowSchema inside the use case, so one malformed
// row becomes that row's error instead of a 400 for the whole file.
import { type Static, Type } from "@sinclair/typebox";
import { DOCUMENTED_AS } from "../../platform/http/openapi-document.js";
import { nullable, stringEnum } from "../../platform/http/schema-types.js";
import { CreateBeneficiaryBodySchema } from "../beneficiaries/index.js";
import { RegisterBankAccountBodySchema } from "../destinations/index.js";

export const MAX_IMPORT_ROWS = 500;

// The identity fields are the create route's own (same formats and lengths); `name` is not an import field.
const {
  name: _name,
  beneficiary_type: beneficiaryTypeSchema,
  email: emailSchema,
  ...identityFields
} = CreateBeneficiaryBodySchema.properties;

export const BeneficiaryImportRowSchema = Type.Object(
  {
    email: emailSchema,
    bank: Type.Object(RegisterBankAccountBodySchema.properties, {
      additionalProperties: false,
      description:
        "The bank details of `POST /v1/beneficiaries/{id}/bank-accounts` (`CreateBankAccountRequest`, with `clabe` and `pix_key`), validated exactly as `POST /v1/beneficiaries/{id}/bank-accounts` validates it. `account_type` (`checking` or `savings`) is optional.",
    }),
    acknowledged: Type.Optional(
      Type.Boolean({
        description:
          "`true` records the compliance acknowledgment: `acknowledged_at` is set and `compliance_status` is `compliant`. Omitted or `false`: `pending`.",
      }),
    ),
    beneficiary_type: Type.Optional({
      ...beneficiaryTypeSchema,
      description:
        "Optional: inferred as `person` from `first_name` and `last_name`, or `business` from `business_name`. Needed only when a row has both.",
    }),
    ...identityFields,
  },
  {
    $id: "BeneficiaryImportRow",
    additionalProperties: false,
    description:
      "One row of an import. Required: `email`, `bank`, and either `first_name` and `last_name` (a person) or `business_name` (a business). Unknown fields fail the row.",
  },
);
export type BeneficiaryImportRow = Static<typeof BeneficiaryImportRowSchema>;

export const ImportBodySchema = Type.Object(
  {
    rows: Type.Array(
      // Only "an object" here: each row is validated on its own against BeneficiaryImportRow, so a bad row
      // fails alone; the document shows the row schema.
      Type.Unsafe<Record<string, unknown>>({
        type: "object",
        [DOCUMENTED_AS]: "BeneficiaryImportRow",
        description: "Validated on its own: a row that does not match fails alone (its `results` entry).",
      }),
      { minItems: 1, maxItems: MAX_IMPORT_ROWS },
    ),
  },
  { "x-component": "BeneficiaryImportRequest", additionalProperties: false },
);
export type ImportBody = Static<typeof ImportBodySchema>;

export const IMPORT_ROW_STATUSES = ["created", "already_exists", "duplicate", "failed"] as const;
export type ImportRowStatus = (typeof IMPORT_ROW_STATUSES)[number];

const RowErrorSchema = Type.Object({
  code: Type.String({
    description:
      "The first problem's code: a validation code (`required`, `invalid_format`, `invalid_iban_checksum`, …), `duplicate_email`, `BENEFICIARY_EMAIL_TAKEN` or `internal_error`.",
  }),
  message: Type.String(),
  field: Type.String({
    description: "Path of the first problem's field relative to the row, e.g. `bank.iban` or `email`; empty for the whole row.",
  }),
  details: Type.Array(Type.Ref("ErrorDetail"), {
    description: "Every problem found in the row (the first is repeated above), with paths relative to the row.",
  }),
});

export const ImportResultSchema = Type.Object({
  index: Type.Integer({ description: "Position of the row in `rows`, from 0." }),
  status: stringEnum(IMPORT_ROW_STATUSES, {
    description:
      "`created`: a new Beneficiary and its bank account. `already_exists`: an active Beneficiary of this e-mail already holds this bank account (a re-sent import); its ids are shown and nothing was written. `duplicate`: repeats an earlier row of this file (same e-mail, same bank account; see `duplicate_of`) and shows that row's ids. `failed`: nothing was written; see `error`.",
  }),
  beneficiary_id: nullable(
    Type.String({
      format: "uuid",
      description: "Null when the row failed, except for `BENEFICIARY_EMAIL_TAKEN` and `duplicate_email`, which name the holder.",
    }),
  ),
  bank_account_id: nullable(Type.String({ format: "uuid", description: "The id a Payout names; null when the row failed." })),
  payout_usable: Type.Boolean({ description: "Whether a payout may be sent to the bank account now." }),
  duplicate_of: Type.Optional(Type.Integer({ description: "For `duplicate`: the index of the earlier row it repeats." })),
  error: Type.Optional(RowErrorSchema),
});
export type ImportResult = Static<typeof ImportResultSchema>;

export const ImportResponseSchema = Type.Object(
  {
    results: Type.Array(ImportResultSchema, { description: "One entry per row, in the order of `rows`." }),
    created_count: Type.Integer(),
    already_exists_count: Type.Integer(),
    duplicate_count: Type.Integer(),
    failed_count: Type.Integer({ description: "The four counts add up to the number of rows." }),
  },
  { "x-component": "BeneficiaryImportResult" },
);
export type ImportResponse = Static<typeof ImportResponseSchema>;
