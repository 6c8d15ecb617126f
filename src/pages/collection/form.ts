// From an application/x-www-form-urlencoded body to the collection module's Submission. Empty fields mean
// "not given" (the form is pre-filled with the current values, so an untouched field is resent as it is).
import type { DestinationChoice, LinkView, Submission, TaxForm } from "../../modules/collection/index.js";
import { TAX_FORMS } from "../../modules/collection/index.js";
import { decodeFormComponent, findQueryProblems } from "../../platform/http/text-input.js";

export type FormFields = Readonly<Record<string, string>>;

/**
 * Parses a urlencoded body into a null-prototype record; a repeated name keeps its first value. Null when
 * the body breaks the API's text rule (bytes that are not UTF-8, NUL, control characters, line breaks: every
 * field of the form is a single-line input), so the page answers 400 rather than storing altered text.
 */
export function parseFormBody(text: string): Record<string, string> | null {
  if (findQueryProblems(text).length > 0) return null;
  const fields: Record<string, string> = Object.create(null);
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const name = decodeFormComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = decodeFormComponent(eq === -1 ? "" : pair.slice(eq + 1));
    if (name === null || value === null) return null;
    if (name.length > 100 || name in fields) continue;
    fields[name] = value;
  }
  return fields;
}

/** Dates the pages ask for as three fields (html.ts renderDateField). */
const DATE_FIELDS = ["date_of_birth"] as const;

/**
 * Joins each date's day, month and year fields into the one `YYYY-MM-DD` value the API takes. All three
 * empty means "not given"; anything else is joined as typed, so an impossible or partial date reaches the
 * validator and is reported beside the date like any other bad value. A form that posts the joined value
 * itself (no parts) is left as it is.
 */
export function joinDateParts(fields: FormFields): FormFields {
  const joined: Record<string, string> = Object.assign(Object.create(null), fields);
  for (const name of DATE_FIELDS) {
    const parts = (["year", "month", "day"] as const).map((part) => fields[`${name}.${part}`]);
    if (parts.every((part) => part === undefined)) continue;
    const [year, month, day] = parts.map((part) => (part ?? "").trim());
    if (year === "" && month === "" && day === "") {
      joined[name] = "";
      continue;
    }
    const pad = (value: string | undefined) => (value !== undefined && /^\d$/.test(value) ? `0${value}` : (value ?? ""));
    joined[name] = `${year}-${pad(month)}-${pad(day)}`;
  }
  return joined;
}

const IDENTITY_NAMES = [
  "first_name",
  "last_name",
  "date_of_birth",
  "country_of_residence",
  "business_name",
  "country_of_incorporation",
  "registration_number",
  "tax_id",
  "phone",
] as const;
const ADDRESS_PARTS = ["line1", "line2", "city", "state", "postal_code", "country"] as const;

function given(fields: FormFields, name: string): string | undefined {
  const value = fields[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

export function isTaxForm(value: string | undefined): value is TaxForm {
  return value !== undefined && (TAX_FORMS as readonly string[]).includes(value);
}

function addressOf(fields: FormFields): Record<string, string> | undefined {
  const address: Record<string, string> = {};
  for (const part of ADDRESS_PARTS) {
    const value = given(fields, `postal_address.${part}`);
    if (value !== undefined) address[part] = value;
  }
  return Object.keys(address).length > 0 ? address : undefined;
}

function identityOf(fields: FormFields, type: "person" | "business"): Record<string, unknown> {
  const allowed = new Set<string>(
    type === "person"
      ? ["first_name", "last_name", "date_of_birth", "country_of_residence", "tax_id", "phone"]
      : ["business_name", "country_of_incorporation", "registration_number", "tax_id", "phone"],
  );
  const identity: Record<string, unknown> = {};
  for (const name of IDENTITY_NAMES) {
    const value = given(fields, name);
    if (allowed.has(name) && value !== undefined) identity[name] = value;
  }
  const address = addressOf(fields);
  if (address !== undefined) identity.postal_address = address;
  return identity;
}

function destinationOf(fields: FormFields): DestinationChoice {
  const choice = given(fields, "destination");
  if (choice === "new") {
    const bank: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(fields)) {
      if (name.startsWith("bank.") && value.trim() !== "") bank[name.slice(5)] = value.trim();
    }
    return { kind: "new", bank };
  }
  if (choice !== undefined && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(choice)) {
    return { kind: "existing", id: choice.toLowerCase() };
  }
  return { kind: "missing" };
}

/** The submission the form describes, or null when the form does not fit the link (tampered or stale). */
export function submissionOf(view: LinkView, fields: FormFields): Submission | null {
  switch (view.scope) {
    case "full_onboarding":
      return { scope: "full_onboarding", identity: identityOf(fields, view.beneficiaryType), destination: destinationOf(fields) };
    case "payout_destination": {
      const address = addressOf(fields);
      return {
        scope: "payout_destination",
        destination: destinationOf(fields),
        ...(address === undefined ? {} : { postalAddress: address }),
      };
    }
    case "tax_documents": {
      const form = fields.form;
      if (!isTaxForm(form)) return null;
      return { scope: "tax_documents", form, tax: fields };
    }
  }
}
