// Rows stored before the masking rule (a short account number shown whole, Pix keys masked more loosely, a
// short tax id or TIN shown whole) are corrected by the `masking.backfill` job, which start-up enqueues when
// such rows exist. The job re-masks from the ciphertexts, payouts' copies included.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { createLogger } from "../../src/platform/logger.js";
import { createRuntime } from "../../src/runtime.js";
import { enqueueMaskingBackfillIfNeeded, MASKING_BACKFILL_JOB } from "../../src/worker/masking-backfill.js";
import { mintLink, PageSession, readBeneficiary } from "../collection/helpers.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { newKey } from "../payouts/payout-fixtures.js";

type Json = Record<string, unknown>;

let t: TestApp;
let biz: RegisteredBusiness;
let key: string;

beforeAll(async () => {
  t = await buildTestApp();
  biz = await registerBusiness(t.app, "Legacy Rows Ltd");
  key = biz.keys.sandbox;
});
afterAll(async () => t?.close());

async function call(method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) {
  return t.app.inject({ method, url, headers: bearer(key), ...(payload === undefined ? {} : { payload: payload as Json }) });
}

const db = () => t.runtime.deps.database.db;
const US = { account_holder_name: "Lee Legacy", country: "US", currency: "USD", routing_code: "021000021" };
const BR = { account_holder_name: "Lee Legacy", country: "BR", currency: "BRL" };

async function backfillJobs() {
  return queryRows<{ status: string }>(db(), sql`select status from jobs where type = ${MASKING_BACKFILL_JOB.type}`);
}

describe("masking backfill", () => {
  it("start-up enqueues it once when old rows exist, and the job re-masks every stored value", async () => {
    // Nothing to do on a database written under the current rule: no job.
    expect(await enqueueMaskingBackfillIfNeeded(db(), t.runtime.deps.jobStore)).toBeNull();

    const created = await call("POST", "/v1/beneficiaries", {
      beneficiary_type: "person",
      email: "lee.legacy@example.test",
      first_name: "Lee",
      last_name: "Legacy",
      country_of_residence: "US",
      tax_id: "AB12",
    });
    const beneficiary = created.json() as Json & { id: string };
    const short = (
      await call("POST", `/v1/beneficiaries/${beneficiary.id}/bank-accounts`, { ...US, account_number: "4417" })
    ).json() as Json & { id: string };
    const email = (
      await call("POST", `/v1/beneficiaries/${beneficiary.id}/bank-accounts`, { ...BR, pix_key: "a@example.com" })
    ).json() as Json & { id: string };
    const cpf = (
      await call("POST", `/v1/beneficiaries/${beneficiary.id}/bank-accounts`, { ...BR, pix_key: "529.982.247-25" })
    ).json() as Json & { id: string };
    const deleted = (
      await call("POST", `/v1/beneficiaries/${beneficiary.id}/bank-accounts`, { ...US, account_number: "552108" })
    ).json() as Json & { id: string };
    expect((await call("DELETE", `/v1/beneficiaries/${beneficiary.id}/bank-accounts/${deleted.id}`)).statusCode).toBe(204);
    expect((await call("POST", `/v1/beneficiaries/${beneficiary.id}/acknowledge`)).statusCode).toBe(200);
    const payout = await call("POST", "/v1/payouts", {
      beneficiary_id: beneficiary.id,
      bank_account_id: short.id,
      amount_minor: 700,
      currency: "USD",
      idempotency_key: newKey("legacy"),
    });
    expect(payout.statusCode, payout.body).toBe(201);
    const payoutId = String(payout.json().payout_id);
    // A W-8BEN with a 2-character foreign TIN.
    const link = await mintLink(t.app, key, beneficiary.id, "tax_documents");
    const form = await new PageSession(t.app).submit(`${link.path}?form=W-8BEN`, {
      form: "W-8BEN",
      name: "Lee Legacy",
      country: "DE",
      date_of_birth: "1980-04-01",
      foreign_tin: "X9",
      address_line1: "Hauptstr. 1",
      address_city: "Berlin",
      address_country: "DE",
      certify: "yes",
      signature: "Lee Legacy",
    });
    expect(form.statusCode, form.body).toBe(200);

    // Make these rows look as the previous rule stored them.
    await db().execute(sql`update destinations set mask_version = 0, last4 = case id
        when ${short.id}::uuid then '4417' when ${email.id}::uuid then 'a***@example.com'
        when ${cpf.id}::uuid then '***.982.247-**' when ${deleted.id}::uuid then '2108' end
      where beneficiary_id = ${beneficiary.id}::uuid`);
    await db().execute(sql`update payouts set destination_last4 = '4417' where id = ${payoutId}::uuid`);
    await db().execute(sql`update beneficiaries set mask_version = 0, tax_id_last4 = 'AB12',
        tax_document = jsonb_set(tax_document, '{tin_last4}', '"X9"') where id = ${beneficiary.id}::uuid`);
    const before = await readBeneficiary(t.app, key, beneficiary.id);
    expect(before).toMatchObject({ tax_id: "•••••AB12", tax_document: { tin: "•••••X9" } });

    // Another process starting on this database enqueues the backfill; a second start adds nothing.
    const logger = createLogger("silent");
    for (let start = 0; start < 2; start += 1) {
      const other = await createRuntime(t.config, { clock: t.clock, logger, database: t.runtime.deps.database });
      await other.close();
    }
    expect(await backfillJobs()).toEqual([{ status: "pending" }]);

    await t.runtime.createWorker("masking-backfill-test").drain();
    expect(await backfillJobs()).toEqual([{ status: "succeeded" }]);

    const accounts = (await call("GET", `/v1/beneficiaries/${beneficiary.id}/bank-accounts`)).json().bank_accounts as Json[];
    expect(Object.fromEntries(accounts.map((a) => [a.id, a.last4]))).toEqual({
      [short.id]: "17",
      [email.id]: "***@example.com",
      [cpf.id]: "***.**2.247-**",
    });
    expect((await call("GET", `/v1/payouts/${payoutId}`)).json().destination_last4).toBe("17");
    const after = await readBeneficiary(t.app, key, beneficiary.id);
    expect(after).toMatchObject({ tax_id: "•••••12", tax_document: { tin: "•••••9" } });
    expect(after.updated_at).toBe(before.updated_at);
    const stored = await queryRows<{ id: string; last4: string; mask_version: number }>(
      db(),
      sql`select id, last4, mask_version from destinations where beneficiary_id = ${beneficiary.id}::uuid`,
    );
    expect(stored.find((row) => row.id === deleted.id)?.last4).toBe("108");
    expect(stored.every((row) => Number(row.mask_version) === 1)).toBe(true);

    // Done for good: nothing left, so no further job.
    expect(await enqueueMaskingBackfillIfNeeded(db(), t.runtime.deps.jobStore)).toBeNull();
  });
});
