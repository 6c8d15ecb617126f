// The local payee name verifier: the comparator of name-comparator.ts, no bank asked. It compares the name the
// account is declared to be held in with the payee's legal name; a close match names the account holder name as
// "the name the bank holds", the nearest thing to it the service has.
import { compareNames } from "./name-comparator.js";
import type { PayeeNameRequest, PayeeNameVerification, PayeeNameVerifier } from "./payee-name-verifier.js";

export function localVerification(request: PayeeNameRequest, source: string): PayeeNameVerification {
  const { result } = compareNames(request.accountHolderName, request.payeeName);
  return { result, bankName: result === "close_match" ? request.accountHolderName : null, source };
}

export function createLocalPayeeNameVerifier(): PayeeNameVerifier {
  return { verify: async (request) => localVerification(request, "local") };
}
