import { type Static, Type } from "@sinclair/typebox";
import { nameString } from "../../platform/http/schema-types.js";

export const RegistrationBodySchema = Type.Object(
  {
    business_name: nameString(
      200,
      "Legal or trading name of the Business, shown to its payees in e-mails and on hosted pages. Must contain a letter or digit.",
    ),
    email: Type.String({
      format: "email",
      maxLength: 254,
      description: "The admin user's e-mail; case-insensitive and unique across the service.",
    }),
    password: Type.String({
      minLength: 12,
      maxLength: 200,
      description: "For the dashboard to come; stored only as an scrypt hash.",
    }),
  },
  { additionalProperties: false },
);
export type RegistrationBody = Static<typeof RegistrationBodySchema>;

export const RegistrationResponseSchema = Type.Object({
  business: Type.Object({
    id: Type.String({ format: "uuid" }),
    name: Type.String(),
    created_at: Type.String({ format: "date-time" }),
  }),
  user: Type.Object({
    id: Type.String({ format: "uuid" }),
    email: Type.String(),
    created_at: Type.String({ format: "date-time" }),
  }),
  membership: Type.Object({
    id: Type.String({ format: "uuid" }),
    role: Type.Literal("business_admin"),
  }),
  api_keys: Type.Array(Type.Ref("IssuedApiKey"), {
    description: "One sandbox and one production business_admin key. Shown only in this response.",
  }),
});
export type RegistrationResponse = Static<typeof RegistrationResponseSchema>;
