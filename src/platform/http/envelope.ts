// The spec's error envelope: `{ "error": { code, message, request_id, occurred_at, actor, details?, docs_url } }`.
import { type Static, Type } from "@sinclair/typebox";
import { docsAnchor, type ErrorDetail } from "../errors.js";

export const ActorSchema = Type.Object(
  {
    user_id: Type.String({ format: "uuid" }),
    membership_id: Type.String({ format: "uuid" }),
    role: Type.Union([Type.Literal("business_admin"), Type.Literal("business_approver"), Type.Literal("business_read_only")]),
    environment: Type.Union([Type.Literal("sandbox"), Type.Literal("production")]),
  },
  { $id: "Actor", description: "Who made the request; null when the caller is not authenticated." },
);
export type ActorBody = Static<typeof ActorSchema>;

export const ErrorDetailSchema = Type.Object(
  {
    field: Type.String({ description: "Path of the offending field, e.g. `rows[3].email`; empty for the whole body." }),
    code: Type.String({ description: "Stable machine-readable code, e.g. `required`, `invalid_uuid`, `too_long`." }),
    message: Type.String(),
    limit_minor: Type.Optional(
      Type.Integer({
        description: "A limit refusal only (`PAYOUT_LIMIT_EXCEEDED`, `DAILY_LIMIT_EXCEEDED`): the limit, in minor units.",
      }),
    ),
    used_minor: Type.Optional(
      Type.Integer({ description: "`DAILY_LIMIT_EXCEEDED` only: what the day's approvals already took, in minor units." }),
    ),
  },
  { $id: "ErrorDetail" },
);

export const ErrorEnvelopeSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: "Error code; see the error reference at /docs/errors." }),
      message: Type.String(),
      request_id: Type.String(),
      occurred_at: Type.String({ format: "date-time" }),
      actor: Type.Union([Type.Ref("Actor"), Type.Null()]),
      details: Type.Optional(Type.Array(Type.Ref("ErrorDetail"))),
      docs_url: Type.String({ format: "uri" }),
    }),
  },
  { $id: "ErrorEnvelope" },
);

export interface ErrorBodyInput {
  readonly code: string;
  readonly message: string;
  readonly requestId: string;
  readonly occurredAt: Date;
  readonly actor: ActorBody | null;
  readonly details?: readonly ErrorDetail[] | undefined;
  readonly docsBaseUrl: string;
}

export function buildErrorBody(input: ErrorBodyInput) {
  return {
    error: {
      code: input.code,
      message: input.message,
      request_id: input.requestId,
      occurred_at: input.occurredAt.toISOString(),
      actor: input.actor,
      ...(input.details !== undefined ? { details: [...input.details] } : {}),
      docs_url: `${input.docsBaseUrl}/errors#${docsAnchor(input.code)}`,
    },
  };
}
