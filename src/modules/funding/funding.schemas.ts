// Funding accounts, their transfers and balances as the API shows them (snake_case, integer minor units).
import { type Static, Type } from "@sinclair/typebox";
import { nullable, stringEnum } from "../../platform/http/schema-types.js";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";

const minor = (description: string) => Type.Integer({ description: `${description} Integer minor units.` });

export const FundingAccountSchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    environment: stringEnum(["sandbox", "production"]),
    currency: Type.String({ minLength: 3, maxLength: 3, description: "ISO 4217 code." }),
    name: Type.String(),
    kind: stringEnum(["bank_rail", "simulator", "sandbox"], {
      description:
        "`bank_rail`: a configured bank rail's debtor account; `simulator`: the production simulator; `sandbox`: the sandbox's own.",
    }),
    rail: nullable(stringEnum(["sepa", "ach"], { description: "The bank rail (kind `bank_rail`); null otherwise." })),
    account_identifier_masked: nullable(Type.String({ description: "The debtor account, masked; null when unknown." })),
    posted_minor: minor("Money in minus money out, posted."),
    pending_minor: minor("Held by approved payouts not yet disbursed (their holds)."),
    available_minor: minor("posted_minor - pending_minor: what a new approval can hold."),
    awaiting_funds: Type.Object(
      {
        count: Type.Integer({ minimum: 0, description: "Approved payouts waiting for funds (enforce only)." }),
        amount_minor: Type.Integer({ minimum: 0, description: "Their total. Integer minor units." }),
      },
      { description: "Payouts approved but not covered, waiting (status `approved`, `funding_status` `awaiting_funds`)." },
    ),
    enforcement: stringEnum(["track_only", "enforce"], {
      description:
        "`track_only` (default): every posting and balance is kept, no payout ever waits. `enforce`: an approval the available balance (plus the overdraft) does not cover waits for funds, nothing is sent.",
    }),
    overdraft_limit_minor: Type.Integer({
      minimum: 0,
      description: "How far below zero `available_minor` may go where enforced.",
    }),
    low_balance_threshold_minor: nullable(
      Type.Integer({ description: "`funding_account.low_balance` fires when a posting takes available below it; null: never." }),
    ),
    awaiting_funds_expiry_hours: Type.Integer({
      minimum: 1,
      description:
        "Production: a payout waiting this long fails with a reason starting `insufficient_funds`. Sandbox payouts never expire.",
    }),
    created_at: Type.String({ format: "date-time" }),
  },
  { $id: "FundingAccount" },
);
export type FundingAccountBody = Static<typeof FundingAccountSchema>;

export const FundingAccountListSchema = Type.Object(
  { funding_accounts: Type.Array(Type.Ref("FundingAccount")), next_cursor: nullable(Type.String()) },
  { "x-component": "FundingAccountList" },
);

export const FundingAccountListQuerySchema = Type.Object(
  { ...PageQuerySchema, currency: Type.Optional(Type.String({ pattern: "^[A-Z]{3}$", description: "Only this currency." })) },
  { additionalProperties: false },
);

export const FundingAccountParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });

export const UpdateFundingAccountBodySchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    enforcement: Type.Optional(stringEnum(["track_only", "enforce"])),
    overdraft_limit_minor: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    low_balance_threshold_minor: Type.Optional(nullable(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }))),
    awaiting_funds_expiry_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 8760 })),
  },
  { "x-component": "UpdateFundingAccountRequest", additionalProperties: false, minProperties: 1 },
);
export type UpdateFundingAccountBody = Static<typeof UpdateFundingAccountBodySchema>;

export const BalanceQuerySchema = Type.Object(
  { at: Type.Optional(Type.String({ format: "date-time", description: "The instant; omit for now." })) },
  { additionalProperties: false },
);

export const BalanceSchema = Type.Object(
  {
    funding_account_id: Type.String({ format: "uuid" }),
    at: Type.String({ format: "date-time" }),
    posted_minor: minor("Posted balance at `at`."),
    pending_minor: minor("Held at `at`."),
    available_minor: minor("posted_minor - pending_minor at `at`."),
  },
  { "x-component": "FundingAccountBalance" },
);

const ENTRY_ACCOUNTS = ["funding", "payees_in_transit", "fees", "suspense", "outside_world"] as const;

export const TransferSchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    funding_account_id: Type.String({ format: "uuid" }),
    currency: Type.String({ minLength: 3, maxLength: 3 }),
    step: stringEnum(["hold", "post", "void", "reverse", "credit", "fee"], {
      description:
        "`hold` (approval), `post` (disbursed), `void` (failed, canceled, rejected), `reverse` (returned), `credit` (money in), `fee`.",
    }),
    cause: Type.Object({
      type: stringEnum(["payout", "top_up", "sandbox_credit", "statement_line"]),
      id: Type.String({ description: "The payout, top-up, sandbox credit or statement line behind the transfer." }),
    }),
    idempotency_key: Type.String({ description: "Derived from the cause (`payout:<id>:<step>`): a job run twice posts once." }),
    entries: Type.Array(
      Type.Object({
        account: stringEnum(ENTRY_ACCOUNTS),
        amount_minor: Type.Integer({ description: "Signed; the entries of a transfer sum to zero." }),
        pending: Type.Boolean({ description: "A hold's entry (pending) or a posted one." }),
      }),
    ),
    posted_after_minor: minor("The funding account's posted balance just after this transfer."),
    pending_after_minor: minor("Held just after this transfer."),
    available_after_minor: minor("Available just after this transfer."),
    created_at: Type.String({ format: "date-time" }),
  },
  { $id: "Transfer" },
);
export type TransferBody = Static<typeof TransferSchema>;

export const TransferListSchema = Type.Object(
  { transfers: Type.Array(Type.Ref("Transfer")), next_cursor: nullable(Type.String()) },
  { "x-component": "TransferList" },
);

export const TransferListQuerySchema = Type.Object({ ...PageQuerySchema }, { additionalProperties: false });

export const SandboxCreditBodySchema = Type.Object(
  {
    amount_minor: Type.Integer({ minimum: 1, maximum: 100_000_000_000, description: "Integer minor units, > 0." }),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 140, description: "Your note for the credit." })),
  },
  { "x-component": "SandboxCreditRequest", additionalProperties: false },
);
export type SandboxCreditBody = Static<typeof SandboxCreditBodySchema>;
