// Domestic bank routing rules that no maintained npm library covers: the shapes of routing codes and
// account numbers per country, and the ABA check digit. Each check returns the problems it found so the
// caller can report all of them. Inputs are the trimmed raw values; normalisation happens here because
// what may be stripped (spaces, dashes) depends on the scheme.
import type { Problem } from "./failures.js";

export type RoutingProblemCode = "invalid_routing_code" | "invalid_aba_checksum" | "invalid_sort_code";

/** Spaces and dashes are presentation only in digit-only numbers ("12-34-56", "0123 4567"). */
export function stripSeparators(value: string): string {
  return value.replace(/[\s-]/g, "");
}

/**
 * US ABA routing number: 9 digits; the first two name a Federal Reserve district (01-12), a thrift
 * (21-32) or an electronic-only number (61-72); the weights 3, 7, 1 repeated make the sum a multiple of 10.
 * 00 (US government) and 80 (traveller's cheques) are never a payee's bank, and "000000000" would pass the
 * arithmetic, so the prefix is a check of its own.
 */
export function checkAbaRoutingNumber(routing: string): Problem<RoutingProblemCode>[] {
  if (!/^\d{9}$/.test(routing)) return [{ code: "invalid_routing_code", message: "An ABA routing number has 9 digits." }];
  const problems: Problem<RoutingProblemCode>[] = [];
  if (!isAssignedAbaPrefix(routing)) {
    problems.push({ code: "invalid_routing_code", message: `No bank routing number starts with ${routing.slice(0, 2)}.` });
  }
  if (!hasValidAbaCheckDigit(routing)) {
    problems.push({
      code: "invalid_aba_checksum",
      message: "The routing number check digit does not match: a digit is probably mistyped.",
    });
  }
  return problems;
}

function isAssignedAbaPrefix(routing: string): boolean {
  const prefix = Number(routing.slice(0, 2));
  return (prefix >= 1 && prefix <= 12) || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72);
}

/** 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function hasValidAbaCheckDigit(routing: string): boolean {
  const weights = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < routing.length; i++) sum += Number(routing[i]) * (weights[i % 3] ?? 0);
  return sum % 10 === 0;
}

/**
 * UK sort code: 6 digits. Vocalink's modulus-check tables would also validate the account number against
 * the sort code, but they change several times a year and no maintained package ships them, so only the
 * shapes are checked here and the rail's confirmation of payee does the rest.
 */
export function checkSortCode(sortCode: string): Problem<RoutingProblemCode>[] {
  return /^\d{6}$/.test(sortCode) ? [] : [{ code: "invalid_sort_code", message: "A sort code has 6 digits, such as 12-34-56." }];
}

/**
 * Canadian routing: transit (5 digits) and institution (3 digits), written "12345-678" on cheques (MICR)
 * or "0678 12345" in electronic funds transfers. Returned in the EFT form so one account has one spelling.
 */
export function normalizeCanadianRouting(raw: string): string | undefined {
  const compact = raw.replace(/\s/g, "");
  const micr = /^(\d{5})-?(\d{3})$/.exec(compact);
  if (micr) return `0${micr[2]}${micr[1]}`;
  return /^0\d{8}$/.test(compact) ? compact : undefined;
}

/** Australian BSB: 6 digits, usually written "123-456". */
export function checkBsb(bsb: string): Problem<RoutingProblemCode>[] {
  return /^\d{6}$/.test(bsb) ? [] : [{ code: "invalid_routing_code", message: "A BSB has 6 digits, such as 062-000." }];
}

/** Indian IFSC: 4 letters (bank), a zero (reserved), 6 letters or digits (branch). */
export function checkIfsc(ifsc: string): Problem<RoutingProblemCode>[] {
  return /^[A-Z]{4}0[A-Z0-9]{6}$/.test(ifsc)
    ? []
    : [{ code: "invalid_routing_code", message: "An IFSC has 11 characters: 4 letters, a zero, then 6 letters or digits." }];
}

/** Brazilian branch (agência): 4 digits, sometimes followed by its check digit. */
export function checkBrazilianBranch(branch: string): Problem<RoutingProblemCode>[] {
  return /^\d{4,5}$/.test(branch)
    ? []
    : [{ code: "invalid_routing_code", message: "A Brazilian branch code has 4 digits, optionally with its check digit." }];
}

/** Account-number shapes by scheme, after separators are stripped where the scheme allows it. */
export const ACCOUNT_NUMBER_RULES = {
  us_aba: { pattern: /^\d{4,17}$/, strip: true, describe: "4 to 17 digits" },
  gb_sort_code: { pattern: /^\d{8}$/, strip: true, describe: "8 digits" },
  ca_eft: { pattern: /^\d{7,12}$/, strip: true, describe: "7 to 12 digits" },
  au_bsb: { pattern: /^\d{5,9}$/, strip: true, describe: "5 to 9 digits" },
  in_ifsc: { pattern: /^\d{9,18}$/, strip: true, describe: "9 to 18 digits" },
  // The last character is the account check digit, which some banks write as X.
  br_bank_account: { pattern: /^\d{1,12}[\dX]$/, strip: true, describe: "up to 13 digits, the last one possibly X" },
  // Cross-border account numbers are free-form (SWIFT allows 34 characters); dashes can be meaningful there.
  swift: { pattern: /^(?=.*\d)[A-Z0-9-]{1,34}$/, strip: false, describe: "up to 34 letters, digits or dashes" },
} as const satisfies Record<string, { pattern: RegExp; strip: boolean; describe: string }>;

export type AccountNumberScheme = keyof typeof ACCOUNT_NUMBER_RULES;

/** Normalises and checks an account number for a scheme; `value` is undefined when the shape is wrong. */
export function checkAccountNumber(
  raw: string,
  scheme: AccountNumberScheme,
): { value: string | undefined; problems: Problem<"invalid_account_number">[] } {
  const rule = ACCOUNT_NUMBER_RULES[scheme];
  const compact = raw.replace(/\s/g, "").toUpperCase();
  const value = rule.strip ? stripSeparators(compact) : compact;
  if (rule.pattern.test(value)) return { value, problems: [] };
  return {
    value: undefined,
    problems: [{ code: "invalid_account_number", message: `The account number must be ${rule.describe}.` }],
  };
}
