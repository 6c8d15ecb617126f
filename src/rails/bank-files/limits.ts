// What the bank files can carry, measured the way the writers write it: amounts against the formats' amount
// fields, texts after transliteration (charset.ts) against their elements' lengths. The writers cut nothing a
// payee or the Business typed: a text too long for its element is refused when the payout (or the account,
// or the collection submission) is created, naming the field and the limit (docs/decisions.md, "Bank-file
// limits"), and a payout that got past that check (created before it existed) fails at the cut-off instead of
// leaving with a cut text.
import { nachaTextLength, sepaTextLength } from "./charset.js";

/** 999,999,999.99 EUR: the EPC SCT rulebook's ceiling (pain.001 InstdAmt). */
export const SEPA_MAX_AMOUNT_MINOR = 99_999_999_999;
/** 99,999,999.99 USD: the NACHA Entry Detail amount field has ten digits of cents. */
export const ACH_MAX_AMOUNT_MINOR = 9_999_999_999;

/** pain.001 element lengths of the payee's texts (EPC SCT 2023 implementation guidelines). */
export const SEPA_TEXT_LIMITS = {
  name: 70,
  remittance: 140,
  streetName: 70,
  buildingName: 35,
  postalCode: 16,
  townName: 35,
  countrySubdivision: 35,
} as const;

/** NACHA Entry Detail record: Individual Name (PPD) / Receiving Company Name (CCD), positions 55-76. */
export const ACH_TEXT_LIMITS = { receiverName: 22 } as const;

/** A text too long for its element once transliterated. `field` names the API field it comes from. */
export interface TextLimitProblem {
  /** `account_holder_name`, `external_ref`, `postal_address.line1`, … */
  readonly field: string;
  readonly limit: number;
  /** Its length once transliterated. */
  readonly length: number;
  /** Where it goes in the file, for the message. */
  readonly element: string;
}

/** The payee's texts a SEPA transfer carries (any of them may be absent: only what is given is checked). */
export interface SepaTexts {
  readonly name?: string | null | undefined;
  /** The remittance information (`external_ref`, else `Payout <id>`). */
  readonly remittance?: string | null | undefined;
  readonly address?:
    | {
        readonly line1?: string | null | undefined;
        readonly line2?: string | null | undefined;
        readonly city?: string | null | undefined;
        readonly state?: string | null | undefined;
        readonly postal_code?: string | null | undefined;
      }
    | null
    | undefined;
}

export type SepaFileVersion = "pain.001.001.09" | "pain.001.001.03";

/**
 * pain.001.001.03's address has no building name: `line2` travels in the street name after `line1`
 * ("Hauptstraße 5, Hinterhaus"), so there the two share StrtNm's 70 characters.
 */
export function streetNameOf(line1: string | null | undefined, line2: string | null | undefined): string | null {
  const parts = [line1, line2].filter((part): part is string => typeof part === "string" && part.trim() !== "");
  return parts.length === 0 ? null : parts.join(", ");
}

/** Every SEPA text of `texts` that is longer than its pain.001 element once transliterated. */
export function sepaTextProblems(texts: SepaTexts, version: SepaFileVersion = "pain.001.001.09"): TextLimitProblem[] {
  const problems: TextLimitProblem[] = [];
  const check = (field: string, value: string | null | undefined, limit: number, element: string) => {
    if (value === null || value === undefined) return;
    const length = sepaTextLength(value);
    if (length > limit) problems.push({ field, limit, length, element });
  };
  check("account_holder_name", texts.name, SEPA_TEXT_LIMITS.name, "Cdtr/Nm");
  check("external_ref", texts.remittance, SEPA_TEXT_LIMITS.remittance, "RmtInf/Ustrd");
  const address = texts.address;
  if (address) {
    if (version === "pain.001.001.03" && address.line2) {
      check("postal_address.line1", address.line1, SEPA_TEXT_LIMITS.streetName, "PstlAdr/StrtNm");
      if (problems.every((p) => p.field !== "postal_address.line1"))
        check(
          "postal_address.line2",
          streetNameOf(address.line1, address.line2),
          SEPA_TEXT_LIMITS.streetName,
          "PstlAdr/StrtNm (line1, line2: pain.001.001.03 has no building name)",
        );
    } else {
      check("postal_address.line1", address.line1, SEPA_TEXT_LIMITS.streetName, "PstlAdr/StrtNm");
      check("postal_address.line2", address.line2, SEPA_TEXT_LIMITS.buildingName, "PstlAdr/BldgNm");
    }
    check("postal_address.postal_code", address.postal_code, SEPA_TEXT_LIMITS.postalCode, "PstlAdr/PstCd");
    check("postal_address.city", address.city, SEPA_TEXT_LIMITS.townName, "PstlAdr/TwnNm");
    check("postal_address.state", address.state, SEPA_TEXT_LIMITS.countrySubdivision, "PstlAdr/CtrySubDvsn");
  }
  return problems;
}

/** Every ACH text that is longer than its NACHA field once transliterated (the name is the only payee text). */
export function achTextProblems(texts: { readonly name?: string | null | undefined }): TextLimitProblem[] {
  if (texts.name === null || texts.name === undefined) return [];
  const length = nachaTextLength(texts.name);
  return length > ACH_TEXT_LIMITS.receiverName
    ? [
        {
          field: "account_holder_name",
          limit: ACH_TEXT_LIMITS.receiverName,
          length,
          element: "Entry Detail record, Individual / Receiving Company Name",
        },
      ]
    : [];
}

/**
 * SEPA scheme countries and territories outside the EEA: there the EPC SCT rulebook makes the beneficiary
 * bank's BIC mandatory (EPC list of SEPA scheme countries, EPC409-09). Switzerland, the United Kingdom and
 * the Crown Dependencies, Gibraltar, Monaco, San Marino, the Vatican, Andorra, Saint Pierre and Miquelon,
 * Saint Barthélemy, and the members admitted since 2022: Albania, Moldova, Montenegro, North Macedonia,
 * Serbia. The EEA (EU, Iceland, Liechtenstein, Norway, and the EU's outermost regions) needs none.
 */
export const NON_EEA_SEPA_COUNTRIES: ReadonlySet<string> = new Set([
  "CH",
  "GB",
  "GG",
  "JE",
  "IM",
  "GI",
  "MC",
  "SM",
  "VA",
  "AD",
  "PM",
  "BL",
  "AL",
  "MD",
  "ME",
  "MK",
  "RS",
]);

/** Whether a SEPA transfer to an account held in `country` must name the beneficiary bank's BIC. */
export function sepaNeedsCreditorBic(country: string): boolean {
  return NON_EEA_SEPA_COUNTRIES.has(country);
}

/**
 * Statements read (statements.ts): a file larger than this is refused before parsing (a day's camt.053 of a
 * busy account with 100,000 entries and their details is some 60 MB), and so is one with more entries.
 */
export const STATEMENT_MAX_BYTES = 64 * 1024 * 1024;
export const STATEMENT_MAX_ENTRIES = 100_000;
/** A BAI2 physical record longer than this is not a BAI2 record (banks write 80 or variable up to a few hundred). */
export const BAI2_MAX_RECORD_LENGTH = 4096;
