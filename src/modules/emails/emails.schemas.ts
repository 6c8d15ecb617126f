import { type Static, Type } from "@sinclair/typebox";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";

export const EmailKindSchema = Type.Union(
  [
    Type.Literal("collection_invitation"),
    Type.Literal("declared_destination_changed"),
    Type.Literal("declared_destination_removed"),
  ],
  {
    description:
      "What the message is: a collection-link invitation (`send_email: true`), or the notice to a Beneficiary that the Business changed or removed their declared destination.",
  },
);

export const SandboxEmailSchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    kind: EmailKindSchema,
    to: Type.String({ description: "The recipient the message was addressed to." }),
    subject: Type.String(),
    text: Type.String({
      description: "The plain-text body, exactly as it would have been delivered (links with their tokens included).",
    }),
    html: Type.String({ description: "The HTML body, exactly as it would have been delivered." }),
    created_at: Type.String({ format: "date-time", description: "When the message was issued (and captured)." }),
  },
  { $id: "SandboxEmail" },
);
export type SandboxEmailBody = Static<typeof SandboxEmailSchema>;

export const ListSandboxEmailsQuerySchema = Type.Object(
  {
    ...PageQuerySchema,
    to: Type.Optional(
      Type.String({
        format: "email",
        maxLength: 254,
        description: "Only messages to this address (exact, case-insensitive).",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListSandboxEmailsQuery = Static<typeof ListSandboxEmailsQuerySchema>;

export const SandboxEmailListSchema = Type.Object(
  {
    emails: Type.Array(Type.Ref("SandboxEmail")),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  },
  { "x-component": "SandboxEmailList" },
);
export type SandboxEmailListBody = Static<typeof SandboxEmailListSchema>;

export const SandboxEmailIdParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });
