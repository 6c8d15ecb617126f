// Tax form data collected over a `tax_documents` link: the fields of IRS forms W-9 (US persons), W-8BEN
// (foreign individuals) and W-8BEN-E (foreign entities) a payout platform needs to decide withholding and
// to report. Pure: validates text input and builds the full document (stored encrypted) and the masked
// summary (shown on the Beneficiary). No IRS check is made; the Beneficiary certifies under their typed name.

import type { ErrorDetail } from "../../platform/errors.js";
import { maskTrailing } from "../../platform/masking.js";
import { BLANK_NAME_CODE, BLANK_NAME_MESSAGE, isVisibleName } from "../../platform/names.js";
import { isCountryCode } from "../../platform/reference/iso-codes.js";
import type { TaxDocumentSummaryValue } from "../beneficiaries/index.js";

export const TAX_FORMS = ["W-9", "W-8BEN", "W-8BEN-E"] as const;
export type TaxForm = (typeof TAX_FORMS)[number];

export const W9_CLASSIFICATIONS = {
  individual: "Individual or sole proprietor",
  c_corporation: "C corporation",
  s_corporation: "S corporation",
  partnership: "Partnership",
  trust_estate: "Trust or estate",
  llc: "Limited liability company",
  other: "Other",
} as const;

export const W8BENE_ENTITY_TYPES = {
  corporation: "Corporation",
  partnership: "Partnership",
  disregarded_entity: "Disregarded entity",
  trust: "Trust",
  government: "Government",
  other: "Other",
} as const;

/** The form as typed: every value a string (empty when left blank). */
export type TaxFormInput = Readonly<Record<string, string | undefined>>;

export interface ValidTaxForm {
  readonly document: Readonly<Record<string, string | null>>;
  readonly summary: Omit<TaxDocumentSummaryValue, "submitted_at">;
}

/** Which form a Beneficiary of this type fills when they are (or are not) a US person. */
export function formFor(usPerson: boolean, beneficiaryType: "person" | "business"): TaxForm {
  if (usPerson) return "W-9";
  return beneficiaryType === "person" ? "W-8BEN" : "W-8BEN-E";
}

export function validateTaxForm(form: TaxForm, input: TaxFormInput, today: string): ValidTaxForm | { details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const text = (field: string, label: string, options: { required: boolean; max: number }): string | null => {
    const value = (input[field] ?? "").trim().replace(/\s+/g, " ");
    if (value === "") {
      if (options.required) details.push({ field, code: "required", message: `Enter ${label}.` });
      return null;
    }
    if (value.length > options.max) {
      details.push({ field, code: "too_long", message: `${capitalize(label)} must be at most ${options.max} characters.` });
      return null;
    }
    return value;
  };
  /** A name (the form's name, the typed signature): text that holds a letter or digit. */
  const nameText = (field: string, label: string, max: number): string | null => {
    const value = text(field, label, { required: true, max });
    if (value === null || isVisibleName(value)) return value;
    details.push({ field, code: BLANK_NAME_CODE, message: BLANK_NAME_MESSAGE });
    return null;
  };
  const country = (field: string, label: string, required: boolean): string | null => {
    const value = text(field, label, { required, max: 2 })?.toUpperCase() ?? null;
    if (value !== null && !isCountryCode(value)) {
      details.push({ field, code: "invalid_country", message: `Choose ${label} from the list.` });
      return null;
    }
    return value;
  };
  const choice = <K extends string>(field: string, label: string, allowed: Readonly<Record<K, string>>): K | null => {
    const value = (input[field] ?? "").trim();
    if (value === "") {
      details.push({ field, code: "required", message: `Choose ${label}.` });
      return null;
    }
    if (!Object.hasOwn(allowed, value)) {
      details.push({ field, code: "invalid_enum", message: `Choose ${label} from the list.` });
      return null;
    }
    return value as K;
  };

  const name = nameText("name", "the name as shown on your tax return", 200);
  const address = {
    address_line1: text("address_line1", "the street address", { required: true, max: 200 }),
    address_city: text("address_city", "the city", { required: true, max: 100 }),
    address_state: text("address_state", "the state or region", { required: false, max: 100 }),
    address_postal_code: text("address_postal_code", "the postal code", { required: false, max: 20 }),
    address_country: country("address_country", "the country of the address", true),
  };

  let tinType: TaxDocumentSummaryValue["tin_type"] = "none";
  let tin: string | null = null;
  let countryValue: string | null = "US";
  let treatyCountry: string | null = null;
  const extra: Record<string, string | null> = {};

  if (form === "W-9") {
    extra.tax_classification = choice("tax_classification", "a federal tax classification", W9_CLASSIFICATIONS);
    const type = choice("tin_type", "the kind of taxpayer identification number", { ssn: "", ein: "", itin: "" });
    const raw = text("tin", "your taxpayer identification number", { required: true, max: 20 });
    if (raw !== null) {
      const digits = raw.replace(/[\s-]/g, "");
      if (!/^\d{9}$/.test(digits)) {
        details.push({ field: "tin", code: "invalid_format", message: "A US taxpayer identification number has 9 digits." });
      } else if (type === "itin" && !digits.startsWith("9")) {
        details.push({ field: "tin", code: "invalid_format", message: "An ITIN starts with 9." });
      } else {
        tin = digits;
      }
    }
    if (type !== null) tinType = type;
    if (address.address_country !== null && address.address_country !== "US") {
      details.push({
        field: "address_country",
        code: "invalid_country",
        message: "A W-9 takes a US address. If you are not a US person, go back and choose the W-8 form.",
      });
    }
  } else {
    const countryLabel = form === "W-8BEN" ? "your country of citizenship" : "the country of incorporation or organization";
    countryValue = country("country", countryLabel, true);
    if (countryValue === "US") {
      details.push({
        field: "country",
        code: "invalid_country",
        message: "US persons fill in a W-9 instead. Go back and choose it.",
      });
    }
    const foreignTin = text("foreign_tin", "your foreign tax identifying number", { required: false, max: 40 });
    if (foreignTin !== null) {
      if (!/^[A-Za-z0-9][A-Za-z0-9 ./-]*$/.test(foreignTin)) {
        details.push({
          field: "foreign_tin",
          code: "invalid_format",
          message: "Use letters, digits, spaces, dots, slashes and dashes only.",
        });
      } else {
        tin = foreignTin.replace(/\s+/g, "").toUpperCase();
        tinType = "foreign_tin";
      }
    } else if ((input.foreign_tin_not_required ?? "") === "") {
      details.push({
        field: "foreign_tin",
        code: "required",
        message: "Enter your foreign tax identifying number, or tick the box if your country does not issue one.",
      });
    }
    treatyCountry = country("treaty_country", "the treaty country", false);
    if (form === "W-8BEN") {
      const birth = text("date_of_birth", "your date of birth", { required: true, max: 10 });
      if (birth !== null) {
        if (
          !/^\d{4}-\d{2}-\d{2}$/.test(birth) ||
          Number.isNaN(Date.parse(`${birth}T00:00:00Z`)) ||
          birth >= today ||
          birth < "1900-01-01"
        ) {
          details.push({
            field: "date_of_birth",
            code: "invalid_format",
            message: "Enter a real date in the past as YYYY-MM-DD.",
          });
        } else {
          extra.date_of_birth = birth;
        }
      }
    } else {
      extra.entity_type = choice("entity_type", "the type of entity", W8BENE_ENTITY_TYPES);
    }
  }

  const signature = nameText("signature", "your full name as signature", 200);
  if ((input.certify ?? "") !== "yes") {
    details.push({ field: "certify", code: "required", message: "Tick the box to certify that the information is correct." });
  }

  if (details.length > 0 || name === null || signature === null || countryValue === null) return { details };
  return {
    document: {
      form,
      name,
      tin_type: tinType,
      tin,
      country: countryValue,
      treaty_country: treatyCountry,
      ...extra,
      ...address,
      signature,
      signed_on: today,
      certified: "yes",
    },
    summary: {
      form,
      name,
      tin_type: tinType,
      tin_last4: tin === null ? null : maskTrailing(tin),
      country: countryValue,
      treaty_country: treatyCountry,
      signed_by: signature,
      signed_on: today,
    },
  };
}

function capitalize(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}
