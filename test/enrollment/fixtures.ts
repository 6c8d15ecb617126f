// Shared helpers of the enrollment tests.
import { and, asc, eq } from "drizzle-orm";
import { events } from "../../src/platform/events/events.schema.js";
import type { AppInstance } from "../../src/platform/http/types.js";
import { bearer, createBeneficiary } from "../helpers/factories.js";
import type { TestApp } from "../helpers/test-app.js";

export type Json = Record<string, unknown>;

/** US accounts whose last four digits trigger the simulator's account-level refusals, and an ordinary one. */
export const US_ACCOUNT = (accountNumber: string) => ({
  account_holder_name: "John Roe",
  country: "US",
  currency: "USD",
  routing_code: "021000021",
  account_number: accountNumber,
});
export const CLOSED_ACCOUNT = US_ACCOUNT("7700010911");
export const NAME_MISMATCH_ACCOUNT = US_ACCOUNT("7700010912");
export const GOOD_ACCOUNT = US_ACCOUNT("7700014417");

export const PERSON_REFUSAL = "The payee's identity could not be verified against the name and country given.";
export const CLOSED_REFUSAL = "The account is closed.";

let counter = 0;
export function email(tag = ""): string {
  counter += 1;
  return `enroll-${process.pid}-${counter}${tag}@example.com`;
}

export async function call(
  app: AppInstance,
  key: string,
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  payload?: Json,
) {
  return app.inject({ method, url, headers: bearer(key), ...(payload === undefined ? {} : { payload }) });
}

/** A person Beneficiary with complete identity (not yet acknowledged). */
export async function newBeneficiary(app: AppInstance, key: string, fields: Json = {}) {
  return createBeneficiary(app, key, {
    email: email(),
    first_name: "Ana",
    last_name: "Lima",
    country_of_residence: "US",
    ...fields,
  });
}

export async function acknowledge(app: AppInstance, key: string, id: string): Promise<Json> {
  const response = await call(app, key, "POST", `/v1/beneficiaries/${id}/acknowledge`);
  if (response.statusCode !== 200) throw new Error(`acknowledge: ${response.statusCode} ${response.body}`);
  return response.json() as Json;
}

export async function registerAccount(app: AppInstance, key: string, id: string, account: Json): Promise<Json & { id: string }> {
  const response = await call(app, key, "POST", `/v1/beneficiaries/${id}/bank-accounts`, account);
  if (response.statusCode !== 201) throw new Error(`register: ${response.statusCode} ${response.body}`);
  return response.json() as Json & { id: string };
}

export async function readBeneficiary(app: AppInstance, key: string, id: string): Promise<Json> {
  return (await call(app, key, "GET", `/v1/beneficiaries/${id}`)).json() as Json;
}

export async function listAccounts(app: AppInstance, key: string, id: string): Promise<Array<Json & { id: string }>> {
  return (
    (await call(app, key, "GET", `/v1/beneficiaries/${id}/bank-accounts`)).json() as {
      bank_accounts: Array<Json & { id: string }>;
    }
  ).bank_accounts;
}

export async function enrollmentEvents(t: TestApp, beneficiaryId: string) {
  const rows = await t.runtime.deps.database.db
    .select()
    .from(events)
    .where(and(eq(events.subjectId, beneficiaryId), eq(events.type, "beneficiary.enrollment_rejected")))
    .orderBy(asc(events.sequence));
  return rows.map((row) => ({ environment: row.environment, data: row.data as Json }));
}
