// The environment a person looks at (sandbox or production), remembered in localStorage (not a secret) so a
// reload shows the same one. Read by the session (lib/session.tsx) and, before React starts, by the entry's
// early requests, which must ask for the same environment the page will.
import type { Environment } from "../api/client";

const ENVIRONMENT_KEY = "dashboard.environment";

export function storedEnvironment(): Environment {
  try {
    return window.localStorage.getItem(ENVIRONMENT_KEY) === "production" ? "production" : "sandbox";
  } catch {
    return "sandbox";
  }
}

export function storeEnvironment(value: Environment): void {
  try {
    window.localStorage.setItem(ENVIRONMENT_KEY, value);
  } catch {
    // Private mode: the choice lasts until the page is reloaded.
  }
}
