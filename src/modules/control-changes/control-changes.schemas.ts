// A control change as the API shows it, and the list's query.
import { type Static, Type } from "@sinclair/typebox";
import { nullable, stringEnum } from "../../platform/http/schema-types.js";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";
import { CONTROL_CHANGE_STATUSES } from "./control-changes.schema.js";

const personSchema = (description: string) =>
  Type.Object(
    {
      api_key_id: nullable(Type.String({ format: "uuid", description: "The key; null from a dashboard session." })),
      membership_id: nullable(Type.String({ format: "uuid", description: "The member behind the key or session." })),
      user_id: nullable(Type.String({ format: "uuid" })),
    },
    { description },
  );

export const ControlChangeSchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    object: Type.Literal("control_change"),
    kind: Type.String({
      description:
        "Which control: `payout_limits` (PUT /v1/payout-limits), `approval_policy` (PUT /v1/approval-policy), `funding_account` (PATCH /v1/funding-accounts/{id}), `destination_policy` (PUT /v1/destination-policy).",
    }),
    subject_id: Type.String({
      description: "The controlled thing: the environment for a policy or limits, a funding account's id.",
    }),
    control: Type.String({
      description:
        "The weakened control as the admins' e-mail names it (`maker_checker`, `approval_rules`, `payout_limits`, `funding_enforcement`, `destination_policy`).",
    }),
    summary: Type.String({ description: "What the change does, in one sentence." }),
    base: Type.Unknown({
      description: "The control's value when the change was proposed; the change applies only while it is still so.",
    }),
    proposed: Type.Unknown({ description: "The value the change sets, in the shape of the control's own request." }),
    status: stringEnum(CONTROL_CHANGE_STATUSES, {
      description:
        "`pending` until a second admin approves it (`approved`: applied) or an admin discards it (`discarded`); `superseded` when a newer proposal for the same control replaced it.",
    }),
    proposed_by: personSchema("Who proposed it. That person may not approve it (four eyes means two people)."),
    decided_by: Type.Unsafe<Static<ReturnType<typeof personSchema>> | null>({
      ...personSchema("Who approved or discarded it; null while pending or when superseded."),
      type: ["object", "null"],
    }),
    decided_at: nullable(Type.String({ format: "date-time" })),
    created_at: Type.String({ format: "date-time" }),
  },
  { $id: "ControlChange" },
);
export type ControlChangeBody = Static<typeof ControlChangeSchema>;

export const ControlChangeParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });

export const ControlChangeListQuerySchema = Type.Object(
  { ...PageQuerySchema, status: Type.Optional(stringEnum(CONTROL_CHANGE_STATUSES)) },
  { additionalProperties: false },
);
export type ControlChangeListQuery = Static<typeof ControlChangeListQuerySchema>;

export const ControlChangeListSchema = Type.Object(
  { control_changes: Type.Array(Type.Ref("ControlChange")), next_cursor: nullable(Type.String()) },
  { "x-component": "ControlChangeList" },
);
