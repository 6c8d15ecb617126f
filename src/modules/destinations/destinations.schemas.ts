// Destinations (bank accounts and cards) as the API shows them: masked, never a full number.
import { type Static, Type } from "@sinclair/typebox";
import { nameString, nullable, stringEnum } from "../../platform/http/schema-types.js";

const text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });

export const AccountTypeSchema = stringEnum(["checking", "savings", "card"], {
  description: "`checking` or `savings` for bank accounts (default `checking`); `card` for cards.",
});

/** The spec's BankDetails (API registration accepts CLABE and Pix keys too, as the import does). */
export const RegisterBankAccountBodySchema = Type.Object(
  {
    account_holder_name: nameString(140, "Must contain a letter or digit."),
    country: Type.String({ minLength: 2, maxLength: 2, description: "ISO 3166-1 alpha-2 country of the bank." }),
    currency: Type.String({ minLength: 3, maxLength: 3, description: "ISO 4217 code." }),
    account_number: Type.Optional(text(34, "Domestic account number.")),
    routing_code: Type.Optional(text(20, "US ABA number, UK sort code, Brazilian branch code and so on.")),
    iban: Type.Optional(text(42)),
    swift_bic: Type.Optional(text(11)),
    bank_name: Type.Optional(nameString(140, "Must contain a letter or digit.")),
    // 18 digits, often written in groups ("002 010 07777777777 1"): room for the separators, as for `iban`.
    clabe: Type.Optional(text(24)),
    pix_key: Type.Optional(text(77)),
    account_type: Type.Optional(stringEnum(["checking", "savings"])),
  },
  { "x-component": "CreateBankAccountRequest", additionalProperties: false },
);
export type RegisterBankAccountBody = Static<typeof RegisterBankAccountBodySchema>;

export const RegisterCardBodySchema = Type.Object(
  {
    card_number: Type.String({
      minLength: 12,
      maxLength: 23,
      description: "Digits, spaces or dashes; Luhn-checked; stored encrypted, never returned.",
    }),
    expiry_month: Type.Integer({ minimum: 1, maximum: 12 }),
    expiry_year: Type.Integer({ minimum: 2000, maximum: 2100 }),
    cardholder_name: nameString(140, "Must contain a letter or digit."),
    country: Type.String({ minLength: 2, maxLength: 2 }),
    currency: Type.String({ minLength: 3, maxLength: 3 }),
  },
  { "x-component": "CreateCardRequest", additionalProperties: false },
);
export type RegisterCardBody = Static<typeof RegisterCardBodySchema>;

const nullableString = nullable(Type.String());

export const DestinationSchema = Type.Object(
  {
    id: Type.String({ format: "uuid", description: "The id a Payout names as `bank_account_id`." }),
    kind: stringEnum(["bank_account", "card"]),
    beneficiary_id: Type.String({ format: "uuid" }),
    account_holder_name: Type.String(),
    currency: Type.String(),
    country: Type.String(),
    status: stringEnum(["unverified", "verified", "rejected"], {
      description:
        "Verification by the payout rail: `unverified` until the rail has seen it, `verified`, or `rejected` (see `rail_rejection_reason`).",
    }),
    validation_status: stringEnum(["validated", "unvalidated"], {
      description:
        "`validated` when the routing details passed a scheme check (IBAN, ABA, sort code, CLABE, Pix, BSB, transit, IFSC, card Luhn); `unvalidated` when only a generic SWIFT shape could be checked.",
    }),
    payout_usable: Type.Boolean({ description: "Validated (or verified by the rail) and not refused by the rail." }),
    last4: Type.String({
      description:
        "Masked display value: the last characters of the account identifier or card number, at most four and never more than half of it (a 4-digit account shows 2, a 6-digit one 3, 8 or more show 4), so a short number is never shown whole; a Pix key masked by its type, revealing at most four of its characters.",
    }),
    account_type: AccountTypeSchema,
    scheme: Type.String({
      description:
        "Routing scheme: iban, us_aba, gb_sort_code, mx_clabe, br_pix, br_bank_account, ca_eft, au_bsb, in_ifsc, swift, card.",
    }),
    bank_name: nullableString,
    swift_bic: nullableString,
    pix_key_type: nullableString,
    card_network: nullableString,
    card_expiry_month: nullable(Type.Integer()),
    card_expiry_year: nullable(Type.Integer()),
    rail_rejection_reason: nullableString,
    notification_of_change: Type.Union(
      [
        Type.Object(
          {
            code: Type.String({ description: "The NACHA change code, `C01` to `C14`." }),
            description: Type.String({ description: "What the code means, e.g. `C01: Incorrect account number.`" }),
            corrected_data: Type.String({
              description:
                "The corrected data the receiving bank sent, as laid out in the NOC; account numbers and identification numbers masked to their last four characters (routing numbers and transaction codes in clear).",
            }),
            corrected_fields: Type.Array(Type.String(), {
              description:
                "What the code corrects: `routing_number`, `account_number`, `account_type`, or `other` (not an account detail); empty for notifications read before this was kept.",
            }),
            payout_id: Type.String({ format: "uuid", description: "The payout whose ACH entry the notification answered." }),
            received_at: Type.String({ format: "date-time", description: "When the service read the notification." }),
            can_apply: Type.Boolean({
              description:
                "Whether `POST /v1/beneficiaries/{id}/bank-accounts/{accountId}/notification-of-change/apply` can apply the correction (the unmasked correction is kept encrypted; false once applied, for codes that correct nothing the account holds, and for notifications read before corrections were kept).",
            }),
            applied_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
              description: "When the Business applied the correction; null until then.",
            }),
          },
          { "x-component": "NotificationOfChange" },
        ),
        Type.Null(),
      ],
      {
        description:
          "The latest ACH notification of change (NOC) the receiving bank sent about this account, or null (event `beneficiary.bank_account.notification_of_change`). The service does not change the account by itself: NACHA expects the originator to apply the correction before the next entry (within six banking days); apply it with one call (`POST …/notification-of-change/apply`, the account keeps its id) or register the corrected bank account. Payouts to this account are not blocked meanwhile: the bank still credits the corrected account.",
      },
    ),
    name_check_result: Type.Union([stringEnum(["match", "close_match", "no_match", "not_possible"]), Type.Null()], {
      description:
        "The latest payee name check of `account_holder_name` against the Beneficiary's legal name (`name`), as the EU's Verification of Payee answers it: `match`, `close_match` (see `name_check_bank_name`), `no_match`, or `not_possible` (the check could not be made). Null until the first check has run: it runs in the background within seconds of the account being added or corrected, or the legal name changing. Under the destination policy's `name_check: block` a `no_match` account receives no payouts (422 `NAME_CHECK_NO_MATCH`); under `warn` the answer is shown to approvers.",
    }),
    name_check_bank_name: Type.Union([Type.String(), Type.Null()], {
      description:
        "With a `close_match`: the name the bank holds for the account, so the Business can correct the name it gave. Null otherwise.",
    }),
    name_check_source: Type.Union([Type.String(), Type.Null()], {
      description:
        "Who answered the name check: `local` (the service's own comparison of the two names), `simulator` (the sandbox and the production simulator, which answer by magic values), or a Verification of Payee provider's name.",
    }),
    name_check_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
      description: "When the name check answered.",
    }),
    approval_status: stringEnum(["approved", "pending_approval", "rejected"], {
      description:
        "Approval of the bank details (destination policy `require_approval`): `pending_approval` from when they are added or changed until a person other than the one who added them approves (`POST …/approve`); `rejected` by a person (`POST …/reject`). Only `approved` destinations can receive payouts (422 `DESTINATION_NOT_APPROVED`). Destinations added while the policy does not require approval are `approved` at once.",
    }),
    approved_by: nullable(
      Type.String({
        format: "uuid",
        description:
          "The membership of the person who approved (or rejected) the bank details; null while pending and when they were approved without review (the policy did not require it).",
      }),
    ),
    approved_at: nullable(
      Type.String({
        format: "date-time",
        description: "When the bank details were approved or rejected by a person; null otherwise.",
      }),
    ),
    added_by: Type.Object(
      {
        kind: nullable(stringEnum(["api_key", "session", "collection_link"])),
        id: nullable(
          Type.String({ format: "uuid", description: "The API key, the membership (dashboard session) or the collection link." }),
        ),
      },
      {
        "x-component": "DestinationAddedBy",
        description: "Who added the bank details or last changed them (both null for destinations added before this was kept).",
      },
    ),
    details_changed_at: Type.String({
      format: "date-time",
      description: "When the account details were set: creation, or their last change (an applied notification of change).",
    }),
    usable_from: nullable(
      Type.String({
        format: "date-time",
        description:
          "From when payouts may be created to this destination: its approval (or creation, when approval is not required) plus the policy's `cooling_off_hours`, restarted when it becomes the declared destination. Before then, creation answers 422 `DESTINATION_COOLING_OFF` with `details.usable_from`. Null while pending or rejected.",
      }),
    ),
    created_at: Type.String({ format: "date-time" }),
  },
  { $id: "Destination" },
);
export type DestinationBody = Static<typeof DestinationSchema>;

export const BeneficiaryParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });
export const DestinationParamsSchema = Type.Object({
  id: Type.String({ format: "uuid" }),
  accountId: Type.String({ format: "uuid" }),
});

export const DestinationListSchema = Type.Object(
  { bank_accounts: Type.Array(Type.Ref("Destination")) },
  { "x-component": "DestinationList" },
);

export const DeclaredDestinationBodySchema = Type.Object(
  { destination_id: Type.String({ format: "uuid", description: "A payout-usable destination the Beneficiary holds." }) },
  { "x-component": "SetDeclaredDestinationRequest", additionalProperties: false },
);
export type DeclaredDestinationBody = Static<typeof DeclaredDestinationBodySchema>;

export const DestinationDecisionBodySchema = Type.Union(
  [
    Type.Object({ reason: Type.Optional(nameString(500, "Must contain a letter or digit.")) }, { additionalProperties: false }),
    Type.Null(),
  ],
  { "x-component": "DestinationDecisionRequest" },
);
export type DestinationDecisionBody = Static<typeof DestinationDecisionBodySchema>;

// Destination policy ---------------------------------------------------------------------------------------

const policyFields = {
  require_approval: Type.Boolean({
    description:
      "Every new destination and every change of one (API, dashboard, import, collection link, applied notification of change) waits in `pending_approval` until a person other than the one who added it approves.",
  }),
  cooling_off_hours: Type.Integer({
    minimum: 0,
    maximum: 720,
    description:
      "Hours after approval (or creation, without `require_approval`) before a destination may be paid; restarted when it becomes the declared destination.",
  }),
  name_check: stringEnum(["off", "warn", "block"], {
    description: "Payee name check: `warn` shows the result to approvers, `block` makes a `no_match` not payout-usable.",
  }),
  screening: stringEnum(["off", "on"], {
    description:
      "Sanctions screening of Beneficiaries (against the lists the operator loaded). Nothing is screened while it is `off`; turning it on screens every Beneficiary of the environment in the background (a job started by the change), then each one at creation and on a change of name or country.",
  }),
};

export const DestinationPolicySchema = Type.Object(
  {
    environment: stringEnum(["sandbox", "production"]),
    ...policyFields,
    updated_at: nullable(Type.String({ format: "date-time", description: "Null while the defaults apply." })),
    updated_by: nullable(Type.String({ format: "uuid", description: "The membership that last changed it." })),
  },
  { $id: "DestinationPolicy" },
);
export type DestinationPolicyBody = Static<typeof DestinationPolicySchema>;

export const PutDestinationPolicyBodySchema = Type.Object(
  {
    require_approval: Type.Optional(policyFields.require_approval),
    cooling_off_hours: Type.Optional(policyFields.cooling_off_hours),
    name_check: Type.Optional(policyFields.name_check),
    screening: Type.Optional(policyFields.screening),
  },
  {
    "x-component": "UpdateDestinationPolicyRequest",
    additionalProperties: false,
    description: "The fields to change; an absent field keeps its value.",
  },
);
export type PutDestinationPolicyBody = Static<typeof PutDestinationPolicyBodySchema>;

export const PendingDestinationListSchema = Type.Object(
  {
    bank_accounts: Type.Array(Type.Ref("Destination")),
  },
  { "x-component": "PendingDestinationList" },
);
