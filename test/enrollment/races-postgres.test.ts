// Enrollment under real concurrency (PostgreSQL only: PGlite runs one transaction at a time).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import {
  acknowledge,
  CLOSED_ACCOUNT,
  call,
  enrollmentEvents,
  listAccounts,
  newBeneficiary,
  readBeneficiary,
  US_ACCOUNT,
} from "./fixtures.js";

describe.skipIf(!onPostgres)("enrollment races (PostgreSQL)", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;
  beforeAll(async () => {
    t = await buildTestApp();
    biz = await registerBusiness(t.app, "Enrollment races");
  });
  afterAll(async () => t?.close());

  it("accounts registered at once for a compliant Beneficiary all end verified, and the Beneficiary too", async () => {
    const key = biz.keys.production;
    const b = await newBeneficiary(t.app, key);
    await acknowledge(t.app, key, b.id);
    const numbers = Array.from({ length: 8 }, (_, i) => `55000${String(i).padStart(5, "0")}`);
    const responses = await Promise.all(
      numbers.map((n) => call(t.app, key, "POST", `/v1/beneficiaries/${b.id}/bank-accounts`, US_ACCOUNT(n))),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(numbers.map(() => 201));
    const accounts = await listAccounts(t.app, key, b.id);
    expect(accounts).toHaveLength(8);
    expect(accounts.map((a) => a.status)).toEqual(numbers.map(() => "verified"));
    expect(await readBeneficiary(t.app, key, b.id)).toMatchObject({ enrollment_status: "verified", status: "ready" });
  });

  it("concurrent retries: each is 200 or 409, one attempt at a time, and the end state is settled and consistent", async () => {
    const key = biz.keys.production;
    const b = await newBeneficiary(t.app, key);
    await acknowledge(t.app, key, b.id);
    const closed = await call(t.app, key, "POST", `/v1/beneficiaries/${b.id}/bank-accounts`, CLOSED_ACCOUNT);
    const closedId = (closed.json() as { id: string }).id;
    const eventsBefore = (await enrollmentEvents(t, b.id)).length;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => call(t.app, key, "POST", `/v1/beneficiaries/${b.id}/enrollment`)),
    );
    const codes = responses.map((r) => r.statusCode);
    expect(
      codes.every((code) => code === 200 || code === 409),
      String(codes),
    ).toBe(true);
    const succeeded = codes.filter((code) => code === 200).length;
    expect(succeeded).toBeGreaterThanOrEqual(1);
    // Each successful retry's refusal was written once: one event per 200.
    expect((await enrollmentEvents(t, b.id)).length - eventsBefore).toBe(succeeded);
    expect(await readBeneficiary(t.app, key, b.id)).toMatchObject({
      enrollment_status: "rejected",
      enrollment_failure_detail: "The account is closed.",
      enrollment_failure_bank_account_id: closedId,
    });
    const [account] = await listAccounts(t.app, key, b.id);
    expect(account).toMatchObject({ status: "rejected", rail_rejection_reason: "The account is closed." });
  });
});
