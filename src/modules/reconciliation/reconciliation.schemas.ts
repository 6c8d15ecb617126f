// Statements and statement lines as the API shows them (docs: contracts, issue 28), and the requests of the
// manual acts.
import { type Static, type TObject, Type } from "@sinclair/typebox";
import { nullable, stringEnum } from "../../platform/http/schema-types.js";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";
import { BALANCE_CHECK_STATUSES, LINE_STATUSES, MATCH_RULES } from "./reconciliation.schema.js";

const uuid = (description?: string) => Type.String({ format: "uuid", ...(description === undefined ? {} : { description }) });
const date = (description: string) => nullable(Type.String({ format: "date", description }));
const minor = (description: string) => Type.Integer({ description });
/** An object or null (nullable() takes scalars only). */
const nullableObject = <T extends TObject>(schema: T, description?: string) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: ["object", "null"], ...(description === undefined ? {} : { description }) });

export const BankStatementSchema = Type.Object(
  {
    id: uuid(),
    object: Type.Unsafe<"bank_statement">({ type: "string", enum: ["bank_statement"] }),
    funding_account_id: uuid("The funding account whose bank account the statement is of."),
    format: stringEnum(["camt.053", "camt.052", "bai2"], { description: "camt.053 (end of day), camt.052 (intraday), BAI2." }),
    message_version: Type.String({ description: "e.g. `camt.053.001.08`, `bai2`." }),
    statement_id: Type.String({
      description: "The bank's statement or report id (camt Stmt/Id, Rpt/Id; BAI2 file, group and account).",
    }),
    sequence_number: nullable(
      Type.Integer({ description: "The bank's statement sequence number (ElctrncSeqNb or LglSeqNb; BAI2 file id)." }),
    ),
    period_from: date("First day covered."),
    period_to: date("Last day covered."),
    opening_booked_minor: nullable(minor("Opening booked balance, signed minor units.")),
    closing_booked_minor: nullable(minor("Closing booked balance, signed minor units.")),
    currency: Type.String({ description: "ISO 4217." }),
    line_count: Type.Integer({
      description:
        "Lines this statement added (entries already known from an earlier statement, e.g. a camt.052 before the day's camt.053, belong to that one).",
    }),
    lines_received: Type.Integer({ description: "Entries the statement carried, new or already known." }),
    lines_by_status: Type.Object({
      matched: Type.Integer(),
      needs_review: Type.Integer(),
      unmatched: Type.Integer(),
      ignored: Type.Integer(),
      pending: Type.Integer(),
    }),
    balance_check: Type.Object(
      {
        status: stringEnum(BALANCE_CHECK_STATUSES, {
          description:
            "`agrees`: the closing booked balance is the ledger's posted balance at the end of the statement's closing date; `mismatch`: it is not, or statements are missing (`sequence_gap`); `not_checked`: the statement carries no closing booked balance; `resolved`: a person explained the mismatch.",
        }),
        ledger_minor: nullable(
          minor(
            "The funding account's posted balance at the end of the statement's closing date (24:00 UTC), as the bank counts it: the posted balance when the statement was applied, less what was posted since for money the bank moved after that date (a later statement's lines, payouts booked later).",
          ),
        ),
        bank_minor: nullable(minor("The statement's closing booked balance.")),
        difference_minor: nullable(minor("bank_minor - ledger_minor.")),
        sequence_gap: nullableObject(
          Type.Object({
            expected: Type.Integer({ description: "The sequence number that should have come next." }),
            received: Type.Integer({ description: "The sequence number received." }),
          }),
          "Statements missing before this one (by sequence number); null when none.",
        ),
        resolved_reason: nullable(Type.String()),
      },
      { description: "The closing balance proved against the ledger." },
    ),
    created_at: Type.String({ format: "date-time" }),
    source: stringEnum(["upload", "inbound_folder"]),
  },
  { $id: "BankStatement" },
);
export type BankStatementBody = Static<typeof BankStatementSchema>;

const personRef = Type.Object({
  kind: stringEnum(["auto", "person"], { description: "`auto`: matched when the line arrived; `person`: by a person." }),
  api_key_id: nullable(uuid()),
  membership_id: nullable(uuid()),
  user_id: nullable(uuid()),
});

export const StatementLineSchema = Type.Object(
  {
    id: uuid(),
    object: Type.Unsafe<"statement_line">({ type: "string", enum: ["statement_line"] }),
    statement_id: uuid("The statement that first brought the line."),
    funding_account_id: uuid(),
    status: stringEnum(LINE_STATUSES, {
      description:
        "`matched` (see `match`), `needs_review` (more than one possible match, or a doubtful one: see `candidates` and `review_reason`), `unmatched` (money we did not send or expect: a credit funded the account, a debit went to suspense), `ignored` (a person explained it), `pending` (not booked yet: moves no money).",
    }),
    entry_status: stringEnum(["booked", "pending"]),
    booking_date: date("The bank's booking date."),
    value_date: date("The value date."),
    direction: stringEnum(["debit", "credit"]),
    amount_minor: Type.Integer({ minimum: 0 }),
    currency: Type.String(),
    bank_reference: nullable(Type.String({ description: "The bank's reference (AcctSvcrRef; BAI2 bank reference)." })),
    references: Type.Object({
      end_to_end_ids: Type.Array(Type.String()),
      payment_information_id: nullable(Type.String()),
      instruction_ids: Type.Array(Type.String()),
      ach_trace: nullable(Type.String()),
    }),
    remittance: nullable(Type.String()),
    match: nullableObject(
      Type.Object({
        rule: stringEnum(MATCH_RULES, { description: "The rule that matched, in the order they are tried; `manual`: a person." }),
        payout_ids: Type.Array(uuid()),
        top_up_id: nullable(uuid()),
        difference_minor: Type.Integer({ description: "The line's amount less what was matched (a bank fee, posted to fees)." }),
        matched_by: personRef,
        matched_at: Type.String({ format: "date-time" }),
      }),
    ),
    candidates: Type.Array(
      Type.Object({
        payout_id: uuid(),
        amount_minor: Type.Integer(),
        currency: Type.String(),
        payee: Type.Object({
          beneficiary_id: uuid(),
          display_name: nullable(Type.String()),
          destination_last4: Type.String(),
        }),
        created_at: Type.String({ format: "date-time" }),
      }),
      { description: "The payouts the line could be (in review)." },
    ),
    review_reason: nullable(Type.String({ description: "Why it is in review or unmatched, in words." })),
    ignored_reason: nullable(Type.String()),
    transfer_id: nullable(uuid("The ledger transfer an unmatched line made (a credit, or a debit to suspense).")),
    created_at: Type.String({ format: "date-time" }),
  },
  { $id: "StatementLine" },
);
export type StatementLineBody = Static<typeof StatementLineSchema>;

export const IdParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });

export const StatementUploadSchema = Type.String({
  // A statement file has line breaks: without this the single-line rule of every body string refuses it (400).
  "x-multiline": true,
  description:
    "The statement file's bytes as UTF-8 text: camt.053 (`.001.02`, `.001.08`), camt.052 or BAI2. `Content-Type: application/xml` (or `text/xml`) or `text/plain`.",
});

export const StatementListQuerySchema = Type.Object(
  {
    ...PageQuerySchema,
    funding_account_id: Type.Optional(Type.String({ format: "uuid" })),
  },
  { additionalProperties: false },
);
export type StatementListQuery = Static<typeof StatementListQuerySchema>;

export const StatementListSchema = Type.Object({
  bank_statements: Type.Array(Type.Ref("BankStatement")),
  next_cursor: nullable(Type.String()),
});

export const LineListQuerySchema = Type.Object(
  {
    ...PageQuerySchema,
    status: Type.Optional(stringEnum(LINE_STATUSES)),
    funding_account_id: Type.Optional(Type.String({ format: "uuid" })),
    statement_id: Type.Optional(Type.String({ format: "uuid" })),
  },
  { additionalProperties: false },
);
export type LineListQuery = Static<typeof LineListQuerySchema>;

export const LineListSchema = Type.Object({
  statement_lines: Type.Array(Type.Ref("StatementLine")),
  next_cursor: nullable(Type.String()),
});

export const MatchBodySchema = Type.Object(
  {
    payout_ids: Type.Optional(
      Type.Array(Type.String({ format: "uuid" }), {
        minItems: 1,
        maxItems: 1000,
        uniqueItems: true,
        description: "The payouts the line books (a debit: one or a batch; a credit: the one payout it returns).",
      }),
    ),
    top_up_id: Type.Optional(Type.String({ format: "uuid", description: "The top-up a credit line is." })),
  },
  { additionalProperties: false, description: "Exactly one of `payout_ids` and `top_up_id`." },
);
export type MatchBody = Static<typeof MatchBodySchema>;

export const ReasonBodySchema = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, description: "Why, in words (kept and audited)." }) },
  { additionalProperties: false },
);
export type ReasonBody = Static<typeof ReasonBodySchema>;
