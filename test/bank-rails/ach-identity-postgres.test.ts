// Two cut-offs of the same Business at once never give two entries one trace number, nor two files of one
// creation date one File ID Modifier (PostgreSQL only: PGlite runs one transaction at a time, so a race there
// proves nothing). Each round queues payouts, then two workers run two cut-off jobs of different instants
// together; and the counters themselves are raced by many transactions at once.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceCounter } from "../../src/modules/bank-rails/bank-rails.repo.js";
import { BANK_CUTOFF_JOB } from "../../src/modules/bank-rails/index.js";
import { transaction } from "../../src/platform/db/client.js";
import { readNachaFile } from "../../src/rails/bank-files/nacha-reader.js";
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
import { achConfig, localFolder, US_ACCOUNT } from "./bank-rail-fixtures.js";

describe.skipIf(!onPostgres)("ACH identity under concurrent cut-offs (PostgreSQL)", () => {
  let t: TestApp;
  let root: string;
  let business: RegisteredBusiness;
  let key: string;
  let beneficiaryId: string;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "ach-identity-race-"));
    t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root } });
    business = await registerBusiness(t.app);
    key = business.keys.production;
    const put = await t.app.inject({ method: "PUT", url: "/v1/bank-rails/ach", headers: bearer(key), payload: achConfig() });
    expect(put.statusCode, put.body).toBe(201);
    const beneficiary = await createBeneficiary(t.app, key, {
      first_name: "Jane",
      last_name: "Doe",
      country_of_residence: "US",
      postal_address: null,
    });
    await registerBankAccount(t.app, key, beneficiary.id, US_ACCOUNT);
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(key) });
    beneficiaryId = beneficiary.id;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("two cut-offs at once never reuse a trace number or a File ID Modifier", async () => {
    const db = t.runtime.deps.database.db;
    const all: string[] = [];
    t.clock.set(new Date("2026-06-03T12:00:00.000Z"));
    for (let round = 0; round < 6; round++) {
      const ids: string[] = [];
      const cutoffs: Date[] = [];
      // Two batches, each before its own cut-off instant: whichever job locks first takes what it may.
      for (let batch = 0; batch < 2; batch++) {
        for (let i = 0; i < 3; i++) {
          const payout = await createPayout(t.app, key, {
            beneficiary_id: beneficiaryId,
            amount_minor: 100 + i,
            currency: "USD",
          });
          expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
          ids.push(payout.payout_id);
        }
        await t.runtime.createWorker("queue").drain();
        t.clock.advance(60_000);
        cutoffs.push(t.clock.now());
        t.clock.advance(1_000); // the next batch is queued after this cut-off's instant
      }
      for (const cutoffAt of cutoffs) {
        await t.runtime.deps.jobStore.enqueue(
          db,
          BANK_CUTOFF_JOB,
          { businessId: business.businessId, rail: "ach" as const, cutoffAt: cutoffAt.toISOString() },
          { runAt: cutoffAt },
        );
      }
      await Promise.all([t.runtime.createWorker(`a-${round}`).drain(), t.runtime.createWorker(`b-${round}`).drain()]);
      for (const id of ids) {
        expect((await payoutEvents(db, id)).filter((e) => e.type === "payout.disbursement_submitted")).toHaveLength(1);
      }
      all.push(...ids);
    }
    const files = (await t.app.inject({ method: "GET", url: "/v1/bank-files?limit=200", headers: bearer(key) })).json()
      .bank_files as Array<{ file_name: string; status: string; entry_count: number }>;
    const written = files.filter((f) => f.status === "uploaded");
    expect(written.reduce((sum, f) => sum + f.entry_count, 0)).toBe(all.length);
    const parsed = written.map((f) =>
      readNachaFile(readFileSync(path.join(localFolder(root, business.businessId, "ach/out"), f.file_name), "utf8")),
    );
    const traces = parsed.flatMap((f) => f.batches.flatMap((b) => b.entries.map((e) => e.traceNumber)));
    expect(traces).toHaveLength(all.length);
    expect(new Set(traces).size).toBe(all.length);
    const ids = parsed.map((f) => `${f.creationDate}-${f.fileIdModifier}`);
    // One or two files a round (two when the earlier cut-off locked first, as it mostly does).
    expect(parsed.length).toBeGreaterThanOrEqual(6);
    expect(new Set(ids).size).toBe(parsed.length);
  });

  it("the counters give disjoint ranges to concurrent transactions, and stop exactly at their maximum", async () => {
    const db = t.runtime.deps.database.db;
    const tenant = { businessId: business.businessId, environment: "production" as const };
    const now = t.clock.now();
    const ranges = await Promise.all(
      Array.from({ length: 20 }, () =>
        transaction(db, async (tx) => {
          const last = await advanceCounter(tx, tenant, "ach_trace:race-test", 3, now);
          return last === null ? null : [last - 2, last - 1, last];
        }),
      ),
    );
    const values = ranges.flatMap((r) => r ?? []);
    expect(new Set(values).size).toBe(60);
    expect(Math.max(...values)).toBe(60);
    const modifiers = await Promise.all(
      Array.from({ length: 50 }, () => transaction(db, (tx) => advanceCounter(tx, tenant, "ach_file_id:race-test", 1, now, 36))),
    );
    const given = modifiers.filter((m): m is number => m !== null).sort((a, b) => a - b);
    expect(given).toEqual(Array.from({ length: 36 }, (_, i) => i + 1));
    expect(modifiers.filter((m) => m === null)).toHaveLength(14);
  });
});
