// Two workers at the same cut-off build one file (PostgreSQL only: PGlite runs one transaction at a time, so
// a race there proves nothing). Each worker runs its own copy of the cut-off job for the same cut-off, at the
// same moment, repeatedly: the configuration row lock makes the second wait and then find the file.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_CUTOFF_JOB } from "../../src/modules/bank-rails/index.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import { createPayout, decide, payoutEvents } from "../payouts/payout-fixtures.js";
import { localFolder, sepaConfig } from "./bank-rail-fixtures.js";

describe.skipIf(!onPostgres)("two workers at one cut-off (PostgreSQL)", () => {
  let t: TestApp;
  let root: string;
  let business: RegisteredBusiness;
  let key: string;
  let beneficiaryId: string;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "bank-race-"));
    t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root } });
    business = await registerBusiness(t.app);
    key = business.keys.production;
    const delivery = { kind: "local_directory", outbound_directory: "out", inbound_directory: "in" };
    expect(
      (
        await t.app.inject({
          method: "PUT",
          url: "/v1/bank-rails/sepa",
          headers: bearer(key),
          payload: sepaConfig({ delivery, cutoff_times: ["15:00"] }),
        })
      ).statusCode,
    ).toBe(201);
    const beneficiary = await createBeneficiary(t.app, key, {
      first_name: "Ana",
      last_name: "Perez",
      country_of_residence: "ES",
      postal_address: { line1: "Calle Mayor 5", city: "Madrid", country: "ES" },
    });
    await registerBankAccount(t.app, key, beneficiary.id, {
      account_holder_name: "Ana Perez",
      country: "ES",
      currency: "EUR",
      iban: "ES9121000418450200051332",
    });
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(key) });
    beneficiaryId = beneficiary.id;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("builds one file with each payout once, whatever the interleaving", async () => {
    const db = t.runtime.deps.database.db;
    let cutoff = new Date("2026-05-27T13:00:00.000Z");
    for (let round = 0; round < 5; round++) {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 100 + i, currency: "EUR" });
        expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
        ids.push(payout.payout_id);
      }
      await t.runtime.createWorker("queue").drain();
      // A second copy of the cut-off job (another dedupe key), as if two schedulers had enqueued it.
      await t.runtime.deps.jobStore.enqueue(
        db,
        BANK_CUTOFF_JOB,
        { businessId: business.businessId, rail: "sepa" as const, cutoffAt: cutoff.toISOString() },
        { runAt: cutoff, dedupeKey: `second-${cutoff.toISOString()}` },
      );
      t.clock.set(cutoff);
      await Promise.all([t.runtime.createWorker(`a-${round}`).drain(), t.runtime.createWorker(`b-${round}`).drain()]);
      const files = (await t.app.inject({ method: "GET", url: "/v1/bank-files?limit=200", headers: bearer(key) })).json()
        .bank_files;
      const ofCutoff = files.filter((f: { cutoff_at: string }) => f.cutoff_at === cutoff.toISOString());
      expect(ofCutoff).toHaveLength(1);
      expect(ofCutoff[0].entry_count).toBe(5);
      for (const id of ids) {
        expect((await payoutEvents(db, id)).filter((e) => e.type === "payout.disbursement_submitted")).toHaveLength(1);
      }
      cutoff = new Date(cutoff.getTime() + 86_400_000);
    }
    expect(readdirSync(localFolder(root, business.businessId, "out")).filter((n) => !n.startsWith("."))).toHaveLength(5);
  });
});
