// The payee name check of the sandbox and of the production simulator: answers by magic values, so every
// answer can be tried end to end (documented in src/rails/README.md, "Payee name check", beside the payout
// scenarios). It moves nothing and calls nobody.
import { localVerification } from "./local-verifier.js";
import type { NameCheckResult, PayeeNameRequest, PayeeNameVerification, PayeeNameVerifier } from "./payee-name-verifier.js";

export interface SimulatorNameCheckTrigger {
  /** The destination's last four characters (its `last4`). */
  readonly last4: string;
  readonly result: NameCheckResult;
  readonly description: string;
}

/** The magic last fours, checked before the names are compared. The README's table lists the same rows. */
export const SIMULATOR_NAME_CHECKS: readonly SimulatorNameCheckTrigger[] = [
  { last4: "0921", result: "no_match", description: "The bank holds the account in another name." },
  {
    last4: "0922",
    result: "close_match",
    description:
      'The bank holds a close variant: the payee\'s legal name in capitals with its first word reduced to an initial ("J. DOE").',
  },
  { last4: "0923", result: "not_possible", description: "The payee's bank does not answer name checks." },
];

/** The close variant the simulated bank holds: "Jane Doe" -> "J. DOE"; a one-word name in capitals. */
export function simulatedBankName(payeeName: string): string {
  const words = payeeName.trim().split(/\s+/u);
  const [first, ...rest] = words;
  if (first === undefined || rest.length === 0) return payeeName.trim().toUpperCase();
  return `${first.slice(0, 1).toUpperCase()}. ${rest.join(" ").toUpperCase()}`;
}

export function simulatedVerification(request: PayeeNameRequest): PayeeNameVerification {
  const trigger = SIMULATOR_NAME_CHECKS.find((t) => request.last4.endsWith(t.last4));
  if (trigger === undefined) return localVerification(request, "simulator");
  return {
    result: trigger.result,
    bankName: trigger.result === "close_match" ? simulatedBankName(request.payeeName) : null,
    source: "simulator",
  };
}

export function createSimulatorPayeeNameVerifier(): PayeeNameVerifier {
  return { verify: async (request) => simulatedVerification(request) };
}
