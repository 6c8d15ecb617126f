// Validation of the spec's BankDetails object for every entry point (API, CSV import, hosted collection
// pages). Pure: no clock, no database, no network. It normalises the input, picks the payment scheme from
// the bank country, the currency and which identifiers were given, and reports EVERY failed check with the
// field it concerns, so a form or an import row can show all problems in one round trip.
//
// Scheme choice, in order:
//   1. An IBAN was given and the country uses IBANs (own prefix or a parent's)  -> iban
//   2. US -> us_aba, GB -> gb_sort_code, MX -> mx_clabe,
//      BR -> br_pix (a Pix key, or nothing given) or br_bank_account (branch + account)
//   3. An IBAN registry country (SEPA and beyond)                                -> iban (IBAN required)
//   4. CA / AU / IN paid in their own currency                                   -> ca_eft / au_bsb / in_ifsc
//   5. Anything else                                                             -> swift (account number + BIC)
import { clabe } from "clabe-validator";
import { BLANK_NAME_MESSAGE, isVisibleName } from "../../../platform/names.js";
import { isCountryCode, isCurrencyCode } from "./countries.js";
import {
  ACCOUNT_NUMBER_RULES,
  type AccountNumberScheme,
  checkAbaRoutingNumber,
  checkAccountNumber,
  checkBrazilianBranch,
  checkBsb,
  checkIfsc,
  checkSortCode,
  normalizeCanadianRouting,
  stripSeparators,
} from "./domestic.js";
import {
  collapseSpaces,
  MAX_NAME_LENGTH,
  type Problem,
  readText,
  type ValidationFailure,
  type ValidationResult,
} from "./failures.js";
import {
  canonicalBic,
  checkBic,
  checkBicAgainstIban,
  checkIban,
  ibanPrefixesFor,
  isSepaCountry,
  normalizeBic,
  normalizeIban,
  usesIban,
} from "./iban-bic.js";
import { maskIdentifier, maskPixKey } from "./masking.js";
import { checkPixKey, type PixKeyType } from "./pix.js";

/** Every failure code this validator can return, with what it means (rendered into the error reference). */
export const BANK_DETAILS_FAILURE_CODES = {
  required: "The field is needed for this country, currency and scheme but was missing or blank.",
  blank: "A name (account holder, bank) holds no letter or digit: only spaces or invisible characters.",
  too_long: "The text is longer than a payment rail can carry (140 characters).",
  invalid_country: "Not an ISO 3166-1 alpha-2 country code.",
  invalid_currency: "Not an ISO 4217 code of a currency an account can hold (metal, bond-unit and test codes are refused).",
  currency_not_supported_for_country: "The scheme cannot pay out in this currency (for example a CLABE takes MXN only).",
  invalid_iban: "Not an IBAN: it does not start with the code of a country that uses IBANs.",
  invalid_iban_length: "The IBAN does not have its country's length.",
  invalid_iban_format: "The IBAN does not follow its country's account format.",
  invalid_iban_checksum: "The IBAN check digits (mod 97, or the national check digits) do not match.",
  iban_country_mismatch: "The IBAN belongs to another country than `country`.",
  qr_iban_not_allowed: "A Swiss or Liechtenstein QR-IBAN, which takes QR-bill payments only.",
  invalid_bic: "Not a valid SWIFT BIC (8 or 11 characters with a known country).",
  bic_country_mismatch:
    "The BIC is of a bank in another country than the IBAN's (territories using a country's IBANs, such as Jersey with GB or Réunion with FR, count as that country).",
  bic_bank_mismatch:
    "The BIC names another bank than the IBAN, in a country whose IBAN carries the BIC's bank code (GB, GI, IE, NL: IBAN characters 5-8 are the BIC's first four).",
  invalid_routing_code: "The routing code does not have the shape the country uses (ABA, BSB, IFSC, transit, branch).",
  invalid_aba_checksum: "The ABA routing number check digit does not match.",
  invalid_sort_code: "A UK sort code has 6 digits.",
  invalid_account_number: "The account number does not have the shape the scheme uses.",
  invalid_clabe: "A CLABE has exactly 18 digits.",
  invalid_clabe_checksum: "The CLABE check digit does not match.",
  invalid_pix_key: "Not a valid Pix key (CPF, CNPJ, e-mail, +55 mobile number or random key).",
  conflicts_with_iban: "A UK sort code or account number given beside an IBAN that holds different ones.",
  field_not_applicable: "An account identifier of another scheme (an IBAN, CLABE or Pix key where the country does not use it).",
} as const;

export type BankDetailsFailureCode = keyof typeof BANK_DETAILS_FAILURE_CODES;

export const BANK_DETAILS_FIELDS = [
  "account_holder_name",
  "country",
  "currency",
  "account_number",
  "routing_code",
  "iban",
  "swift_bic",
  "bank_name",
  "clabe",
  "pix_key",
] as const;

export type BankDetailsField = (typeof BANK_DETAILS_FIELDS)[number];

/** The spec's BankDetails. Everything is optional here so a CSV row with gaps gets `required` failures, not a crash. */
export type BankDetailsInput = { readonly [Field in BankDetailsField]?: string | null | undefined };

export type BankDetailsFailure = ValidationFailure<BankDetailsField, BankDetailsFailureCode>;

export const BANK_SCHEMES = [
  "iban",
  "us_aba",
  "gb_sort_code",
  "mx_clabe",
  "br_pix",
  "br_bank_account",
  "ca_eft",
  "au_bsb",
  "in_ifsc",
  "swift",
] as const;

export type BankScheme = (typeof BANK_SCHEMES)[number];

type DomesticScheme = "us_aba" | "gb_sort_code" | "br_bank_account" | "ca_eft" | "au_bsb" | "in_ifsc";

/** The routing values each scheme keeps. Account numbers, IBANs, CLABEs and Pix keys are sensitive: encrypt them. */
export type SchemeDetails =
  // routing_code and account_number appear beside a UK IBAN only when given and consistent with it.
  | { scheme: "iban"; iban: string; routing_code?: string; account_number?: string }
  | { scheme: DomesticScheme; routing_code: string; account_number: string }
  | { scheme: "mx_clabe"; clabe: string }
  | { scheme: "br_pix"; pix_key: string; pix_key_type: PixKeyType }
  | { scheme: "swift"; account_number: string; swift_bic: string; routing_code?: string };

interface CommonDetails {
  account_holder_name: string;
  country: string;
  currency: string;
  bank_name?: string;
  swift_bic?: string;
}

interface DerivedDetails {
  /** Safe to display: at most the last four characters of the identifier (fewer for short ones), or the masked Pix key. */
  last4: string;
  /** The scheme-qualified account identifier to feed a keyed hash; it contains the full account number. */
  fingerprint_input: string;
}

export type NormalizedBankDetails = CommonDetails & SchemeDetails & DerivedDetails;

export type BankDetailsResult = ValidationResult<NormalizedBankDetails, BankDetailsField, BankDetailsFailureCode>;

type TextFields = Partial<Record<BankDetailsField, string>>;

/** What every scheme check reads and writes: the trimmed fields, the valid codes, and the failure list. */
interface Context {
  readonly fields: TextFields;
  readonly country: string;
  /** Undefined when the currency was missing or invalid (already reported). */
  readonly currency: string | undefined;
  readonly failures: BankDetailsFailure[];
}

export function validateBankDetails(input: BankDetailsInput): BankDetailsResult {
  const fields = readFields(input);
  const failures: BankDetailsFailure[] = [];
  const holder = checkName(fields.account_holder_name, "account_holder_name", true, failures);
  const country = checkCountry(fields.country, failures);
  const currency = checkCurrency(fields.currency, failures);
  const ctx: Context = { fields, country: country ?? "", currency, failures };
  const scheme = country === undefined ? undefined : decideScheme(ctx);
  // With no usable country there is no scheme to apply; still judge the IBAN on its own so nothing is hidden.
  const details = scheme === undefined ? checkIbanAlone(ctx) : validateScheme(ctx, scheme);
  const bic = checkOptionalBic(ctx);
  // Given together, the IBAN and the BIC must name one bank: a rail sends both, and the bank would get a
  // payment whose two identifiers disagree.
  if (details?.scheme === "iban" && bic !== undefined) report(ctx, "swift_bic", checkBicAgainstIban(bic, details.iban));
  const bankName = checkName(fields.bank_name, "bank_name", false, failures);
  if (scheme !== undefined) reportForeignIdentifiers(ctx, scheme);
  // A scheme check returns undefined only after recording why, so `details` is set whenever nothing failed.
  if (failures.length > 0 || details === undefined || holder === undefined || currency === undefined) {
    return { ok: false, failures };
  }
  const common: CommonDetails = {
    account_holder_name: holder,
    country: ctx.country,
    currency,
    ...(bankName === undefined ? {} : { bank_name: bankName }),
    ...(bic === undefined ? {} : { swift_bic: bic }),
  };
  return {
    ok: true,
    value: { ...common, ...details, last4: displayIdentifier(details), fingerprint_input: fingerprintInput(details) },
  };
}

function readFields(input: BankDetailsInput): TextFields {
  const fields: TextFields = {};
  for (const name of BANK_DETAILS_FIELDS) {
    const value = readText(input[name]);
    if (value !== undefined) fields[name] = value;
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------------------
// Reporting helpers

function fail(ctx: Pick<Context, "failures">, field: BankDetailsField, code: BankDetailsFailureCode, message: string): void {
  ctx.failures.push({ field, code, message });
}

function report(ctx: Context, field: BankDetailsField, problems: readonly Problem<BankDetailsFailureCode>[]): boolean {
  for (const problem of problems) fail(ctx, field, problem.code, problem.message);
  return problems.length === 0;
}

/** The field's trimmed value, or a `required` failure explaining why this scheme needs it. */
function need(ctx: Context, field: BankDetailsField, why: string): string | undefined {
  const value = ctx.fields[field];
  if (value === undefined) fail(ctx, field, "required", why);
  return value;
}

/** Some schemes move one currency only (ACH: USD, SPEI: MXN, …); say so instead of failing later at the rail. */
function needCurrency(ctx: Context, expected: string, why: string): void {
  if (ctx.currency !== undefined && ctx.currency !== expected) fail(ctx, "currency", "currency_not_supported_for_country", why);
}

// ---------------------------------------------------------------------------------------------------------
// Fields every scheme shares

function checkName(
  value: string | undefined,
  field: "account_holder_name" | "bank_name",
  required: boolean,
  failures: BankDetailsFailure[],
): string | undefined {
  if (value === undefined) {
    if (required) failures.push({ field, code: "required", message: "The account holder's name is required." });
    return undefined;
  }
  const name = collapseSpaces(value);
  if (!isVisibleName(name)) {
    failures.push({ field, code: "blank", message: BLANK_NAME_MESSAGE });
    return undefined;
  }
  if (name.length <= MAX_NAME_LENGTH) return name;
  failures.push({ field, code: "too_long", message: `At most ${MAX_NAME_LENGTH} characters.` });
  return undefined;
}

function checkCountry(value: string | undefined, failures: BankDetailsFailure[]): string | undefined {
  if (value === undefined) {
    failures.push({ field: "country", code: "required", message: "The bank's country is required." });
    return undefined;
  }
  const country = value.toUpperCase();
  if (isCountryCode(country)) return country;
  failures.push({ field: "country", code: "invalid_country", message: `"${value}" is not an ISO 3166-1 alpha-2 country code.` });
  return undefined;
}

function checkCurrency(value: string | undefined, failures: BankDetailsFailure[]): string | undefined {
  if (value === undefined) {
    failures.push({ field: "currency", code: "required", message: "The account currency is required." });
    return undefined;
  }
  const currency = value.toUpperCase();
  if (isCurrencyCode(currency)) return currency;
  failures.push({
    field: "currency",
    code: "invalid_currency",
    message: `"${value}" is not the ISO 4217 code of a currency an account can hold.`,
  });
  return undefined;
}

/** The BIC is optional in most schemes but, when given, it must be right: a rail would use it. */
function checkOptionalBic(ctx: Context): string | undefined {
  const raw = ctx.fields.swift_bic;
  if (raw === undefined) return undefined;
  const bic = normalizeBic(raw);
  return report(ctx, "swift_bic", checkBic(bic)) ? bic : undefined;
}

function checkIbanAlone(ctx: Context): undefined {
  const raw = ctx.fields.iban;
  if (raw !== undefined) report(ctx, "iban", checkIban(normalizeIban(raw), undefined));
  return undefined;
}

/** IBANs, CLABEs and Pix keys each identify an account in one scheme only; a stray one means the row is confused. */
function reportForeignIdentifiers(ctx: Context, scheme: BankScheme): void {
  const owners = { iban: "iban", clabe: "mx_clabe", pix_key: "br_pix" } as const;
  for (const [field, owner] of Object.entries(owners) as [keyof typeof owners, BankScheme][]) {
    if (ctx.fields[field] !== undefined && scheme !== owner) {
      fail(ctx, field, "field_not_applicable", `${ctx.country} accounts paid by ${scheme} are not identified by ${field}.`);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Scheme choice and the per-scheme checks

/** The one currency each domestic scheme moves. */
const DOMESTIC_CURRENCY: Readonly<Record<DomesticScheme, string>> = {
  us_aba: "USD",
  gb_sort_code: "GBP",
  br_bank_account: "BRL",
  ca_eft: "CAD",
  au_bsb: "AUD",
  in_ifsc: "INR",
};

/**
 * Countries with a domestic scheme. `localOnly` ones fall back to SWIFT when paid in another currency (a
 * Canadian USD account is common); US and UK domestic details are refused in a foreign currency instead.
 */
const DOMESTIC_BY_COUNTRY: Readonly<Record<string, { scheme: DomesticScheme; localOnly: boolean }>> = {
  US: { scheme: "us_aba", localOnly: false },
  GB: { scheme: "gb_sort_code", localOnly: false },
  CA: { scheme: "ca_eft", localOnly: true },
  AU: { scheme: "au_bsb", localOnly: true },
  IN: { scheme: "in_ifsc", localOnly: true },
};

function decideScheme(ctx: Pick<Context, "fields" | "country" | "currency">): BankScheme {
  const { fields, country } = ctx;
  if (fields.iban !== undefined && ibanPrefixesFor(country).length > 0) return "iban";
  if (country === "MX") return "mx_clabe";
  if (country === "BR") {
    const branchAccount =
      fields.pix_key === undefined && (fields.routing_code !== undefined || fields.account_number !== undefined);
    return branchAccount ? "br_bank_account" : "br_pix";
  }
  const domestic = DOMESTIC_BY_COUNTRY[country];
  if (domestic !== undefined && !domestic.localOnly) return domestic.scheme;
  if (usesIban(country)) return "iban";
  if (domestic !== undefined && ctx.currency === DOMESTIC_CURRENCY[domestic.scheme]) return domestic.scheme;
  return "swift";
}

function validateScheme(ctx: Context, scheme: BankScheme): SchemeDetails | undefined {
  switch (scheme) {
    case "iban":
      return validateIbanAccount(ctx);
    case "mx_clabe":
      return validateClabeAccount(ctx);
    case "br_pix":
      return validatePixAccount(ctx);
    case "swift":
      return validateSwiftAccount(ctx);
    default:
      return validateDomesticAccount(ctx, scheme);
  }
}

function validateIbanAccount(ctx: Context): SchemeDetails | undefined {
  const raw = need(ctx, "iban", `Accounts in ${ctx.country} are identified by an IBAN.`);
  if (!isSepaCountry(ctx.country)) {
    need(ctx, "swift_bic", `Outside SEPA an IBAN payment travels over SWIFT, which needs the bank's BIC.`);
  }
  if (raw === undefined) return undefined;
  const iban = normalizeIban(raw);
  const ibanOk = report(ctx, "iban", checkIban(iban, ibanPrefixesFor(ctx.country)));
  const domestic = iban.startsWith("GB") ? checkUkDetailsAgainstIban(ctx, ibanOk ? iban : undefined) : {};
  return ibanOk ? { scheme: "iban", iban, ...domestic } : undefined;
}

/**
 * UK import files often carry the sort code and account number beside the IBAN. They are redundant (the
 * IBAN holds both, at positions 9-14 and 15-22), so they are kept only when they agree with it.
 */
function checkUkDetailsAgainstIban(ctx: Context, iban: string | undefined): { routing_code?: string; account_number?: string } {
  const kept: { routing_code?: string; account_number?: string } = {};
  const sortRaw = ctx.fields.routing_code;
  if (sortRaw !== undefined) {
    const sortCode = stripSeparators(sortRaw);
    if (report(ctx, "routing_code", checkSortCode(sortCode)) && agreesWithIban(ctx, "routing_code", iban, 8, sortCode)) {
      kept.routing_code = sortCode;
    }
  }
  const accountRaw = ctx.fields.account_number;
  if (accountRaw !== undefined) {
    const account = checkAccountNumber(accountRaw, "gb_sort_code");
    if (report(ctx, "account_number", account.problems) && account.value !== undefined) {
      if (agreesWithIban(ctx, "account_number", iban, 14, account.value)) kept.account_number = account.value;
    }
  }
  return kept;
}

function agreesWithIban(ctx: Context, field: BankDetailsField, iban: string | undefined, at: number, value: string): boolean {
  if (iban === undefined || iban.slice(at, at + value.length) === value) return true;
  // The message names no digits: failure details reach logs and CSV reports, account numbers must not.
  const what = field === "routing_code" ? "sort code" : "account number";
  fail(ctx, field, "conflicts_with_iban", `The ${what} differs from the one inside the IBAN.`);
  return false;
}

/**
 * CLABE: 18 digits (bank, city, account, check digit). clabe-validator also knows bank and city codes, but
 * its table trails Banxico's register, so an unknown bank is accepted when the check digit is right.
 */
function validateClabeAccount(ctx: Context): SchemeDetails | undefined {
  needCurrency(ctx, "MXN", "A CLABE receives SPEI transfers, which are always in MXN.");
  const raw = need(ctx, "clabe", "Mexican accounts are identified by their 18-digit CLABE.");
  if (raw === undefined) return undefined;
  const value = stripSeparators(raw);
  const check = clabe.validate(value);
  if (check.valid.format) return { scheme: "mx_clabe", clabe: value };
  if (check.error === "invalid-checksum") {
    fail(ctx, "clabe", "invalid_clabe_checksum", "The CLABE check digit does not match: a digit is probably mistyped.");
  } else {
    fail(ctx, "clabe", "invalid_clabe", "A CLABE has exactly 18 digits.");
  }
  return undefined;
}

function validatePixAccount(ctx: Context): SchemeDetails | undefined {
  needCurrency(ctx, "BRL", "Pix transfers are always in BRL.");
  const raw = need(ctx, "pix_key", "A Brazilian account needs a Pix key, or routing_code (branch) and account_number.");
  if (raw === undefined) return undefined;
  const check = checkPixKey(raw);
  if (check.ok) return { scheme: "br_pix", pix_key: check.key, pix_key_type: check.type };
  fail(ctx, "pix_key", "invalid_pix_key", check.message);
  return undefined;
}

/** Generic cross-border: the beneficiary bank's BIC routes the payment, the account number names the account. */
function validateSwiftAccount(ctx: Context): SchemeDetails | undefined {
  const account = checkRequiredAccountNumber(ctx, "swift");
  const bicRaw = need(ctx, "swift_bic", "Cross-border payments are routed by the bank's SWIFT BIC.");
  if (account === undefined || bicRaw === undefined) return undefined;
  const routing = ctx.fields.routing_code;
  return {
    scheme: "swift",
    account_number: account,
    swift_bic: normalizeBic(bicRaw),
    ...(routing === undefined ? {} : { routing_code: routing }),
  };
}

/** Routing-code rules of the domestic schemes: how to normalise the raw value and what is wrong with it. */
interface RoutingRule {
  /** Said when the currency is another one; CA, AU and IN never get here with a foreign currency (they use SWIFT). */
  currencyMessage: string;
  name: string;
  check: (raw: string) => { value: string; problems: Problem<BankDetailsFailureCode>[] };
}

const ROUTING_RULES: Readonly<Record<DomesticScheme, RoutingRule>> = {
  us_aba: {
    currencyMessage: "US accounts are paid in USD over ACH or Fedwire.",
    name: "ABA routing number",
    check: (raw) => withProblems(stripSeparators(raw), checkAbaRoutingNumber),
  },
  gb_sort_code: {
    currencyMessage: "A sort code and account number take GBP; pay another currency to the account's IBAN.",
    name: "sort code",
    check: (raw) => withProblems(stripSeparators(raw), checkSortCode),
  },
  br_bank_account: {
    currencyMessage: "Brazilian domestic transfers are always in BRL.",
    name: "branch code",
    check: (raw) => withProblems(stripSeparators(raw), checkBrazilianBranch),
  },
  au_bsb: {
    currencyMessage: "BSB payments are in AUD.",
    name: "BSB",
    check: (raw) => withProblems(stripSeparators(raw), checkBsb),
  },
  in_ifsc: {
    currencyMessage: "IFSC payments are in INR.",
    name: "IFSC",
    check: (raw) => withProblems(raw.replace(/\s/g, "").toUpperCase(), checkIfsc),
  },
  ca_eft: {
    currencyMessage: "Canadian EFT payments are in CAD.",
    name: "transit and institution number",
    check: checkCanadianRouting,
  },
};

function withProblems(value: string, check: (value: string) => Problem<BankDetailsFailureCode>[]) {
  return { value, problems: check(value) };
}

function checkCanadianRouting(raw: string): { value: string; problems: Problem<BankDetailsFailureCode>[] } {
  const value = normalizeCanadianRouting(raw);
  if (value !== undefined) return { value, problems: [] };
  const message = "A Canadian routing number is the transit and institution numbers: 12345-678, or 0678 12345 in EFT form.";
  return { value: raw, problems: [{ code: "invalid_routing_code", message }] };
}

function validateDomesticAccount(ctx: Context, scheme: DomesticScheme): SchemeDetails | undefined {
  const rule = ROUTING_RULES[scheme];
  needCurrency(ctx, DOMESTIC_CURRENCY[scheme], rule.currencyMessage);
  const routingRaw = need(ctx, "routing_code", `A ${ctx.country} account needs its ${rule.name}.`);
  const routing = routingRaw === undefined ? undefined : rule.check(routingRaw);
  const routingOk = routing !== undefined && report(ctx, "routing_code", routing.problems);
  const account = checkRequiredAccountNumber(ctx, scheme);
  if (!routingOk || routing === undefined || account === undefined) return undefined;
  return { scheme, routing_code: routing.value, account_number: account };
}

function checkRequiredAccountNumber(ctx: Context, scheme: AccountNumberScheme): string | undefined {
  const raw = need(ctx, "account_number", "The account number is required for this scheme.");
  if (raw === undefined) return undefined;
  const account = checkAccountNumber(raw, scheme);
  report(ctx, "account_number", account.problems);
  return account.value;
}

// ---------------------------------------------------------------------------------------------------------
// Derived values

function displayIdentifier(details: SchemeDetails): string {
  switch (details.scheme) {
    case "iban":
      return maskIdentifier(details.iban);
    case "mx_clabe":
      return maskIdentifier(details.clabe);
    case "br_pix":
      return maskPixKey(details.pix_key, details.pix_key_type);
    default:
      return maskIdentifier(details.account_number);
  }
}

/** One account, one input: the spelling variants (spaces, BIC with "XXX") are already normalised away. */
function fingerprintInput(details: SchemeDetails): string {
  switch (details.scheme) {
    case "iban":
      return `iban:${details.iban}`;
    case "mx_clabe":
      return `mx_clabe:${details.clabe}`;
    case "br_pix":
      return `br_pix:${details.pix_key}`;
    case "swift":
      return `swift:${canonicalBic(details.swift_bic)}:${details.account_number}`;
    default:
      return `${details.scheme}:${details.routing_code}:${details.account_number}`;
  }
}

// ---------------------------------------------------------------------------------------------------------
// What a form should ask for

/** One field a form asks for; `required` false means optional, or one of the alternatives `note` explains. */
export interface BankFormField {
  readonly field: BankDetailsField;
  readonly required: boolean;
  /** How the country calls it (a US "ABA routing number", a UK "sort code"); only for routing_code. */
  readonly name?: string;
  /** The shape it has, in words ("8 digits"); for account_number. */
  readonly shape?: string;
}

export interface BankForm {
  readonly scheme: BankScheme;
  /** The identifier fields, in form order (account_holder_name, country and currency are always asked). */
  readonly fields: readonly BankFormField[];
  /** Said when the fields are alternatives (a Brazilian Pix key, or branch and account number). */
  readonly note?: string;
}

/**
 * The fields a new account held in `country` and paid in `currency` needs, from the same scheme choice and
 * per-scheme rules `validateBankDetails` applies, so a form never asks for what the validator ignores or
 * refuses (a CLABE beside an IBAN) and never omits what it requires. Inputs are ISO codes, already checked.
 */
export function bankFormFor(country: string, currency: string): BankForm {
  let scheme = decideScheme({ fields: {}, country, currency });
  const domestic = DOMESTIC_BY_COUNTRY[country];
  // A UK account in euro is paid to its IBAN (what decideScheme picks once an IBAN is given).
  if (
    domestic !== undefined &&
    scheme === domestic.scheme &&
    currency !== DOMESTIC_CURRENCY[domestic.scheme] &&
    ibanPrefixesFor(country).length > 0
  ) {
    scheme = "iban";
  }
  switch (scheme) {
    case "iban":
      return {
        scheme,
        fields: [
          { field: "iban", required: true },
          { field: "swift_bic", required: !isSepaCountry(country) },
        ],
      };
    case "mx_clabe":
      return { scheme, fields: [{ field: "clabe", required: true }] };
    case "br_pix":
    case "br_bank_account":
      return {
        scheme: "br_pix",
        fields: [
          { field: "pix_key", required: false },
          { field: "routing_code", required: false, name: ROUTING_RULES.br_bank_account.name },
          { field: "account_number", required: false, shape: ACCOUNT_NUMBER_RULES.br_bank_account.describe },
        ],
        note: "Give a Pix key, or the branch code and account number.",
      };
    case "swift":
      return {
        scheme,
        fields: [
          { field: "account_number", required: true, shape: ACCOUNT_NUMBER_RULES.swift.describe },
          { field: "swift_bic", required: true },
          { field: "routing_code", required: false, name: "local bank code" },
        ],
      };
    default:
      return {
        scheme,
        fields: [
          { field: "routing_code", required: true, name: ROUTING_RULES[scheme].name },
          { field: "account_number", required: true, shape: ACCOUNT_NUMBER_RULES[scheme].describe },
        ],
      };
  }
}
