// Two workers read the same inbound directory at once (PostgreSQL only: PGlite runs one transaction at a time,
// so a race there proves nothing). Each round the bank leaves a status report twice (the same bytes under two
// names, as a bank re-sending a file does) and a booking notification (read after it: files are read in name
// order), and two poll jobs of the same rail run
// on two workers at the same moment. Whatever the interleaving, each answer moves its payout once: one
// `payout.failed`, one `payout.disbursed`, never an event twice, and the inbound files list the report once
// applied and once as a duplicate that applied nothing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_POLL_JOB } from "../../src/modules/bank-rails/index.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { bankCamt054, bankPain002 } from "../helpers/test-bank.js";
import { onPostgres } from "../helpers/test-database.js";
import { createPayout, decide, getPayout, payoutEvents } from "../payouts/payout-fixtures.js";
import { localFolder, sepaConfig, sepaPayee } from "./bank-rail-fixtures.js";

const ROUNDS = 4;
const e2e = (payoutId: string) => payoutId.replaceAll("-", "");

describe.skipIf(!onPostgres)("two workers reading one inbound directory (PostgreSQL)", () => {
  let t: TestApp;
  let root: string;
  let business: RegisteredBusiness;
  let key: string;
  let beneficiaryId: string;

  const db = () => t.runtime.deps.database.db;
  const drain = (name: string) => t.runtime.createWorker(name).drain();

  function bankWrites(name: string, content: string): void {
    const folder = localFolder(root, business.businessId, "in");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, name), content);
  }

  async function approved(amount: number): Promise<string> {
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: amount, currency: "EUR" });
    expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
    return payout.payout_id;
  }

  async function inboundFiles(): Promise<Array<{ file_name: string; status: string }>> {
    const response = await t.app.inject({ method: "GET", url: "/v1/bank-inbound-files?limit=100", headers: bearer(key) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().bank_inbound_files;
  }

  const eventTypes = async (payoutId: string) => (await payoutEvents(db(), payoutId)).map((e) => e.type);

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "bank-inbound-race-"));
    t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root, BANK_RAIL_POLL_INTERVAL_SECONDS: "60" } });
    business = await registerBusiness(t.app);
    key = business.keys.production;
    const delivery = { kind: "local_directory", outbound_directory: "out", inbound_directory: "in" };
    const configured = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({ delivery, cutoff_times: ["15:00"] }),
    });
    expect(configured.statusCode, configured.body).toBe(201);
    ({ beneficiaryId } = await sepaPayee(t.app, key));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("applies each answer once, whatever the interleaving", async () => {
    let cutoff = new Date("2026-05-27T13:00:00.000Z");
    for (let round = 0; round < ROUNDS; round++) {
      const good = await approved(1_000 + round);
      const rejected = await approved(2_000 + round);
      await drain(`queue-${round}`);
      t.clock.set(cutoff);
      await drain(`cutoff-${round}`);
      const files = (await t.app.inject({ method: "GET", url: "/v1/bank-files?limit=100", headers: bearer(key) })).json()
        .bank_files as Array<{ cutoff_at: string; message_id: string; status: string }>;
      const file = files.find((f) => f.cutoff_at === cutoff.toISOString());
      expect(file, `the file of round ${round}`).toMatchObject({ status: "uploaded" });
      const messageId = String(file?.message_id);

      const report = bankPain002({
        messageId: `STS-${round}`,
        originalMessageId: messageId,
        groupStatus: "PART",
        paymentInfoId: `${messageId}-0001`,
        transactions: [
          { endToEndId: e2e(good), status: "ACCP" },
          { endToEndId: e2e(rejected), status: "RJCT", reasonCode: "AC04" },
        ],
      });
      bankWrites(`r${round}-1-status-a.xml`, report);
      bankWrites(`r${round}-1-status-b.xml`, report);
      bankWrites(
        `r${round}-2-booking.xml`,
        bankCamt054({
          messageId: `NTF-${round}`,
          bookings: [
            {
              endToEndId: e2e(good),
              amount: ((1_000 + round) / 100).toFixed(2),
              creditDebit: "DBIT",
              bookingDate: "2026-05-28",
            },
          ],
        }),
      );

      // A second poll job of the same rail (another dedupe key), as if two schedulers had enqueued one: two
      // workers then read the same directory at the same moment.
      const pollAt = new Date(cutoff.getTime() + 3_600_000);
      await t.runtime.deps.jobStore.enqueue(
        db(),
        BANK_POLL_JOB,
        { businessId: business.businessId, rail: "sepa" },
        { runAt: pollAt, dedupeKey: `second-poll-${round}` },
      );
      t.clock.set(pollAt);
      await Promise.all([drain(`a-${round}`), drain(`b-${round}`)]);
      // The outcome jobs the answers enqueued, and anything the two left behind.
      await drain(`after-${round}`);

      expect(await getPayout(t.app, key, rejected)).toMatchObject({
        status: "failed",
        failure_reason: "AC04: The account is closed.",
      });
      expect(await eventTypes(rejected)).toEqual(["payout.disbursement_submitted", "payout.failed"]);
      expect(await getPayout(t.app, key, good)).toMatchObject({ status: "disbursed" });
      // The booking may be applied by one worker before the other commits the acceptance (answers crossing,
      // as a bank's files can): then the payout is already disbursed and the late acceptance moves nothing.
      // Either way no move happens twice.
      const goodEvents = await eventTypes(good);
      expect(goodEvents.filter((type) => type === "payout.disbursed")).toHaveLength(1);
      expect(goodEvents.filter((type) => type === "payout.acknowledged").length).toBeLessThanOrEqual(1);
      expect(new Set(goodEvents).size, goodEvents.join(", ")).toBe(goodEvents.length);

      const inbound = await inboundFiles();
      const statusFiles = inbound
        .filter((f) => f.file_name.startsWith(`r${round}-1-status-`))
        .map((f) => f.status)
        .sort();
      expect(statusFiles, "one copy applied, the other recorded as a duplicate").toEqual(["applied", "duplicate"]);
      expect(inbound.filter((f) => f.file_name === `r${round}-2-booking.xml`).map((f) => f.status)).toEqual(["applied"]);

      cutoff = new Date(cutoff.getTime() + 86_400_000);
    }
  });
});
