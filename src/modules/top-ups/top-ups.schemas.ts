// The top-up as the API shows it, and the requests that record and decide one.
import { type Static, Type } from "@sinclair/typebox";
import { nameString, nullable, stringEnum } from "../../platform/http/schema-types.js";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";
import { TOP_UP_STATUSES } from "./top-ups.schema.js";

const uuid = Type.String({ format: "uuid" });
const personSchema = (description: string) =>
  Type.Object(
    {
      api_key_id: nullable(Type.String({ format: "uuid", description: "The key; null from a dashboard session." })),
      membership_id: nullable(Type.String({ format: "uuid", description: "The member behind the key or session." })),
      user_id: nullable(Type.String({ format: "uuid" })),
    },
    { description },
  );

export const TopUpSchema = Type.Object(
  {
    id: uuid,
    funding_account_id: Type.String({ format: "uuid", description: "The funding account it credits." }),
    amount_minor: Type.Integer({ minimum: 1, description: "Positive integer in minor units of `currency`." }),
    currency: Type.String({ description: "ISO 4217: the funding account's currency." }),
    reference: Type.String({ description: "The reference of the bank transfer, as recorded." }),
    status: stringEnum(TOP_UP_STATUSES, {
      description:
        "`pending_approval` until a different person decides; `approved` (credited to the funding account: see `transfer_id`) or `rejected` (nothing credited).",
    }),
    created_by: personSchema(
      "Who recorded it (the maker). That person, with any of their keys, may not approve it (four eyes means two people).",
    ),
    decided_by: Type.Unsafe<Static<ReturnType<typeof personSchema>> | null>({
      ...personSchema("Who approved or rejected it; null while pending."),
      type: ["object", "null"],
    }),
    decided_at: nullable(Type.String({ format: "date-time" })),
    reason: nullable(Type.String({ description: "Why it was rejected; null otherwise." })),
    transfer_id: nullable(
      Type.String({
        format: "uuid",
        description: "The ledger transfer of the credit (GET /v1/funding-accounts/{id}/transfers); null unless approved.",
      }),
    ),
    created_at: Type.String({ format: "date-time" }),
  },
  { $id: "TopUp" },
);
export type TopUpBody = Static<typeof TopUpSchema>;

export const CreateTopUpBodySchema = Type.Object(
  {
    amount_minor: Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: "Positive integer in minor units of the funding account's currency.",
    }),
    reference: nameString(140, "The reference of the bank transfer that moved the money (what the bank statement shows)."),
  },
  { "x-component": "CreateTopUpRequest", additionalProperties: false },
);
export type CreateTopUpBody = Static<typeof CreateTopUpBodySchema>;

export const RejectTopUpBodySchema = Type.Object(
  { reason: nameString(500, "Why it is rejected (kept on the top-up and in its event).") },
  { "x-component": "RejectTopUpRequest", additionalProperties: false },
);
export type RejectTopUpBody = Static<typeof RejectTopUpBodySchema>;

export const FundingAccountParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });
export const TopUpParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });

export const TopUpListQuerySchema = Type.Object(
  {
    ...PageQuerySchema,
    status: Type.Optional(stringEnum(TOP_UP_STATUSES)),
    funding_account_id: Type.Optional(Type.String({ format: "uuid", description: "Only this funding account's top-ups." })),
  },
  { additionalProperties: false },
);
export type TopUpListQuery = Static<typeof TopUpListQuerySchema>;

export const TopUpListSchema = Type.Object(
  { top_ups: Type.Array(Type.Ref("TopUp")), next_cursor: nullable(Type.String()) },
  { "x-component": "TopUpList" },
);
export type TopUpListBody = Static<typeof TopUpListSchema>;
