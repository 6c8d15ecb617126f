// Which payee name verifier answers for an environment: sandbox keys always meet the simulator's magic values;
// production uses the configured one (NAME_CHECK_VERIFIER: `local`, the comparator, by default; `simulator`
// to try the magic values in production). A Verification of Payee provider is added here as a third choice.
import { createLocalPayeeNameVerifier } from "./local-verifier.js";
import type { PayeeNameVerifier, PayeeNameVerifiers } from "./payee-name-verifier.js";
import { createSimulatorPayeeNameVerifier } from "./simulator-verifier.js";

export const NAME_CHECK_VERIFIERS = ["local", "simulator"] as const;
export type NameCheckVerifierName = (typeof NAME_CHECK_VERIFIERS)[number];

export function createPayeeNameVerifiers(production: NameCheckVerifierName): PayeeNameVerifiers {
  const simulator = createSimulatorPayeeNameVerifier();
  const productionVerifier: PayeeNameVerifier = production === "simulator" ? simulator : createLocalPayeeNameVerifier();
  return (environment) => (environment === "sandbox" ? simulator : productionVerifier);
}
