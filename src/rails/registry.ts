// Which rail serves which environment. Sandbox keys always use the sandbox rail; production uses the rail
// the operator configured (until a real rail exists, the production simulator).
import type { Environment } from "../platform/auth/api-key-format.js";
import type { PayoutRail, RailRegistry } from "./rail.js";

export function createRailRegistry(rails: { readonly sandbox: PayoutRail; readonly production: PayoutRail }): RailRegistry {
  return {
    forEnvironment: (environment: Environment) => (environment === "sandbox" ? rails.sandbox : rails.production),
  };
}
