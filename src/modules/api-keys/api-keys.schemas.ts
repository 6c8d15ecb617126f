import { type Static, Type } from "@sinclair/typebox";
import { nameString } from "../../platform/http/schema-types.js";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";

export const RoleSchema = Type.Union(
  [Type.Literal("business_admin"), Type.Literal("business_approver"), Type.Literal("business_read_only")],
  {
    description:
      "`business_admin` reads and writes; `business_approver` reads and decides payouts; `business_read_only` reads only. A key acts with the lower of its own role and its member's current role.",
  },
);
export const EnvironmentSchema = Type.Union([Type.Literal("sandbox"), Type.Literal("production")]);

export const ApiKeySchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    environment: EnvironmentSchema,
    role: RoleSchema,
    label: Type.Union([Type.String(), Type.Null()]),
    key_hint: Type.String({
      description: "Prefix, environment, id and the last four characters of the secret: tells keys apart without revealing them.",
    }),
    membership_id: Type.String({ format: "uuid", description: "The membership that created the key." }),
    created_at: Type.String({ format: "date-time" }),
    last_used_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
      description: "Last authenticated use, recorded with one-minute granularity.",
    }),
    revoked_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  },
  { $id: "ApiKey" },
);
export type ApiKeyBody = Static<typeof ApiKeySchema>;

export const IssuedApiKeySchema = Type.Object(
  {
    ...ApiKeySchema.properties,
    key: Type.String({ description: "The full API key. Shown only in this response; store it now." }),
  },
  { $id: "IssuedApiKey" },
);
export type IssuedApiKeyBody = Static<typeof IssuedApiKeySchema>;

export const CreateApiKeyBodySchema = Type.Object(
  {
    role: RoleSchema,
    label: Type.Optional(nameString(100, "A name people tell keys apart by. Must contain a letter or digit.")),
  },
  { "x-component": "CreateApiKeyRequest", additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBodySchema>;

export const ListApiKeysQuerySchema = Type.Object(PageQuerySchema, { additionalProperties: false });
export type ListApiKeysQuery = Static<typeof ListApiKeysQuerySchema>;

export const ApiKeyListSchema = Type.Object(
  {
    api_keys: Type.Array(Type.Ref("ApiKey")),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  },
  { "x-component": "ApiKeyList" },
);

export const ApiKeyIdParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });
