import { type Static, Type } from "@sinclair/typebox";
import { nullable, stringEnum } from "../../platform/http/schema-types.js";

import { RAIL_OUTCOME_TYPES } from "../../rails/rail.js";

export const PayoutIdParamsSchema = Type.Object({ payoutId: Type.String({ format: "uuid" }) });

export const PushOutcomeBodySchema = Type.Object(
  {
    type: stringEnum(RAIL_OUTCOME_TYPES, { description: "The rail outcome to report for the payout." }),
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: "Required for `returned`, `failed`, `canceled` and `compliance_hold`; not allowed otherwise.",
      }),
    ),
    estimated_arrival_at: Type.Optional(
      Type.String({ format: "date-time", description: "Required for `estimated_arrival`; not allowed otherwise." }),
    ),
    delivered_at: Type.Optional(
      Type.String({
        format: "date-time",
        description: "Required for `delivered` (a second `delivered` with another time is a correction); not allowed otherwise.",
      }),
    ),
  },
  { "x-component": "SimulatorOutcomeRequest", additionalProperties: false },
);
export type PushOutcomeBody = Static<typeof PushOutcomeBodySchema>;

export const PushOutcomeResponseSchema = Type.Object(
  {
    job_id: nullable(Type.String({ format: "uuid" })),
    payout_id: Type.String({ format: "uuid" }),
    outcome: Type.Object({
      type: stringEnum(RAIL_OUTCOME_TYPES),
      reason: Type.Optional(Type.String()),
      estimated_arrival_at: Type.Optional(Type.String({ format: "date-time" })),
      delivered_at: Type.Optional(Type.String({ format: "date-time" })),
    }),
  },
  {
    "x-component": "SimulatorOutcomeAccepted",
    description: "Accepted: the outcome is queued and applied to the payout by the worker.",
  },
);
export type PushOutcomeResponse = Static<typeof PushOutcomeResponseSchema>;
