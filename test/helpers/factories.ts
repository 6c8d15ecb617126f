// Factories that build data through the public API, as a Business would.
import type { AppInstance } from "../../src/platform/http/types.js";
import { takeRegistrationToken } from "./mail-queue.js";
import { testAppOf } from "./test-app.js";

let counter = 0;
function unique(): string {
  counter += 1;
  return `${process.pid}-${Date.now().toString(36)}-${counter}`;
}

export interface RegisteredBusiness {
  readonly businessId: string;
  readonly userId: string;
  readonly membershipId: string;
  readonly email: string;
  readonly keys: { readonly sandbox: string; readonly production: string };
  readonly keyIds: { readonly sandbox: string; readonly production: string };
}

interface IssuedKey {
  id: string;
  environment: "sandbox" | "production";
  key: string;
}

/**
 * Registers a Business as a person would: POST /v1/registration, the token from the e-mail it queued, then
 * POST /v1/registration/verification. `email` defaults to a fresh address.
 */
export async function registerBusiness(
  app: AppInstance,
  name = "Acme Payouts",
  email = `admin-${unique()}@example.com`,
): Promise<RegisteredBusiness> {
  const started = await app.inject({
    method: "POST",
    url: "/v1/registration",
    payload: { business_name: name, email, password: "correct horse battery staple" },
  });
  if (started.statusCode !== 202) throw new Error(`registration failed: ${started.statusCode} ${started.body}`);
  const token = await takeRegistrationToken(testAppOf(app), email.trim().toLowerCase());
  const response = await app.inject({ method: "POST", url: "/v1/registration/verification", payload: { token } });
  if (response.statusCode !== 201) throw new Error(`verification failed: ${response.statusCode} ${response.body}`);
  const body = response.json() as {
    business: { id: string };
    user: { id: string };
    membership: { id: string };
    api_keys: IssuedKey[];
  };
  const byEnv = (env: "sandbox" | "production") => {
    const key = body.api_keys.find((k) => k.environment === env);
    if (key === undefined) throw new Error(`no ${env} key issued`);
    return key;
  };
  return {
    businessId: body.business.id,
    userId: body.user.id,
    membershipId: body.membership.id,
    email,
    keys: { sandbox: byEnv("sandbox").key, production: byEnv("production").key },
    keyIds: { sandbox: byEnv("sandbox").id, production: byEnv("production").id },
  };
}

/** Creates another key in the environment of `adminKey`. */
export async function createApiKey(
  app: AppInstance,
  adminKey: string,
  role: "business_admin" | "business_read_only",
  label?: string,
): Promise<{ id: string; key: string }> {
  const response = await app.inject({
    method: "POST",
    url: "/v1/api-keys",
    headers: { authorization: `Bearer ${adminKey}` },
    payload: { role, ...(label ? { label } : {}) },
  });
  if (response.statusCode !== 201) throw new Error(`key creation failed: ${response.statusCode} ${response.body}`);
  return response.json() as { id: string; key: string };
}

export function bearer(key: string): { authorization: string } {
  return { authorization: `Bearer ${key}` };
}

/** Creates a Beneficiary through the API (a person stub named Jane Doe unless `fields` say otherwise). */
export async function createBeneficiary(
  app: AppInstance,
  key: string,
  fields: Readonly<Record<string, unknown>> = {},
): Promise<{ id: string; email: string } & Record<string, unknown>> {
  const response = await app.inject({
    method: "POST",
    url: "/v1/beneficiaries",
    headers: bearer(key),
    payload: { beneficiary_type: "person", email: `payee-${unique()}@example.com`, name: "Jane Doe", ...fields },
  });
  if (response.statusCode !== 201) throw new Error(`beneficiary creation failed: ${response.statusCode} ${response.body}`);
  return response.json() as { id: string; email: string } & Record<string, unknown>;
}

/** A valid German IBAN account (a published example IBAN): validated and payout-usable once registered. */
export const GERMAN_IBAN_ACCOUNT = {
  account_holder_name: "Jane Doe",
  country: "DE",
  currency: "EUR",
  iban: "DE89370400440532013000",
} as const;

/** Registers a bank account (201, or 200 when it was already registered) and returns the masked destination. */
export async function registerBankAccount(
  app: AppInstance,
  key: string,
  beneficiaryId: string,
  account: Readonly<Record<string, unknown>> = GERMAN_IBAN_ACCOUNT,
): Promise<{ id: string } & Record<string, unknown>> {
  const response = await app.inject({
    method: "POST",
    url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts`,
    headers: bearer(key),
    payload: account as Record<string, unknown>,
  });
  if (response.statusCode !== 201 && response.statusCode !== 200) {
    throw new Error(`bank account registration failed: ${response.statusCode} ${response.body}`);
  }
  return response.json() as { id: string } & Record<string, unknown>;
}
