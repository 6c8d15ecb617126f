// Human words for the API's enum values where people read them (e-mails): a role, a country, a currency, an
// environment. Names come from the runtime's CLDR data, as the dashboard's Intl.DisplayNames do. The API keeps
// its values; the dashboard has its own dictionary (dashboard/src/lib/labels.ts), which says the same things.
import type { Role } from "../auth/actor.js";
import type { Environment } from "../auth/api-key-format.js";

const ROLE_WORDS: Readonly<Record<Role, string>> = {
  business_admin: "Admin (reads and writes, manages the team and the settings)",
  business_approver: "Approver (reads and decides payouts)",
  business_read_only: "Read only (reads, changes nothing)",
};

/** The role as the dashboard names it, with what it may do. */
export function roleWords(role: Role): string {
  return ROLE_WORDS[role];
}

/** An ISO code's English name from the runtime's CLDR data ("Germany" for DE, "Euro" for EUR); the code itself when unknown. */
function displayName(type: "region" | "currency", code: string): string {
  try {
    const name = new Intl.DisplayNames(["en"], { type, fallback: "none" }).of(code);
    return name === undefined || name === code ? code : name;
  } catch {
    return code;
  }
}

/** "Germany" for DE. */
export function countryWords(alpha2: string): string {
  return displayName("region", alpha2);
}

/** "Euro" for EUR, "US Dollar" for USD. */
export function currencyWords(code: string): string {
  return displayName("currency", code);
}

/** "in the sandbox" or "in production". */
export function environmentWords(environment: Environment): string {
  return environment === "sandbox" ? "in the sandbox" : "in production";
}
