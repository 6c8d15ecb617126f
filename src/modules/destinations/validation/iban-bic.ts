// IBAN and BIC checks on top of ibantools, which owns the per-country IBAN lengths and BBAN formats, the
// mod-97 checksum, national check digits for some countries, and the BIC shape. This file only turns the
// library's error enums into our failure codes and adds the one rule it cannot know: which IBAN prefixes
// a given bank country may use.
import {
  countrySpecs,
  electronicFormatIBAN,
  isSEPACountry,
  ValidationErrorsBIC,
  ValidationErrorsIBAN,
  validateBIC,
  validateIBAN,
} from "ibantools";
import type { Problem } from "./failures.js";

export type IbanProblemCode =
  | "invalid_iban"
  | "invalid_iban_length"
  | "invalid_iban_format"
  | "invalid_iban_checksum"
  | "iban_country_mismatch"
  | "qr_iban_not_allowed";

/**
 * Territories whose banks issue IBANs under another country's prefix: Åland uses Finnish IBANs, the French
 * overseas departments and collectivities use French ones, and the Crown Dependencies use British ones.
 * A bank country of "GP" with an "FR76…" IBAN is correct, not a mismatch.
 */
const IBAN_PREFIX_ALIASES: Readonly<Record<string, readonly string[]>> = {
  AX: ["FI"],
  BL: ["FR"],
  GF: ["FR"],
  GP: ["FR"],
  MF: ["FR"],
  MQ: ["FR"],
  NC: ["FR"],
  PF: ["FR"],
  PM: ["FR"],
  RE: ["FR"],
  TF: ["FR"],
  WF: ["FR"],
  YT: ["FR"],
  GG: ["GB"],
  IM: ["GB"],
  JE: ["GB"],
};

/** The IBAN country prefixes an account held in `country` may carry; empty when the country has no IBAN. */
export function ibanPrefixesFor(country: string): readonly string[] {
  const own = countrySpecs[country]?.chars === undefined ? [] : [country];
  return [...own, ...(IBAN_PREFIX_ALIASES[country] ?? [])];
}

/**
 * Countries whose accounts are identified by an IBAN and nothing else: the IBAN registry members and the
 * territories above. Countries that ibantools lists only as "IBAN-like" (much of francophone Africa) are not
 * in the registry, so there an IBAN is accepted when given but an account number + BIC is the default.
 */
export function usesIban(country: string): boolean {
  return countrySpecs[country]?.IBANRegistry === true || IBAN_PREFIX_ALIASES[country] !== undefined;
}

/**
 * SEPA reach, including the territories that use a SEPA member's IBANs. Inside SEPA the IBAN alone routes a
 * payment; outside it an IBAN payment travels over SWIFT, which needs the receiving bank's BIC.
 */
export function isSepaCountry(country: string): boolean {
  return isSEPACountry(country) || (IBAN_PREFIX_ALIASES[country] ?? []).some((prefix) => isSEPACountry(prefix));
}

/** Electronic form, as ibantools defines it: spaces and dashes removed, capital letters ("de89 3704…" → "DE893704…"). */
export function normalizeIban(raw: string): string {
  return electronicFormatIBAN(raw) ?? "";
}

/**
 * Every problem with an electronic-form IBAN. `allowedPrefixes` is the bank country's list from
 * `ibanPrefixesFor`, or undefined when the bank country itself is unknown (then only the IBAN is judged).
 */
export function checkIban(iban: string, allowedPrefixes: readonly string[] | undefined): Problem<IbanProblemCode>[] {
  const prefix = iban.slice(0, 2);
  // QR-IBANs (CH/LI) only accept QR-bill payments with a structured reference; a payout to one is returned.
  const errors = new Set(validateIBAN(iban, { allowQRIBAN: false }).errorCodes);
  if (errors.has(ValidationErrorsIBAN.NoIBANCountry)) {
    return [
      { code: "invalid_iban", message: `An IBAN starts with the code of a country that uses IBANs; "${prefix}" is not one.` },
    ];
  }
  const problems: Problem<IbanProblemCode>[] = [];
  if (allowedPrefixes !== undefined && !allowedPrefixes.includes(prefix)) {
    const expected = allowedPrefixes.join(" or ") || "none: that country does not use IBANs";
    problems.push({ code: "iban_country_mismatch", message: `The IBAN is from ${prefix}; expected prefix ${expected}.` });
  }
  const length = countrySpecs[prefix]?.chars;
  if (errors.has(ValidationErrorsIBAN.WrongBBANLength)) {
    problems.push({ code: "invalid_iban_length", message: `A ${prefix} IBAN has ${length} characters, not ${iban.length}.` });
  } else if (errors.has(ValidationErrorsIBAN.WrongBBANFormat)) {
    // The BBAN pattern includes its length, so a wrong length would always be reported twice; say it once.
    problems.push({ code: "invalid_iban_format", message: `The IBAN does not follow the ${prefix} account format.` });
  }
  if (hasChecksumError(errors)) {
    problems.push({
      code: "invalid_iban_checksum",
      message: "The IBAN check digits do not match: a character is probably mistyped.",
    });
  }
  if (errors.has(ValidationErrorsIBAN.QRIBANNotAllowed)) {
    problems.push({
      code: "qr_iban_not_allowed",
      message: "A QR-IBAN only takes QR-bill payments; use the account's regular IBAN.",
    });
  }
  return problems;
}

function hasChecksumError(errors: ReadonlySet<ValidationErrorsIBAN>): boolean {
  return (
    errors.has(ValidationErrorsIBAN.ChecksumNotNumber) ||
    errors.has(ValidationErrorsIBAN.WrongIBANChecksum) ||
    errors.has(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)
  );
}

/** Capital letters, no spaces: "deut de ff 500" → "DEUTDEFF500". */
export function normalizeBic(raw: string): string {
  return raw.replace(/\s+/g, "").toUpperCase();
}

/** A BIC is 8 or 11 characters: bank (4 letters), ISO country, location, optional branch. */
export function checkBic(bic: string): Problem<"invalid_bic">[] {
  const errors = validateBIC(bic).errorCodes;
  if (errors.length === 0) return [];
  const reason = errors.includes(ValidationErrorsBIC.NoBICCountry)
    ? `"${bic.slice(4, 6)}" in positions 5-6 is not a country code`
    : "it must be 4 letters, a country code, 2 letters or digits, and an optional 3-character branch";
  return [{ code: "invalid_bic", message: `The BIC is not valid: ${reason}.` }];
}

/**
 * The BIC countries a bank holding IBANs with `ibanPrefix` may have: the IBAN's own country, and the
 * territories that use that country's IBANs (a Jersey bank, BIC "…JE…", issues GB IBANs; a bank in Réunion,
 * "…RE…", FR IBANs; Åland's, FI IBANs).
 */
export function bicCountriesFor(ibanPrefix: string): readonly string[] {
  const territories = Object.entries(IBAN_PREFIX_ALIASES).flatMap(([territory, prefixes]) =>
    prefixes.includes(ibanPrefix) ? [territory] : [],
  );
  return [ibanPrefix, ...territories];
}

/**
 * IBAN countries whose bank identifier (IBAN characters 5-8) is, by the SWIFT IBAN registry, the first four
 * characters of the bank's BIC (NWBK in GB29 NWBK 6016…, ABNA in NL91 ABNA 0417…). Elsewhere the IBAN carries
 * a national bank code that says nothing about the BIC, so only the country is compared.
 */
const BANK_CODE_IS_BIC_BANK: ReadonlySet<string> = new Set(["GB", "GI", "IE", "NL"]);

/**
 * An IBAN and a BIC given together must name the same bank: the BIC's country is the IBAN's (or one of the
 * territories using its prefix), and where the IBAN carries the BIC's bank code, that too. Messages name
 * countries only, never characters of the account.
 */
export function checkBicAgainstIban(bic: string, iban: string): Problem<"bic_country_mismatch" | "bic_bank_mismatch">[] {
  const prefix = iban.slice(0, 2);
  const bicCountry = bic.slice(4, 6);
  const allowed = bicCountriesFor(prefix);
  if (!allowed.includes(bicCountry)) {
    return [
      {
        code: "bic_country_mismatch",
        message: `The BIC is of a bank in ${bicCountry}; an IBAN starting ${prefix} needs the BIC of its bank, in ${allowed.join(" or ")}.`,
      },
    ];
  }
  if (BANK_CODE_IS_BIC_BANK.has(prefix) && iban.slice(4, 8) !== bic.slice(0, 4)) {
    return [
      {
        code: "bic_bank_mismatch",
        message: `The BIC names another bank than the IBAN: in a ${prefix} IBAN, characters 5 to 8 are the first four of its bank's BIC.`,
      },
    ];
  }
  return [];
}

/** "DEUTDEFFXXX" and "DEUTDEFF" name the same office; fingerprints must not tell them apart. */
export function canonicalBic(bic: string): string {
  return bic.length === 11 && bic.endsWith("XXX") ? bic.slice(0, 8) : bic;
}
