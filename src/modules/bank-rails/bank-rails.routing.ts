// The routing rule of production payouts, one pure function:
//   EUR to an IBAN in the SEPA zone            -> sepa, when the Business configured it
//   USD to a US bank account (ABA routing)     -> ach, when the Business configured it
//   anything else, Business with no bank rail  -> the production simulator (as before any rail existed)
//   anything else, Business with a bank rail   -> refused at creation: NO_RAIL_FOR_DESTINATION
// Sandbox payouts never reach this rule: they always use the sandbox rail.
//
// And what the rail's file must be able to carry (fileRefusal): the payee's name in its character set and
// length, the address SEPA sends structured, the BIC SEPA needs outside the EEA, the amount and the reference
// within their fields. Checked when a payout is created (and when an account or a collection submission is
// made for a Business whose bank rail would carry it), so the file never cuts or drops what was accepted.

import { AppError, type ErrorDetail } from "../../platform/errors.js";
import { isSepaRepresentable, toNachaText } from "../../rails/bank-files/charset.js";
import {
  ACH_MAX_AMOUNT_MINOR,
  achTextProblems,
  SEPA_MAX_AMOUNT_MINOR,
  type SepaFileVersion,
  sepaNeedsCreditorBic,
  sepaTextProblems,
  type TextLimitProblem,
} from "../../rails/bank-files/limits.js";
import type { PostalAddressValue } from "../beneficiaries/index.js";
import { BANK_RAIL_ERRORS } from "./bank-rails.errors.js";
import type { BankRailName } from "./bank-rails.schemas.js";

export interface DestinationFacts {
  readonly kind: "bank_account" | "card";
  /** The validation scheme that accepted the destination (`iban`, `us_aba`, …). */
  readonly scheme: string;
  readonly country: string;
  /** The IBAN's country is in the SEPA scheme's geographic scope. */
  readonly sepaZone: boolean;
}

/**
 * A payout no configured rail carries. The one representation of that refusal: payout creation and collection
 * answer it as an AppError (refusalError), the disbursement records it as a failure reason (refusalFailureReason).
 */
export interface RouteRefusal {
  readonly refused: true;
  readonly code: "NO_RAIL_FOR_DESTINATION";
  readonly reason: string;
}

export type RailRoute = { readonly rail: BankRailName | "simulator" } | RouteRefusal;

/** The routing rule (see the top of this file): facts in, the rail or the refusal out. */
export function routePayout(currency: string, destination: DestinationFacts, configured: ReadonlySet<BankRailName>): RailRoute {
  const fitsSepa =
    currency === "EUR" && destination.kind === "bank_account" && destination.scheme === "iban" && destination.sepaZone;
  const fitsAch =
    currency === "USD" && destination.kind === "bank_account" && destination.scheme === "us_aba" && destination.country === "US";
  if (fitsSepa && configured.has("sepa")) return { rail: "sepa" };
  if (fitsAch && configured.has("ach")) return { rail: "ach" };
  if (configured.size === 0) return { rail: "simulator" };
  const rails = [...configured].sort().join(" and ");
  return {
    refused: true,
    code: "NO_RAIL_FOR_DESTINATION",
    reason: `This Business pays production payouts through its bank (${rails}); a ${currency} payout to this destination fits none of them. SEPA takes EUR to an IBAN in the SEPA zone, ACH takes USD to a US bank account.`,
  };
}

/** The refusal as the API answers it (422 at payout creation and collection submission). */
export function refusalError(refusal: RouteRefusal): AppError {
  return new AppError(BANK_RAIL_ERRORS[refusal.code], { message: refusal.reason });
}

/** The refusal as a failed payout records it (`failure_reason`: the code, then the explanation). */
export function refusalFailureReason(refusal: RouteRefusal): string {
  return `${refusal.code}: ${refusal.reason}`;
}

/** What a bank file needs to know of the account it pays. */
export interface FileAccountFacts extends DestinationFacts {
  readonly accountHolderName: string;
  readonly swiftBic: string | null;
  /** False when the BIC is of a bank in another country than the IBAN (accounts registered before the check). */
  readonly bicMatchesIban: boolean;
}

export interface FileCheck {
  readonly account: FileAccountFacts;
  /** The Beneficiary's postal address (SEPA); `undefined`: not checked (no reader wired in, or an account alone). */
  readonly address?: PostalAddressValue | null | undefined;
  /** The payout's amount and reference; absent when an account or a submission is checked. */
  readonly payout?: { readonly amountMinor: number; readonly externalRef: string | null } | undefined;
  /** The SEPA rail's file format (pain.001.001.03 has no building name: line2 shares the street's field). */
  readonly sepaFormat?: SepaFileVersion | undefined;
  /** Prefix of the account's fields in `details`: `bank_account.` for a payout, none for the account itself. */
  readonly accountField?: string;
}

function tooLongDetails(problems: readonly TextLimitProblem[], format: string, accountField: string): ErrorDetail[] {
  return problems.map((p) => {
    const field = p.field === "account_holder_name" ? `${accountField}account_holder_name` : p.field;
    return {
      field,
      code: "too_long",
      message: `At most ${p.limit} characters in a ${format} file (${p.element}), counted after transliteration; this one has ${p.length}.`,
    };
  });
}

function tooLongError(
  code: (typeof BANK_RAIL_ERRORS)["SEPA_FIELD_TOO_LONG" | "ACH_FIELD_TOO_LONG"],
  problems: readonly TextLimitProblem[],
  format: string,
  accountField: string,
): AppError {
  const details = tooLongDetails(problems, format, accountField);
  const named = problems.map((p, i) => `${details[i]?.field} (at most ${p.limit}, ${p.length} given)`).join(", ");
  return new AppError(code, {
    message: `The ${format} file cannot carry ${named} once transliterated; nothing is cut: shorten it and try again.`,
    details,
  });
}

function amountError(
  code: (typeof BANK_RAIL_ERRORS)["SEPA_AMOUNT_OUT_OF_RANGE" | "ACH_AMOUNT_OUT_OF_RANGE"],
  max: number,
  words: string,
): AppError {
  return new AppError(code, {
    details: [{ field: "amount_minor", code: "out_of_range", message: `At most ${max} (${words}) in one payout on this rail.` }],
  });
}

/** What a SEPA file needs of the payee and the payout: the first refusal, or null. */
function sepaRefusal(check: FileCheck): AppError | null {
  const { account, address, payout } = check;
  const accountField = check.accountField ?? "";
  if (account.swiftBic === null && sepaNeedsCreditorBic(account.country)) {
    return new AppError(BANK_RAIL_ERRORS.SEPA_BIC_REQUIRED, {
      message: `SEPA transfers to accounts in ${account.country} (a SEPA country outside the EEA) must name the beneficiary bank's BIC, and this account has none. Register the account with its swift_bic.`,
      details: [
        { field: `${accountField}swift_bic`, code: "required", message: `Needed for SEPA transfers to ${account.country}.` },
      ],
    });
  }
  if (!account.bicMatchesIban) {
    return new AppError(BANK_RAIL_ERRORS.SEPA_BIC_MISMATCH, {
      details: [
        {
          field: `${accountField}swift_bic`,
          code: "bic_country_mismatch",
          message: "The BIC is of a bank in another country than the IBAN.",
        },
      ],
    });
  }
  if (!isSepaRepresentable(account.accountHolderName)) return new AppError(BANK_RAIL_ERRORS.SEPA_NAME_NOT_REPRESENTABLE);
  if (address !== undefined) {
    const missing: string[] = [];
    if (!address || !isSepaRepresentable(address.city ?? "")) missing.push("postal_address.city");
    if (!address || !/^[A-Z]{2}$/.test(address.country ?? "")) missing.push("postal_address.country");
    if (missing.length > 0) {
      return new AppError(BANK_RAIL_ERRORS.SEPA_ADDRESS_NOT_STRUCTURED, {
        message: `SEPA payments need the Beneficiary's address structured; missing: ${missing.join(", ")}. Complete the Beneficiary (PUT /v1/beneficiaries/{id}, or a collection link) and create the payout again.`,
        details: missing.map((field) => ({
          field,
          code: "required",
          message: `${field} is needed to pay this Beneficiary by SEPA.`,
        })),
      });
    }
  }
  if (payout !== undefined && payout.amountMinor > SEPA_MAX_AMOUNT_MINOR) {
    return amountError(BANK_RAIL_ERRORS.SEPA_AMOUNT_OUT_OF_RANGE, SEPA_MAX_AMOUNT_MINOR, "999,999,999.99 EUR");
  }
  const format = check.sepaFormat ?? "pain.001.001.09";
  const tooLong = sepaTextProblems(
    { name: account.accountHolderName, remittance: payout?.externalRef ?? null, address: address ?? null },
    format,
  );
  return tooLong.length > 0 ? tooLongError(BANK_RAIL_ERRORS.SEPA_FIELD_TOO_LONG, tooLong, format, accountField) : null;
}

/** What a NACHA file needs of the payee and the payout: the first refusal, or null. */
function achRefusal(check: FileCheck): AppError | null {
  const { account, payout } = check;
  if (!/[A-Z0-9]/.test(toNachaText(account.accountHolderName, 1000)))
    return new AppError(BANK_RAIL_ERRORS.ACH_NAME_NOT_REPRESENTABLE);
  if (payout !== undefined && payout.amountMinor > ACH_MAX_AMOUNT_MINOR) {
    return amountError(BANK_RAIL_ERRORS.ACH_AMOUNT_OUT_OF_RANGE, ACH_MAX_AMOUNT_MINOR, "99,999,999.99 USD");
  }
  // The reference is not carried in a NACHA file (no addenda record): nothing of it can be cut.
  const tooLong = achTextProblems({ name: account.accountHolderName });
  return tooLong.length > 0
    ? tooLongError(BANK_RAIL_ERRORS.ACH_FIELD_TOO_LONG, tooLong, "NACHA", check.accountField ?? "")
    : null;
}

/** The refusal of what `rail`'s file cannot carry (field, limit, after transliteration), or null. */
export function fileRefusal(rail: BankRailName, check: FileCheck): AppError | null {
  return rail === "sepa" ? sepaRefusal(check) : achRefusal(check);
}
