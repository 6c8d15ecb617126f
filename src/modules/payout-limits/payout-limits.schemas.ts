// The payout limits as the API shows and takes them.
import { type Static, Type } from "@sinclair/typebox";
import { nullable } from "../../platform/http/schema-types.js";

const minor = (description: string) => Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });

export const PayoutLimitSchema = Type.Object(
  {
    currency: Type.String({ description: "ISO 4217." }),
    per_payout_max_minor: nullable(minor("The largest amount one payout may have; null: no per-payout limit.")),
    daily_max_minor: nullable(
      minor("The most the approvals of one day (in the Business's time zone) may total; null: no daily limit."),
    ),
    used_today_minor: Type.Integer({ minimum: 0, description: "What today's approvals took (voided payouts given back)." }),
    remaining_today_minor: nullable(
      Type.Integer({ minimum: 0, description: "What today's approvals may still take; null without a daily limit." }),
    ),
  },
  { $id: "PayoutLimit" },
);

export const PayoutLimitsSchema = Type.Object(
  {
    object: Type.Literal("payout_limits"),
    environment: Type.Union([Type.Literal("sandbox"), Type.Literal("production")]),
    time_zone: Type.String({
      description: "The zone whose calendar days the daily limits count in: the Business's (UTC when unset).",
    }),
    today: Type.String({ format: "date", description: "Today in that zone: the day `used_today_minor` counts." }),
    limits: Type.Array(Type.Ref("PayoutLimit"), {
      description: "One entry per currency with a limit or with approvals today, by currency.",
    }),
    updated_at: nullable(Type.String({ format: "date-time" })),
  },
  { $id: "PayoutLimits" },
);
export type PayoutLimitsBody = Static<typeof PayoutLimitsSchema>;
export type PayoutLimitBody = Static<typeof PayoutLimitSchema>;

export const PutPayoutLimitsBodySchema = Type.Object(
  {
    limits: Type.Array(
      Type.Object(
        {
          currency: Type.String({ minLength: 3, maxLength: 3, description: "ISO 4217." }),
          per_payout_max_minor: nullable(minor("The largest amount one payout may have; null: none.")),
          daily_max_minor: nullable(minor("The most one day's approvals may total; null: none.")),
        },
        { additionalProperties: false },
      ),
      { maxItems: 200, description: "The whole set: a currency left out has no limits." },
    ),
  },
  { "x-component": "PutPayoutLimitsRequest", additionalProperties: false },
);
export type PutPayoutLimitsBody = Static<typeof PutPayoutLimitsBodySchema>;
