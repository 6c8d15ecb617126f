// TypeBox schemas of the Business profile: request validation, response serialization and the OpenAPI
// document from one source. The profile is Business-wide (both environments share it).
import { type Static, Type } from "@sinclair/typebox";
import { nameString, nullable } from "../../platform/http/schema-types.js";

export const BUSINESS_NAME_MAX = 200;

const CountryCodeSchema = Type.String({
  pattern: "^[A-Z]{2}$",
  "x-pattern-message": "Expected an ISO 3166-1 alpha-2 country code in capitals, e.g. DE.",
  description: "ISO 3166-1 alpha-2 country code, e.g. `DE`.",
});
const RegistrationNumberSchema = Type.String({
  minLength: 1,
  maxLength: 50,
  description: "The company register's number, e.g. `HRB 123456`.",
});
const TaxIdSchema = Type.String({
  minLength: 2,
  maxLength: 40,
  pattern: "^[A-Za-z0-9][A-Za-z0-9 ./-]*$",
  "x-pattern-message": "Letters, digits, spaces, dots, slashes and dashes only.",
  description: "VAT or tax identification number, e.g. `DE123456789`.",
});
const SupportEmailSchema = Type.String({
  format: "email",
  maxLength: 254,
  description: "Where payees and partners can reach the Business.",
});
const WebsiteSchema = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: "An `https://` address, without user name or password.",
});
const TimeZoneSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  // A name, not an offset: `+05:00` is refused whatever the runtime's Intl would accept.
  pattern: "^[A-Za-z][A-Za-z0-9_+/-]*$",
  "x-pattern-message": "Expected an IANA time zone name, e.g. Europe/Berlin.",
  description:
    "An IANA time zone name, e.g. `Europe/Berlin`, that the service's time zone database knows; its letter case is corrected (`europe/berlin` is stored `Europe/Berlin`), otherwise it is stored as sent.",
});

export const UpdateBusinessProfileBodySchema = Type.Object(
  {
    name: Type.Optional(
      nameString(
        BUSINESS_NAME_MAX,
        "Display name: shown in the dashboard, in e-mails to payees and on the hosted pages (unless the branding sets another). Must contain a letter or digit; cannot be cleared.",
      ),
    ),
    legal_name: Type.Optional(
      nullable(nameString(BUSINESS_NAME_MAX, "The registered legal name, when it differs from the display name.")),
    ),
    country: Type.Optional(nullable(CountryCodeSchema)),
    registration_number: Type.Optional(nullable(RegistrationNumberSchema)),
    tax_id: Type.Optional(nullable(TaxIdSchema)),
    support_email: Type.Optional(nullable(SupportEmailSchema)),
    website: Type.Optional(nullable(WebsiteSchema)),
    time_zone: Type.Optional(nullable(TimeZoneSchema)),
  },
  {
    "x-component": "UpdateBusinessProfileRequest",
    additionalProperties: false,
    minProperties: 1,
    description:
      "Only the fields to change: a field sent replaces the stored value, `null` clears an optional one, a field not sent is kept. An empty object or an unknown field is refused (400 `validation_failed`).",
  },
);
export type UpdateBusinessProfileBody = Static<typeof UpdateBusinessProfileBodySchema>;

export const BusinessProfileSchema = Type.Object(
  {
    id: Type.String({ format: "uuid", description: "The Business id." }),
    name: Type.String({ description: "Display name." }),
    legal_name: Type.Union([Type.String(), Type.Null()]),
    country: Type.Union([Type.String(), Type.Null()], { description: "ISO 3166-1 alpha-2." }),
    registration_number: Type.Union([Type.String(), Type.Null()]),
    tax_id: Type.Union([Type.String(), Type.Null()]),
    support_email: Type.Union([Type.String(), Type.Null()]),
    website: Type.Union([Type.String(), Type.Null()]),
    time_zone: Type.Union([Type.String(), Type.Null()], { description: "IANA time zone name." }),
    created_at: Type.String({ format: "date-time", description: "When the Business registered." }),
    updated_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
      description: "The last change of the profile; null until the first.",
    }),
  },
  { $id: "BusinessProfile", description: "The Business's profile: one for both environments." },
);
export type BusinessProfileBody = Static<typeof BusinessProfileSchema>;
