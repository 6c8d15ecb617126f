// Factories that build data through the public API, as a Business would.
import type { AppInstance } from "../../src/platform/http/types.js";

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

export async function registerBusiness(app: AppInstance, name = "Acme Payouts"): Promise<RegisteredBusiness> {
  const email = `admin-${unique()}@example.com`;
  const response = await app.inject({
    method: "POST",
    url: "/v1/registration",
    payload: { business_name: name, email, password: "correct horse battery staple" },
  });
  if (response.statusCode !== 201) throw new Error(`registration failed: ${response.statusCode} ${response.body}`);
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
