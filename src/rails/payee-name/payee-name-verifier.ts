// The payee name check's port (issue 29): before money goes to an account, ask whether the name the account is
// held in is the payee's. The EU's Verification of Payee (mandatory for euro credit transfers since October
// 2025) answers with the same four outcomes, so a VoP provider plugs in behind this interface; the local
// comparator and the simulators answer without any network. Callers never call `verify` inside a database
// transaction: a provider answers over the network (the destinations module calls it from a job, after commit).
import type { Environment } from "../../platform/auth/api-key-format.js";

export const NAME_CHECK_RESULTS = ["match", "close_match", "no_match", "not_possible"] as const;
export type NameCheckResult = (typeof NAME_CHECK_RESULTS)[number];

/** What a check is asked about: the name the payer gives for the account, the payee it should belong to, the account. */
export interface PayeeNameRequest {
  /** The name the account is declared to be held in (the destination's `account_holder_name`). */
  readonly accountHolderName: string;
  /** The payee's legal name (the Beneficiary's `name`). */
  readonly payeeName: string;
  readonly payeeType: "person" | "business";
  /** The account, as far as a check may see it: country, scheme and the masked last four (never the number). */
  readonly country: string;
  readonly scheme: string;
  readonly last4: string;
  /**
   * The decrypted account identifiers (IBAN, account number, routing code) for a provider that must name the
   * account to its bank; the local comparator and the simulators ignore them. Never logged or stored.
   */
  readonly account: Readonly<Record<string, string>>;
}

export interface PayeeNameVerification {
  readonly result: NameCheckResult;
  /** The name the bank holds, given with a close match (so the payer can correct it); null otherwise. */
  readonly bankName: string | null;
  /** Who answered: `local`, `simulator`, or the provider's name. */
  readonly source: string;
}

export interface PayeeNameVerifier {
  /** Answers one check. May call the network: never inside a transaction. Throws when the provider cannot be reached (retried by the job). */
  verify(request: PayeeNameRequest): Promise<PayeeNameVerification>;
}

/** The verifier per environment (sandbox keys always meet the simulator). */
export type PayeeNameVerifiers = (environment: Environment) => PayeeNameVerifier;
