// The `data` of every event type, and the envelope around it: the contract with receivers (spec "Events").
// The spec shows `payout.disbursed`, `payout.delivered`, `beneficiary.details_submitted` and
// `beneficiary.bank_account.registered`; the other shapes follow the same pattern (docs/decisions.md,
// "Webhooks"). Code that records an event should build its data with these shapes; the OpenAPI document's
// `webhooks` section is generated from them.
import { type TSchema, Type } from "@sinclair/typebox";
import { EVENT_API_VERSION, EVENT_TYPES, type EventType } from "./outbox.js";

const uuid = (description: string) => Type.String({ format: "uuid", description });
const dateTime = (description: string) => Type.String({ format: "date-time", description });
const nullableString = (description: string) => Type.Unsafe<string | null>({ type: ["string", "null"], description });

/** Where a payout can be when the rail reports progress that is not itself a state change. */
const IN_FLIGHT_STATUSES = ["approved", "compliance_hold", "disbursed", "settled", "returned"] as const;

/** Fields every payout event carries (the spec's `payout.disbursed` shape). */
const payoutBase = {
  payout_id: uuid("The Payout; the ordering subject of payout.* events."),
  external_ref: nullableString("The Business's own reference given at creation; null when none was given."),
  beneficiary_id: uuid("The Beneficiary paid."),
  amount: Type.String({
    pattern: "^-?\\d+(\\.\\d+)?$",
    description:
      "Decimal amount in major units with the currency's exponent (`1234.50` EUR, `1000` JPY); the API's `amount_minor` is in minor units.",
  }),
  currency: Type.String({ minLength: 3, maxLength: 3, description: "ISO 4217 code." }),
  rail_ref: nullableString("The payout rail's reference; null until the rail has assigned one."),
};

function payoutData(status: readonly string[], extra: Record<string, TSchema> = {}, description = "") {
  return Type.Object(
    {
      ...payoutBase,
      status: Type.Unsafe<string>({
        type: "string",
        enum: [...status],
        description: "The Payout's state after this change.",
      }),
      ...extra,
    },
    { additionalProperties: true, description },
  );
}

/**
 * `data` of top_up.* events: the top-up (the ordering subject), the funding account, the amount as payout events
 * give it (`amount` in major units) plus `amount_minor`, the reference and the new status.
 */
function topUpData(extra: Record<string, TSchema>, description: string) {
  return Type.Object(
    {
      top_up_id: uuid("The top-up; the ordering subject of top_up.* events."),
      funding_account_id: uuid("The funding account it credits."),
      amount: Type.String({
        pattern: "^\\d+(\\.\\d+)?$",
        description: "Decimal amount in major units with the currency's exponent, as in payout events.",
      }),
      amount_minor: Type.Integer({ minimum: 1, description: "The same amount in minor units." }),
      currency: Type.String({ minLength: 3, maxLength: 3, description: "ISO 4217 code." }),
      reference: Type.String({ description: "The reference recorded with the top-up." }),
      ...extra,
    },
    { additionalProperties: true, description },
  );
}

/**
 * `data` per event type. Receivers must ignore fields they do not know: adding one keeps `api_version`
 * (spec, Versioning 2), so every object allows additional properties.
 */
export const EVENT_DATA_SCHEMAS: Readonly<Record<EventType, TSchema>> = {
  "payout.disbursement_submitted": payoutData(IN_FLIGHT_STATUSES, {}, "The payout was handed to the provider."),
  "payout.acknowledged": payoutData(IN_FLIGHT_STATUSES, {}, "The provider confirmed it received the payout."),
  "payout.estimated_arrival_at": payoutData(
    IN_FLIGHT_STATUSES,
    { estimated_arrival_at: dateTime("When the money is expected in the Beneficiary's account; a later event may update it.") },
    "An expected arrival time was given or updated.",
  ),
  "payout.disbursed": payoutData(
    ["disbursed"],
    { disbursed_at: Type.Optional(dateTime("When the rail confirmed the funds left.")) },
    "The money has left the service.",
  ),
  "payout.delivered": payoutData(
    IN_FLIGHT_STATUSES,
    {
      delivered_at: dateTime(
        "When the money arrived; equals the envelope's occurred_at. Of two with different values, the higher `sequence` is the correction.",
      ),
    },
    "The money arrived in the Beneficiary's account (production only). `status` stays the Payout's state: delivery is a fact about arrival, not a Payout state.",
  ),
  "payout.settled": payoutData(
    ["settled"],
    { settled_at: Type.Optional(dateTime("When the return window closed.")) },
    "The return window closed; the money can no longer be reversed (production only).",
  ),
  "payout.canceled": payoutData(
    ["canceled"],
    {
      reason: nullableString("Why it was canceled, when known."),
      canceled_by: Type.Optional(
        Type.Unsafe<"rail" | "business">({
          type: "string",
          enum: ["rail", "business"],
          description: "`business` for `POST /v1/payouts/{payoutId}/cancel`, `rail` when the rail canceled it.",
        }),
      ),
    },
    "Canceled before any money moved (production only).",
  ),
  "payout.rejected": payoutData(
    ["rejected"],
    { reason: nullableString("The rejecting Decision's reason, when one was given.") },
    "An approval Decision refused the payout.",
  ),
  "payout.failed": payoutData(
    ["failed"],
    {
      failure_reason: Type.String({
        description: "Why the money never left, in the rail's wording with the provider stripped out.",
      }),
    },
    "The money never left; recover with a replacement Payout (`replaces_payout_id`).",
  ),
  "payout.returned": payoutData(
    ["returned"],
    { failure_reason: nullableString("The rail's return reason, when given.") },
    "The money left, then came back (production only).",
  ),
  "payout.awaiting_funds": payoutData(
    ["approved"],
    {
      funding_account_id: uuid("The funding account whose available balance did not cover the payout."),
      funding_status: Type.Unsafe<"awaiting_funds">({
        type: "string",
        enum: ["awaiting_funds"],
        description: "Always `awaiting_funds`.",
      }),
    },
    "The payout was approved but its funding account (enforcement on) does not cover it: it waits, nothing is sent, until funds arrive (or it expires, production only, failing with a reason starting `insufficient_funds`).",
  ),
  "payout.funds_reserved": payoutData(
    ["approved"],
    {
      funding_account_id: uuid("The funding account now holding the amount."),
      funding_status: Type.Unsafe<"reserved">({ type: "string", enum: ["reserved"], description: "Always `reserved`." }),
    },
    "Funds arrived for a payout that was waiting: the amount is held and the disbursement dispatched.",
  ),
  "funding_account.low_balance": Type.Object(
    {
      funding_account_id: uuid("The funding account; the ordering subject of funding_account.* events."),
      currency: Type.String({ minLength: 3, maxLength: 3, description: "ISO 4217 code." }),
      posted_minor: Type.Integer({ description: "Posted balance after the posting, minor units." }),
      pending_minor: Type.Integer({ description: "Held (pending) amount after the posting, minor units." }),
      available_minor: Type.Integer({ description: "posted_minor - pending_minor after the posting." }),
      low_balance_threshold_minor: Type.Integer({ description: "The account's threshold, crossed downwards by this posting." }),
    },
    {
      additionalProperties: true,
      description: "A posting took the funding account's available balance below its low-balance threshold.",
    },
  ),
  "beneficiary.details_submitted": Type.Object(
    {
      beneficiary_id: uuid("The Beneficiary; the ordering subject of beneficiary.* events."),
      status: Type.Unsafe<"details_submitted">({
        type: "string",
        enum: ["details_submitted"],
        description: "Always `details_submitted`.",
      }),
    },
    { additionalProperties: true, description: "A Beneficiary completed a full_onboarding collection link." },
  ),
  "beneficiary.bank_account.registered": Type.Object(
    {
      bank_account_id: uuid("The destination; the id Payouts name as `bank_account_id`."),
      beneficiary_id: uuid("The owning Beneficiary."),
      last4: Type.String({
        description:
          "Masked like the bank-account listing: at most the last four characters of the IBAN, account or card number, never more than half of it (fewer for short numbers); a Pix key masked by its type.",
      }),
      country: Type.String({ description: "ISO 3166-1 alpha-2." }),
      currency: Type.String({ description: "ISO 4217." }),
    },
    {
      additionalProperties: true,
      description: "A destination was registered by any channel except import. Cards included.",
    },
  ),
  "beneficiary.enrollment_rejected": Type.Object(
    {
      beneficiary_id: uuid("The Beneficiary."),
      status: Type.Unsafe<"rejected">({
        type: "string",
        enum: ["rejected"],
        description: "Always `rejected`: the Beneficiary's `enrollment_status` after the refusal.",
      }),
      bank_account_id: Type.Unsafe<string | null>({
        type: ["string", "null"],
        format: "uuid",
        description: "The bank account the refusal named (`enrollment_failure_bank_account_id`); null when it named none.",
      }),
      reason: Type.String({
        description: "The rail's wording of the refusal, provider stripped out (the Beneficiary's `enrollment_failure_detail`).",
      }),
    },
    { additionalProperties: true, description: "The payout rail refused the Beneficiary's enrollment or bank account." },
  ),
  "beneficiary.bank_account.notification_of_change": Type.Object(
    {
      beneficiary_id: uuid("The Beneficiary; the ordering subject."),
      bank_account_id: uuid("The bank account the receiving bank corrected."),
      code: Type.String({ description: "The ACH change code (C01, C02, C03, C05, C06, C07, …)." }),
      description: Type.String({ description: "The code and its words (`C01: Incorrect account number.`)." }),
      corrected_fields: Type.Array(
        Type.Unsafe<string>({ type: "string", enum: ["routing_number", "account_number", "account_type", "other"] }),
        {
          description:
            "What the bank says to change: `routing_number` (C02, C03, C07), `account_number` (C01, C03, C06, C07), `account_type` (C05, C06, C07: checking or savings); `other` for codes whose correction is not an account detail (C08, C09, C13, C14).",
        },
      ),
      corrected_data: Type.String({
        description:
          "The bank's corrected data as shown everywhere: account numbers masked like any account detail (at most the last four), routing numbers and transaction codes as sent. The unmasked correction is kept encrypted and applied with `POST /v1/beneficiaries/{id}/bank-accounts/{accountId}/notification-of-change/apply`.",
      }),
      payout_id: uuid("The payout whose entry the bank answered."),
      received_at: dateTime("When the notification was read."),
    },
    {
      additionalProperties: true,
      description:
        "An ACH notification of change (NOC) named one of the Beneficiary's bank accounts: the receiving bank posted the payout but asks that the account details be corrected before the next payout (Nacha rules: within six banking days). Apply the correction with one call, or register the account again.",
    },
  ),
  "beneficiary.bank_account.corrected": Type.Object(
    {
      beneficiary_id: uuid("The Beneficiary; the ordering subject."),
      bank_account_id: uuid("The bank account, corrected in place (same id)."),
      code: Type.String({ description: "The ACH change code applied." }),
      corrected_fields: Type.Array(Type.String(), { description: "The fields changed (as in the notification)." }),
      last4: Type.String({ description: "The account's masked number after the correction." }),
      previous_last4: Type.String({ description: "The masked number before it." }),
    },
    {
      additionalProperties: true,
      description:
        "The Business applied a notification of change: the bank account's routing number, account number or type were replaced by the bank's correction. Payouts not yet written to a bank file go to the corrected account.",
    },
  ),
  "beneficiary.bank_account.review_required": Type.Object(
    {
      beneficiary_id: uuid("The Beneficiary; the ordering subject."),
      bank_account_id: uuid("The bank account (or card) waiting for approval."),
      change: Type.Unsafe<string>({
        type: "string",
        enum: ["added", "changed"],
        description: "`added`: a new destination; `changed`: its details changed (an applied notification of change).",
      }),
      last4: Type.String({ description: "The masked account number." }),
      country: Type.String(),
      currency: Type.String(),
      added_by: Type.Object(
        {
          kind: Type.Unsafe<string | null>({ type: ["string", "null"], enum: ["api_key", "session", "collection_link", null] }),
          id: Type.Unsafe<string | null>({ type: ["string", "null"], format: "uuid" }),
        },
        { description: "Who added or changed the details: an API key, a membership (dashboard session) or a collection link." },
      ),
    },
    {
      additionalProperties: true,
      description:
        "New or changed bank details wait for approval (destination policy `require_approval`): no payout can be created to them until a person other than the one who added them approves (`POST /v1/beneficiaries/{id}/bank-accounts/{accountId}/approve`).",
    },
  ),
  "beneficiary.bank_account.approved": Type.Object(
    {
      beneficiary_id: uuid("The Beneficiary; the ordering subject."),
      bank_account_id: uuid("The bank account approved."),
      last4: Type.String({ description: "The masked account number." }),
      decided_by: uuid("The membership of the person who approved."),
      usable_from: Type.Unsafe<string | null>({
        type: ["string", "null"],
        format: "date-time",
        description: "From when payouts may be created to it (approval plus the policy's cooling-off).",
      }),
    },
    { additionalProperties: true, description: "A person approved bank details that waited for approval." },
  ),
  "beneficiary.bank_account.rejected": Type.Object(
    {
      beneficiary_id: uuid("The Beneficiary; the ordering subject."),
      bank_account_id: uuid("The bank account rejected."),
      last4: Type.String({ description: "The masked account number." }),
      decided_by: uuid("The membership of the person who rejected."),
      reason: Type.Optional(Type.String({ description: "The reason given, when one was." })),
    },
    {
      additionalProperties: true,
      description: "A person rejected bank details that waited for approval: no payout can ever be made to them.",
    },
  ),
  "bank_file.refused": Type.Object(
    {
      inbound_file_id: uuid("The inbound file (`GET /v1/bank-inbound-files/{id}`); the ordering subject."),
      rail: Type.Unsafe<string>({ type: "string", enum: ["sepa", "ach"], description: "The bank rail it came from." }),
      file_name: Type.String({ description: "The file's name in the bank's inbound directory." }),
      reason: Type.String({
        description:
          "Why it was refused, in words: not well-formed (where, and what was found), not the message expected (its root element), a NACHA record that is not what it should be (which record, what was expected), over the size limit, or not decrypted or signed as configured.",
      }),
    },
    {
      additionalProperties: true,
      description:
        "A file from the bank could not be read: nothing in it was applied. Ask the bank to send it again (a corrected file under any name is read at the next poll).",
    },
  ),
  "bank_file.item_unmatched": Type.Object(
    {
      inbound_file_id: uuid("The inbound file; the ordering subject."),
      rail: Type.Unsafe<string>({ type: "string", enum: ["sepa", "ach"], description: "The bank rail it came from." }),
      file_name: Type.String({ description: "The file's name in the bank's inbound directory." }),
      reference: nullableString(
        "What the item named: an ACH trace number, a SEPA EndToEndId or OrgnlMsgId; null when it named none.",
      ),
      reason: Type.String({
        description:
          "What did not agree, in a sentence (what we sent, what the bank's item says); account numbers by their last four only. Nothing was moved for this item.",
      }),
    },
    {
      additionalProperties: true,
      description:
        "An item of a file from the bank (a return, a status, a booking, a notification of change) names no payout of ours, or one whose facts differ: it moved nothing. The rest of the file was applied.",
    },
  ),
  "top_up.approved": topUpData(
    {
      status: Type.Unsafe<string>({ type: "string", enum: ["approved"] }),
      transfer_id: uuid("The ledger transfer that credited the funding account (GET /v1/funding-accounts/{id}/transfers)."),
    },
    "A second person approved a recorded top-up: the funding account was credited in the same transaction, and payouts waiting for funds are tried again.",
  ),
  "top_up.rejected": topUpData(
    {
      status: Type.Unsafe<string>({ type: "string", enum: ["rejected"] }),
      reason: Type.String({ description: "Why it was rejected." }),
    },
    "A recorded top-up was rejected: nothing was credited.",
  ),
  "payout.reconciled": payoutData(
    ["approved", "disbursed", "settled", "returned", "compliance_hold"],
    {
      reconciliation_status: Type.Unsafe<"reconciled">({
        type: "string",
        enum: ["reconciled"],
        description: "Always `reconciled`.",
      }),
      reconciled_at: dateTime("When the match was made."),
      statement_line_id: uuid("The bank statement line matched to it."),
      rule: Type.String({ description: "The rule that matched: end_to_end_id, batch, amount_date or manual." }),
    },
    "A line of a bank statement was matched to the payout: the bank booked its money (issue 28).",
  ),
  "statement_line.needs_review": Type.Object(
    {
      statement_line_id: uuid("The line; the ordering subject of statement_line.* events."),
      statement_id: uuid("The statement that brought it."),
      funding_account_id: uuid("The funding account of the statement."),
      direction: Type.Unsafe<string>({ type: "string", enum: ["debit", "credit"] }),
      amount_minor: Type.Integer({ minimum: 0 }),
      currency: Type.String({ minLength: 3, maxLength: 3 }),
      booking_date: Type.Unsafe<string | null>({ type: ["string", "null"], format: "date" }),
      candidate_payout_ids: Type.Array(uuid("A candidate payout.")),
      reason: Type.String({ description: "Why no match was made automatically, in words." }),
    },
    {
      additionalProperties: true,
      description: "A booked statement line has more than one possible match (or a doubtful one): a person decides.",
    },
  ),
  "funding_account.credited": Type.Object(
    {
      funding_account_id: uuid("The funding account; the ordering subject of funding_account.* events."),
      currency: Type.String({ minLength: 3, maxLength: 3 }),
      amount_minor: Type.Integer({ minimum: 1, description: "The credit, minor units." }),
      statement_line_id: uuid("The statement line of the credit."),
      transfer_id: uuid("The ledger transfer."),
      posted_minor: Type.Integer({ description: "Posted balance after the credit." }),
      available_minor: Type.Integer({ description: "Available balance after the credit." }),
    },
    { additionalProperties: true, description: "A bank statement credit matching nothing we know funded the account." },
  ),
  "funding_account.balance_mismatch": Type.Object(
    {
      funding_account_id: uuid("The funding account."),
      statement_id: uuid("The bank statement whose closing balance or sequence number disagrees."),
      closing_date: Type.Unsafe<string | null>({ type: ["string", "null"], format: "date" }),
      bank_minor: Type.Unsafe<number | null>({ type: ["integer", "null"], description: "The bank's closing booked balance." }),
      ledger_minor: Type.Unsafe<number | null>({ type: ["integer", "null"], description: "The ledger's posted balance." }),
      difference_minor: Type.Unsafe<number | null>({ type: ["integer", "null"], description: "bank_minor - ledger_minor." }),
      sequence_gap: Type.Unsafe<{ expected: number; received: number } | null>({
        type: ["object", "null"],
        description: "The statement sequence number expected and the one received, when statements are missing.",
      }),
    },
    {
      additionalProperties: true,
      description: "A bank statement's closing balance disagrees with the ledger, or statements are missing.",
    },
  ),
  "beneficiary.screening_hit": Type.Object(
    {
      beneficiary_id: uuid("The Beneficiary; the ordering subject."),
      screening_status: Type.Unsafe<string>({
        type: "string",
        enum: ["potential_match", "confirmed_match"],
        description: "The Beneficiary's `screening_status` after the screening.",
      }),
      hit: Type.Object(
        {
          hit_id: uuid("The hit (GET /v1/screening-hits/{id})."),
          list_id: Type.String({ description: "`ofac_sdn` or `eu_consolidated`." }),
          entry_ref: Type.String({ description: "The publisher's id of the entry." }),
          entry_name: Type.String({ description: "The entry's primary name." }),
          matched_name: Type.String({ description: "The listed name (primary or alias) closest to the Beneficiary's." }),
          score: Type.Number({ description: "Name similarity, 0 to 1." }),
        },
        { additionalProperties: true, description: "The best new hit of this screening." },
      ),
    },
    {
      additionalProperties: true,
      description:
        "Sanctions screening found the Beneficiary's name close to a listed name: new payouts are refused (422 `SANCTIONS_REVIEW_REQUIRED`) and approved ones not yet sent are held until an admin clears the hit.",
    },
  ),
  "beneficiary.screening_cleared": Type.Object(
    {
      beneficiary_id: uuid("The Beneficiary; the ordering subject."),
      screening_status: Type.Unsafe<string>({
        type: "string",
        enum: ["clear", "cleared"],
        description: "`cleared` (an admin cleared the hits) or `clear` (a later screening no longer found them).",
      }),
      cleared_by: Type.Unsafe<string>({
        type: "string",
        enum: ["admin", "rescreening"],
        description:
          "`admin` (POST /v1/beneficiaries/{id}/screening/clear) or `rescreening` (a list reload or a change of name).",
      }),
      reason: nullableString("The admin's reason; null for a rescreening."),
      hit_ids: Type.Array(uuid("A hit cleared."), { description: "The hits the admin cleared; empty for a rescreening." }),
    },
    {
      additionalProperties: true,
      description: "The Beneficiary is no longer blocked by sanctions screening: payouts go ahead, held ones are dispatched.",
    },
  ),
};

/** The envelope of one event type (spec "Envelope"). */
export function eventEnvelopeSchema(type: EventType): TSchema {
  return Type.Object(
    {
      id: uuid("Delivery id: the event's id, identical on every retry and redelivery; the deduplication key."),
      type: Type.Unsafe<string>({ type: "string", enum: [type] }),
      api_version: Type.Unsafe<string>({
        type: "string",
        enum: [EVENT_API_VERSION],
        description: "Version of the `data` shape (date-shaped).",
      }),
      occurred_at: dateTime("When the change happened; identical on every retry."),
      created_at: dateTime("When this attempt was sent; differs on each retry."),
      sequence: Type.Integer({ description: "Tiebreaker for equal occurred_at (a database sequence: orders, never counts)." }),
      data: EVENT_DATA_SCHEMAS[type],
    },
    { additionalProperties: false },
  );
}

const SIGNATURE_DESCRIPTION =
  '`t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>" keyed with the UTF-8 bytes of the whole signing secret>`. ' +
  "Reject (non-2xx) when missing or malformed, when t differs from your clock by more than 300 s, or when v1 differs (constant-time compare). " +
  "Each attempt is signed when sent, with the subscription's current secret. The receiver kit (src/receiver-kit) implements this.";

/**
 * The published payload schema: the same as the one events are checked against, except that every object
 * admits fields it does not list, because adding a field to an event is not a breaking change (receivers
 * must ignore fields they do not know). The contract check stays strict so that our own additions are
 * declared here first.
 */
function openToAddedFields(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openToAddedFields);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "additionalProperties" && value === false) continue;
    out[key] = key === "enum" || key === "const" || key === "examples" ? value : openToAddedFields(value);
  }
  return out;
}

/** The OpenAPI 3.1 `webhooks` object: one entry per event type. */
export function openApiWebhooks(): Record<string, unknown> {
  const webhooks: Record<string, unknown> = {};
  for (const type of EVENT_TYPES) {
    webhooks[type] = {
      post: {
        operationId: `${type.replace(/[._]([a-z])/g, (_m, c: string) => c.toUpperCase())}Event`,
        summary: type,
        description: `${(EVENT_DATA_SCHEMAS[type] as { description?: string }).description ?? ""} Delivered by HTTPS POST to the subscription's URL when \`${type}\` is in its \`enabled_events\`. Acknowledge with any 2xx within 10 seconds; anything else is retried after 30 s, 1, 2, 4, 8, 16 and 32 min (8 attempts), then abandoned (see the delivery log).`,
        tags: ["Webhook events"],
        security: [],
        parameters: [
          {
            name: "X-Service-Signature",
            in: "header",
            required: true,
            description: SIGNATURE_DESCRIPTION,
            schema: { type: "string" },
          },
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: openToAddedFields(eventEnvelopeSchema(type)) } },
        },
        responses: {
          "200": { description: "Any 2xx acknowledges the delivery." },
          default: { description: "Anything else (or no answer within 10 s) fails this attempt; it is retried." },
        },
      },
    };
  }
  return webhooks;
}
