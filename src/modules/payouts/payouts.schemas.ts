// Payouts, Decisions and the approval policy as the API shows them.
import { type Static, Type } from "@sinclair/typebox";
import { DOCUMENTED_AS, DOCUMENTED_REQUIRED } from "../../platform/http/openapi-document.js";
import { nameString, nullable, stringEnum } from "../../platform/http/schema-types.js";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";
import { SCREENING_STATUSES } from "../beneficiaries/beneficiaries.shared.js";
import { PAYOUT_FUNDING_STATUSES, PAYOUT_STATUSES } from "./payouts.state.js";

const nullableString = nullable(Type.String());
const nullableDateTime = nullable(Type.String({ format: "date-time" }));

export const PayoutStatusSchema = stringEnum(PAYOUT_STATUSES, {
  description:
    "`pending_approval` (waiting for a Decision), `approved` (being sent to the rail), `rejected`, `disbursed` (the rail sent the money), `settled` (production: the return window closed), `returned` (production: the bank sent it back), `failed`, `canceled`, `compliance_hold` (held for review; see `held_from_status`). The lifecycle is drawn under the Payouts tag.",
});

/**
 * Who gets paid and where, embedded in every Payout (list, retrieve, create, Decision and cancel answers): what
 * a person approving or reviewing it reads first, without one request per row. Masked values only.
 */
export const PayoutPayeeSchema = Type.Object(
  {
    beneficiary_id: Type.String({ format: "uuid", description: "The same as the payout's `beneficiary_id`." }),
    display_name: Type.String({
      description: "The Beneficiary's `display_name` as it is now: its nickname when set, else its legal name.",
    }),
    country: nullable(
      Type.String({
        description:
          "The Beneficiary's country (ISO 3166-1 alpha-2): of residence for an individual, of incorporation for a business; null while not given.",
      }),
    ),
    screening_status: stringEnum(SCREENING_STATUSES, {
      description:
        "The Beneficiary's sanctions screening state now (its `screening_status`), shown so an approver sees it before deciding: `not_screened`, `clear`, `potential_match` (a hit waits for an admin's review: this payout is not sent while it waits), `cleared` (an admin found the hits false positives) or `confirmed_match` (blocked).",
    }),
    destination: Type.Object(
      {
        bank_account_id: Type.String({ format: "uuid", description: "The same as the payout's `bank_account_id`." }),
        type: stringEnum(["bank_account", "card"]),
        scheme: Type.String({
          description:
            "The routing scheme that accepted it: iban, us_aba, gb_sort_code, mx_clabe, br_pix, br_bank_account, ca_eft, au_bsb, in_ifsc, swift, card.",
        }),
        country: Type.String({ description: "The destination's country (ISO 3166-1 alpha-2)." }),
        currency: Type.String({ description: "The destination's currency (ISO 4217)." }),
        last4: Type.String({
          description:
            "The masked account identifier: at most its last four characters, never more than half of it (the same value as `destination_last4`). A full account number is never shown.",
        }),
        deleted: Type.Boolean({ description: "True when the destination was deleted after the payout was created." }),
        approval_status: stringEnum(["approved", "pending_approval", "rejected"], {
          description: "The destination's approval state now (destination policy `require_approval`).",
        }),
        details_changed_at: Type.String({
          format: "date-time",
          description: "When the destination's bank details were added or last changed: an approver sees how fresh they are.",
        }),
        first_payout: Type.Boolean({ description: "True when this is the first payout ever created to this destination." }),
        name_check_result: Type.Union([stringEnum(["match", "close_match", "no_match", "not_possible"]), Type.Null()], {
          description:
            "The destination's latest payee name check (its `name_check_result`): whether the bank holds the account in the payee's name, shown so an approver sees it before deciding. Null until checked.",
        }),
        name_check_bank_name: Type.Union([Type.String(), Type.Null()], {
          description: "With a `close_match`: the name the bank holds for the account. Null otherwise.",
        }),
      },
      { description: "Where the money goes, masked." },
    ),
  },
  {
    $id: "PayoutPayee",
    description:
      "Who gets paid and where: always present, read when the payout is answered (the name is the Beneficiary's current one).",
  },
);
export type PayoutPayeeBody = Static<typeof PayoutPayeeSchema>;

export const PayoutSchema = Type.Object(
  {
    payout_id: Type.String({ format: "uuid" }),
    environment: stringEnum(["sandbox", "production"]),
    status: PayoutStatusSchema,
    held_from_status: nullable(
      Type.String({
        enum: [...PAYOUT_STATUSES],
        description: "While on `compliance_hold`: the state the payout returns to when the review clears; else null.",
      }),
    ),
    amount_minor: Type.Integer({ description: "Amount in minor units of `currency`." }),
    amount: Type.String({ description: "The same amount as a decimal string in major units (as in events), e.g. `12.34`." }),
    currency: Type.String({ description: "ISO 4217." }),
    beneficiary_id: Type.String({ format: "uuid" }),
    bank_account_id: Type.String({
      format: "uuid",
      description: "The destination (bank account or card) the payout goes to; still named after that destination is deleted.",
    }),
    destination_last4: Type.String({
      description: "The destination's masked value (as its `last4` in the bank-account listing), kept after it is deleted.",
    }),
    external_ref: nullableString,
    idempotency_key: Type.String(),
    channel: stringEnum(["api", "csv"], { description: "`api` for POST /v1/payouts, `csv` for the bulk route." }),
    upload_id: nullable(Type.String({ description: "The bulk upload's `uploadId`; null for single payouts." })),
    replaces_payout_id: nullable(Type.String({ format: "uuid" })),
    rail: nullable(Type.String({ description: "Latest disbursement attempt: the rail it went to (null before dispatch)." })),
    rail_ref: nullable(Type.String({ description: "Latest disbursement attempt: the rail's reference." })),
    disbursement_status: nullable(
      Type.String({
        enum: ["submitting", "submitted", "refused"],
        description:
          "Latest disbursement attempt: `submitting` (being sent), `submitted` (the rail took it), `refused` (the rail refused it); null before dispatch.",
      }),
    ),
    failure_reason: nullable(
      Type.String({ description: "Why the payout failed, was returned or was canceled (the rail's wording); else null." }),
    ),
    estimated_arrival_at: nullableDateTime,
    disbursed_at: nullableDateTime,
    delivered_at: nullableDateTime,
    settled_at: nullableDateTime,
    returned_at: nullableDateTime,
    funding_status: stringEnum(PAYOUT_FUNDING_STATUSES, {
      description:
        "What the funding account holds for it: `not_tracked` (before approval, or never held), `reserved` (held at approval), `awaiting_funds` (approved, enforcement on, not covered: nothing is sent until funds arrive), `posted` (disbursed: the hold became a debit), `released` (failed, canceled or rejected: the hold voided or the wait ended), `reversed` (returned: credited back).",
    }),
    reconciliation_status: stringEnum(["unreconciled", "reconciled"], {
      description:
        "`reconciled` once a line of a bank statement was matched to it (automatically or by a person, `POST /v1/statement-lines/{id}/match`); back to `unreconciled` when that match is undone.",
    }),
    reconciled_at: nullableDateTime,
    created_at: Type.String({ format: "date-time" }),
    updated_at: Type.String({ format: "date-time" }),
    payee: Type.Ref("PayoutPayee"),
    created_by: Type.Object(
      {
        api_key_id: nullable(Type.String({ format: "uuid", description: "The key that created it; null from a session." })),
        membership_id: nullable(Type.String({ format: "uuid", description: "The member behind the key or session." })),
        user_id: nullable(Type.String({ format: "uuid" })),
      },
      {
        description:
          "The maker. With maker-checker on, the same key, member or person cannot approve it (a dashboard shows who is blocked).",
      },
    ),
  },
  { $id: "Payout" },
);
export type PayoutBody = Static<typeof PayoutSchema>;

const amountMinor = Type.Integer({
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description: "Positive integer in minor units of `currency` (cents for EUR, yen for JPY).",
});
const currency = Type.String({ pattern: "^[A-Z]{3}$", description: "ISO 4217, capital letters; must be the destination's." });
const idempotencyKey = Type.String({ minLength: 1, maxLength: 255 });
const externalRef = Type.String({ minLength: 1, maxLength: 255, description: "Your reference; echoed in events." });

export const CreatePayoutBodySchema = Type.Object(
  {
    beneficiary_id: Type.String({ format: "uuid" }),
    bank_account_id: Type.Optional(
      Type.String({
        format: "uuid",
        description:
          "The destination. When omitted: the Beneficiary's declared destination when set, else its only payout-usable destination; otherwise refused (`DESTINATION_AMBIGUOUS` or `NO_PAYOUT_DESTINATION`).",
      }),
    ),
    amount_minor: amountMinor,
    currency,
    external_ref: Type.Optional(externalRef),
    idempotency_key: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          "The idempotency key, when not sent as the `Idempotency-Key` header (the body wins when both are given). One of the two is required.",
      }),
    ),
    replaces_payout_id: Type.Optional(
      Type.String({ format: "uuid", description: "A `failed` payout of the same Beneficiary that this payout recovers." }),
    ),
  },
  { "x-component": "CreatePayoutRequest", additionalProperties: false },
);
export type CreatePayoutBody = Static<typeof CreatePayoutBodySchema>;

export const CreatePayoutHeadersSchema = Type.Object({
  "idempotency-key": Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        "Your key for this payout, e.g. a UUID you generate: a retry with the same key never creates a second payout. Declared required: the server also takes the key as `idempotency_key` in the body (which wins when both are given), and refuses a request with neither (400 `validation_failed`).",
      // Required in the document (SDKs ask for it); the server also accepts it in the body instead.
      [DOCUMENTED_REQUIRED]: true,
    }),
  ),
});

export const PayoutParamsSchema = Type.Object({ payoutId: Type.String({ format: "uuid" }) });

/** The filters of the payouts list, shared by GET /v1/payouts and its CSV export (GET /v1/payouts/export). */
const PayoutFilterProperties = {
  status: Type.Optional(PayoutStatusSchema),
  beneficiary_id: Type.Optional(Type.String({ format: "uuid" })),
  payee: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: "\\S",
      description:
        "Only payouts to Beneficiaries whose name or nickname contains this text, ignoring case (archived Beneficiaries included), e.g. `jane`.",
      examples: ["jane"],
    }),
  ),
  upload_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        "Only the payouts of this bulk upload. A SHA-256 id in another spelling (bare hex, capital letters) is normalised as the bulk route does.",
    }),
  ),
  external_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  replaces_payout_id: Type.Optional(
    Type.String({
      format: "uuid",
      description:
        "Only the replacements of this (failed) payout: every payout created with it as `replaces_payout_id`, the live one and those that ended failed, rejected or canceled.",
    }),
  ),
  channel: Type.Optional(stringEnum(["api", "csv"], { description: "Only payouts created through this channel." })),
  currency: Type.Optional(Type.String({ pattern: "^[A-Z]{3}$", description: "Only payouts in this currency (ISO 4217)." })),
  created_from: Type.Optional(Type.String({ format: "date-time", description: "Only payouts created at or after this time." })),
  created_to: Type.Optional(
    Type.String({ format: "date-time", description: "Only payouts created before this time (exclusive)." }),
  ),
  updated_from: Type.Optional(
    Type.String({ format: "date-time", description: "Only payouts last changed at or after this time." }),
  ),
  updated_to: Type.Optional(
    Type.String({ format: "date-time", description: "Only payouts last changed before this time (exclusive)." }),
  ),
  amount_min: Type.Optional(
    Type.Integer({ minimum: 1, description: "Only payouts of at least this amount, in minor units (inclusive)." }),
  ),
  amount_max: Type.Optional(
    Type.Integer({ minimum: 1, description: "Only payouts of at most this amount, in minor units (inclusive)." }),
  ),
};

export const ListPayoutsQuerySchema = Type.Object(
  {
    ...PageQuerySchema,
    updatedSince: Type.Optional(
      Type.String({
        format: "date-time",
        description:
          "Only payouts changed at or after this time, oldest change first (catch-up after missed webhooks). Without it, newest first.",
      }),
    ),
    ...PayoutFilterProperties,
  },
  { additionalProperties: false },
);
export type ListPayoutsQuery = Static<typeof ListPayoutsQuerySchema>;

export const ExportPayoutsQuerySchema = Type.Object({ ...PayoutFilterProperties }, { additionalProperties: false });
/** The list's filters alone (no page, no `updatedSince`): what the export takes. */
export type PayoutFilterQuery = Static<typeof ExportPayoutsQuerySchema>;

export const PAYOUT_EXPORT_DESCRIPTION = [
  "The payouts `GET /v1/payouts` would list with the same filters (`status`, `beneficiary_id`, `upload_id`, `external_ref`, `replaces_payout_id`, `channel`, `currency`, `created_from`/`created_to`, `updated_from`/`updated_to`, `amount_min`/`amount_max`; no page: every match), newest first, as one CSV file (RFC 4180: comma-separated, CRLF line ends, UTF-8 without a byte-order mark, fields quoted when they hold a comma, quote or line break). The first row is the header. Streamed in batches read as the client takes the file (chunked transfer encoding), so any number of payouts can be exported; any role that reads payouts may export, and every export is recorded in the audit log (`payouts_exported`).",
  "Each row carries the payee's display name and the destination masked as everywhere else (its kind, scheme, country and at most its last four characters): never an account number.",
  "Spreadsheet formula injection (OWASP's rule): a cell whose text starts with `=`, `+`, `-`, `@`, a tab or a carriage return, or whose first character after leading whitespace and invisible characters is `=`, `+`, `-` or `@` (or their full-width forms), is prefixed with a single quote `'`.",
  "Empty cells stand for null. A bad filter or reversed range is 400 `validation_failed` before any byte; a failure mid-stream closes the connection before the end of the chunked body.",
].join("\n\n");

export const PayoutCsvResponseSchema = Type.Unsafe<unknown>({
  description:
    "The CSV file, streamed (`Content-Type: text/csv; charset=utf-8`). Columns in order are listed in the operation's description.",
  headers: {
    "content-disposition": {
      type: "string",
      description: 'Always `attachment; filename="payouts-<environment>-<YYYYMMDD>.csv"` (UTC date).',
    },
  },
  content: {
    "text/csv": {
      schema: { type: "string", description: "The header row, then one row per payout." },
    },
  },
});

export const VolumeQuerySchema = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 90, default: 30, description: "Days back, today included. Default 30." }),
    ),
    time_zone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "The IANA time zone whose calendar days are counted (e.g. Europe/Berlin), so a day runs from local midnight to local midnight, across daylight-saving changes. Default UTC. The dashboard sends the Business's time zone (`time_zone` of `GET /v1/business`), else the browser's. An unknown name is 400 `validation_failed` (`invalid_format`).",
      }),
    ),
  },
  { additionalProperties: false },
);
export type VolumeQuery = Static<typeof VolumeQuerySchema>;

export const VolumeSchema = Type.Object(
  {
    since: Type.String({ format: "date", description: "The first day counted, in `time_zone`." }),
    until: Type.String({ format: "date", description: "The last day counted, in `time_zone`: today there." }),
    time_zone: Type.String({ description: "The time zone the days are in: the one asked for, else UTC." }),
    days: Type.Array(
      Type.Object({
        date: Type.String({ format: "date", description: "The day the payouts were created, in `time_zone`." }),
        currency: Type.String({ minLength: 3, maxLength: 3 }),
        count: Type.Integer({ minimum: 1 }),
        amount_minor: Type.Integer({ minimum: 1, description: "Sum of the amounts, in minor units of the currency." }),
      }),
      { description: "One entry per day and currency that has payouts, oldest day first; days without payouts are absent." },
    ),
  },
  { "x-component": "PayoutVolume" },
);
export type VolumeBody = Static<typeof VolumeSchema>;

export const PayoutListSchema = Type.Object(
  {
    payouts: Type.Array(Type.Ref("Payout")),
    next_cursor: nullable(Type.String({ description: "Pass as `cursor` for the next page; null on the last page." })),
  },
  { "x-component": "PayoutList" },
);

export const DecisionSchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    payout_id: Type.String({ format: "uuid" }),
    outcome: stringEnum(["approve", "reject"]),
    reason: nullableString,
    validator: Type.Object({
      type: stringEnum(["human", "automated"]),
      name: nullable(
        Type.String({
          description:
            "For automated validators: the system's name (`approval_policy` for our own policy, a name callers may not use); null for a person.",
        }),
      ),
      api_key_id: nullable(Type.String({ format: "uuid", description: "The key that recorded it; null for the policy." })),
      user_id: nullable(Type.String({ format: "uuid" })),
      membership_id: nullable(Type.String({ format: "uuid" })),
      policy_rule: nullable(Type.String({ description: "The approval-policy rule that fired (policy Decisions only)." })),
    }),
    created_at: Type.String({ format: "date-time" }),
  },
  { $id: "Decision" },
);
export type DecisionBody = Static<typeof DecisionSchema>;

// Free text from a reviewer: the one kind of request string that may span lines (TAB, CR, LF allowed).
const reason = Type.String({
  minLength: 1,
  maxLength: 1000,
  "x-multiline": true,
  description: "Free text; may hold line breaks and tabs, but no other control characters.",
});

export const DecisionBodySchema = Type.Object(
  {
    outcome: stringEnum(["approve", "reject"]),
    reason: Type.Optional(reason),
    validator: Type.Optional(
      Type.Object(
        {
          type: stringEnum(["human", "automated"], {
            description: "`human` (default) or `automated` when a system of yours decides through this key.",
          }),
          name: Type.Optional(nameString(120, "Required for `automated`. Must contain a letter or digit.")),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { "x-component": "CreateDecisionRequest", additionalProperties: false },
);
export type DecisionRequestBody = Static<typeof DecisionBodySchema>;

export const AliasDecisionBodySchema = Type.Union(
  [Type.Object({ reason: Type.Optional(reason) }, { additionalProperties: false }), Type.Null()],
  { "x-component": "PayoutActionRequest" },
);

export const DecisionResultSchema = Type.Object(
  {
    decision: Type.Ref("Decision"),
    payout: Type.Ref("Payout"),
  },
  { "x-component": "DecisionResult" },
);

export const DecisionListSchema = Type.Object({ decisions: Type.Array(Type.Ref("Decision")) }, { "x-component": "DecisionList" });

export const CancelBodySchema = Type.Union(
  [Type.Object({ reason: Type.Optional(reason) }, { additionalProperties: false }), Type.Null()],
  { "x-component": "PayoutActionRequest" },
);

// Approval policy ----------------------------------------------------------------------------------------

export const PolicyRuleSchema = Type.Object(
  {
    name: nameString(80, "Recorded on the Decision as `policy_rule`. Must contain a letter or digit."),
    outcome: stringEnum(["approve", "reject"]),
    currency: Type.Optional(Type.String({ pattern: "^[A-Z]{3}$", description: "Only payouts in this currency." })),
    max_amount_minor: Type.Optional(
      Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "Only amounts up to this (inclusive)." }),
    ),
    min_amount_minor: Type.Optional(
      Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "Only amounts from this (inclusive)." }),
    ),
    channels: Type.Optional(Type.Array(stringEnum(["api", "csv"]), { minItems: 1, maxItems: 2 })),
    min_beneficiary_age_hours: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 87_600, description: "Only Beneficiaries created at least this long ago." }),
    ),
    max_beneficiary_age_hours: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 87_600, description: "Only Beneficiaries created at most this long ago (new ones)." }),
    ),
    min_destination_age_hours: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 87_600,
        description:
          "Only destinations whose bank details were set (added or last changed) at least this long ago, and whose cooling-off (destination policy) ended at least this long ago: an `approve` rule with it never pays a fresh destination.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type PolicyRule = Static<typeof PolicyRuleSchema>;

export const ApprovalPolicySchema = Type.Object(
  {
    environment: stringEnum(["sandbox", "production"]),
    rules: Type.Array(PolicyRuleSchema, {
      description:
        "Evaluated in order at creation; the first rule whose every condition holds decides, recording an automated Decision naming the rule. A payout no rule matches waits for a person.",
    }),
    maker_checker: Type.Boolean({
      description:
        "When true, the person who created a payout (its key, membership or user) may not approve it, with any of their keys: four eyes means two people.",
    }),
    updated_at: nullableDateTime,
  },
  { $id: "ApprovalPolicy" },
);
export type ApprovalPolicyBody = Static<typeof ApprovalPolicySchema>;

export const PutApprovalPolicyBodySchema = Type.Object(
  {
    rules: Type.Array(PolicyRuleSchema, { maxItems: 50 }),
    maker_checker: Type.Optional(Type.Boolean()),
  },
  { "x-component": "ReplaceApprovalPolicyRequest", additionalProperties: false },
);
export type PutApprovalPolicyBody = Static<typeof PutApprovalPolicyBodySchema>;

// Bulk ------------------------------------------------------------------------------------------------

/** One bulk row. Validated row by row in the service, so a bad row never fails the file. */
export const BulkRowSchema = Type.Object(
  {
    beneficiary_id: Type.String({ format: "uuid" }),
    bank_account_id: Type.Optional(Type.String({ format: "uuid" })),
    amount_minor: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description:
          "Positive integer in minor units of `currency` (cents for EUR, yen for JPY). A row gives `amount_minor`, `amount` or both (then they must be equal).",
      }),
    ),
    amount: Type.Optional(
      Type.String({
        pattern: "^[0-9]{1,16}(\\.[0-9]{1,4})?$",
        maxLength: 21,
        examples: ["12.50"],
        description:
          "The amount in the currency's units, as a decimal string with a point and no thousands separator (`12.50` EUR, `1500` JPY), at most as many decimals as the currency has (ISO 4217): more is `failed` with detail code `too_many_decimals`. When the row also gives `amount_minor`, both must be the same amount, else `failed` with detail code `amounts_disagree`.",
      }),
    ),
    currency,
    external_ref: Type.Optional(externalRef),
    idempotency_key: Type.Optional(idempotencyKey),
    replaces_payout_id: Type.Optional(
      Type.String({ format: "uuid", description: "A `failed` payout of the same Beneficiary that this row recovers." }),
    ),
  },
  {
    $id: "BulkPayoutRow",
    additionalProperties: false,
    description:
      "One row of a bulk upload: a payout as `POST /v1/payouts` takes it, its amount given as `amount_minor` (minor units), `amount` (currency units, a decimal string) or both. It is the row of the one bulk CSV format (the dashboard, the client's `createPayoutsFromCsv` and the CLI's `payouts payouts bulk` read the same columns: `beneficiary_id`, `amount` and/or `amount_minor`, `currency`, then optional `bank_account_id`, `external_ref`, `idempotency_key`, `replaces_payout_id`). Its idempotency key is derived from the upload (see the operation).",
  },
);
export type BulkRow = Static<typeof BulkRowSchema>;

export const BulkBodySchema = Type.Object(
  {
    uploadId: Type.String({
      minLength: 1,
      maxLength: 128,
      description:
        "The file's upload id: `sha256-` and the 64 lowercase hex digits of the SHA-256 of the file's bytes exactly as read (no newline or byte-order-mark change), computed by the client (`computeUploadId` in the client package, used by the dashboard and the CLI alike), so the same file sent by any path is the same upload and its rows replay instead of paying twice. A file sent in parts of 1000 rows adds `.<n>` (part number from 0). A SHA-256 in another spelling (bare 64 hex digits, capital letters) is normalised to that form, so it names the same upload; any other id is kept as given. Tags every payout (`upload_id`) and seeds each row's idempotency key.",
      examples: ["sha256-9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"],
    }),
    rows: Type.Array(
      // Not checked here: each row is validated on its own, so a bad row fails alone (its `results` entry).
      Type.Unsafe<unknown>({ [DOCUMENTED_AS]: "BulkPayoutRow" }),
      {
        minItems: 1,
        maxItems: 1000,
        description:
          "1 to 1000 rows, each a `BulkPayoutRow`, validated on its own: a row that does not match is reported `failed` (code `validation_failed`) in `results` and never fails the upload.",
      },
    ),
  },
  { "x-component": "BulkPayoutRequest", additionalProperties: false },
);
export type BulkBody = Static<typeof BulkBodySchema>;

export const BulkResultSchema = Type.Object({
  index: Type.Integer(),
  status: stringEnum(["created", "replayed", "failed"], {
    description:
      "`created`: a new payout; `replayed`: the row's idempotency key already made this payout (a re-upload); `failed`: see `error`.",
  }),
  payout_id: nullable(Type.String({ format: "uuid" })),
  payout_status: nullable(Type.String({ enum: [...PAYOUT_STATUSES] })),
  error: Type.Union(
    [
      Type.Null(),
      Type.Object({
        code: Type.String({ description: "The code the same request would get from POST /v1/payouts." }),
        message: Type.String(),
        details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), code: Type.String(), message: Type.String() }))),
      }),
    ],
    { description: "Null unless `failed`." },
  ),
});
export type BulkResult = Static<typeof BulkResultSchema>;

export const BulkResponseSchema = Type.Object(
  {
    upload_id: Type.String(),
    created: Type.Integer(),
    replayed: Type.Integer(),
    failed: Type.Integer(),
    results: Type.Array(BulkResultSchema),
  },
  { "x-component": "BulkPayoutResult" },
);
export type BulkResponse = Static<typeof BulkResponseSchema>;
