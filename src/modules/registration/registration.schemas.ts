import { type Static, Type } from "@sinclair/typebox";
import { nameString } from "../../platform/http/schema-types.js";

/**
 * Characters a Business name may not hold: C0 controls (tab, CR, LF, NUL...), DEL, C1 controls, line and
 * paragraph separators, bidirectional overrides and isolates. The name is shown in e-mails and pages, where
 * such characters forge header lines or reorder text. Written with escapes so the source holds none itself.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const BUSINESS_NAME_FORBIDDEN = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

export const RegistrationBodySchema = Type.Object(
  {
    business_name: nameString(
      200,
      "Legal or trading name of the Business, shown to its payees in e-mails and on hosted pages. Must contain a letter or digit; control characters (line breaks, tabs, NUL, other C0/C1 controls, line separators, bidirectional overrides) are refused.",
    ),
    email: Type.String({
      format: "email",
      maxLength: 254,
      description:
        "The admin user's e-mail; case-insensitive. The verification token is sent there. An address that already has an account may register another Business: its owner confirms with the token, and the new Business joins their existing user.",
    }),
    password: Type.String({
      minLength: 12,
      maxLength: 200,
      description:
        "For the dashboard to come; stored only as an scrypt hash. Ignored when the address already has an account (an existing password is never replaced).",
    }),
  },
  { "x-component": "RegisterBusinessRequest", additionalProperties: false },
);
export type RegistrationBody = Static<typeof RegistrationBodySchema>;

export const RegistrationResponseSchema = Type.Object(
  {
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
  },
  { "x-component": "RegisteredBusiness" },
);
export type RegistrationResponse = Static<typeof RegistrationResponseSchema>;

export const RegistrationAcceptedSchema = Type.Object(
  {
    status: Type.Literal("verification_sent"),
    email: Type.String({ description: "The address, trimmed and lower-cased, the verification e-mail goes to." }),
    message: Type.String({ description: "What to do next, for a person reading the answer." }),
  },
  { "x-component": "RegistrationAccepted" },
);
export type RegistrationAccepted = Static<typeof RegistrationAcceptedSchema>;

export const VerificationBodySchema = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "The verification token from the e-mail sent by `POST /v1/registration`.",
    }),
  },
  { "x-component": "VerifyRegistrationRequest", additionalProperties: false },
);
export type VerificationBody = Static<typeof VerificationBodySchema>;
