// Status reports and bookings as banks send them (issue 25, items 2 and 3): pain.002 (.001.03 and .001.10)
// with statuses at group, payment-block and transaction level, each payout getting exactly its own outcome
// and event, once; camt.054 (.001.02 and .001.08) booked per transaction or per batch (one entry for a whole
// payment block), a batch that does not add up moving nothing and said in words, and the booking date as
// disbursed_at. Every answer the tests write is validated with the ISO 20022 schema of its version
// (../shared/standards). Files go and come through local folders (each Business its own).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankInboundFiles } from "../../src/modules/bank-rails/bank-rails.schema.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { expectIsoValid } from "../helpers/iso-xsd.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import {
  type BankBatchBooking,
  type BankBlockStatus,
  bankCamt054,
  bankPain002,
  checkBankAnswersOfThisFile,
} from "../helpers/test-bank.js";
import { createPayout, decide, getPayout, payoutEvents } from "../payouts/payout-fixtures.js";
import { localFolder, sepaConfig, uniqueSepaOriginator } from "./bank-rail-fixtures.js";

// Every pain.002 and camt.054 this file sends is checked against its ISO 20022 schema after its tests.
checkBankAnswersOfThisFile();

const HOUR = 3_600_000;
let t: TestApp;
let root: string;
const db = () => t.runtime.deps.database.db;
const drain = () => t.runtime.createWorker(`w-${Math.random()}`).drain();

interface Scenario {
  readonly business: RegisteredBusiness;
  readonly key: string;
  readonly payouts: string[];
  readonly file: Record<string, unknown>;
  /** The PmtInfId of the file's one payment block. */
  readonly block: string;
}

async function fileOf(s: Pick<Scenario, "key" | "file">): Promise<Record<string, unknown>> {
  const response = await t.app.inject({ method: "GET", url: `/v1/bank-files/${s.file.id}`, headers: bearer(s.key) });
  return response.json().bank_file;
}

/** A Business with a SEPA rail on local folders and one uploaded file carrying a payout per amount (cents). */
async function newFile(amounts: readonly number[]): Promise<Scenario> {
  const business = await registerBusiness(t.app);
  const key = business.keys.production;
  const delivery = { kind: "local_directory", outbound_directory: "sepa/out", inbound_directory: "sepa/in" };
  const configured = await t.app.inject({
    method: "PUT",
    url: "/v1/bank-rails/sepa",
    headers: bearer(key),
    payload: sepaConfig({ originator: uniqueSepaOriginator(), delivery, status_report_timeout_hours: 72 }),
  });
  expect(configured.statusCode, configured.body).toBe(201);
  const beneficiary = await createBeneficiary(t.app, key, {
    first_name: "Ana",
    last_name: "Pérez",
    country_of_residence: "ES",
    postal_address: { line1: "Calle Mayor 5", city: "Madrid", postal_code: "28013", country: "ES" },
  });
  await registerBankAccount(t.app, key, beneficiary.id, {
    account_holder_name: "Ana Pérez",
    country: "ES",
    currency: "EUR",
    iban: "ES9121000418450200051332",
  });
  await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(key) });
  const payouts: string[] = [];
  for (const amount of amounts) {
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiary.id, amount_minor: amount, currency: "EUR" });
    expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
    payouts.push(payout.payout_id);
  }
  await drain();
  t.clock.advance(19 * HOUR); // past the next cut-off (09:30 or 15:00 Berlin)
  await drain();
  const listed = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
  expect(listed).toHaveLength(1);
  const file = listed[0] as Record<string, unknown>;
  expect(file).toMatchObject({ status: "uploaded", entry_count: amounts.length });
  return { business, key, payouts, file, block: `${String(file.message_id)}-0001` };
}

/** The bank puts an answer in the Business's inbound folder (validated with its ISO schema first). */
async function bankWrites(s: Scenario, name: string, xml: string): Promise<void> {
  await expectIsoValid(xml);
  const dir = localFolder(root, s.business.businessId, "sepa/in");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, name), xml);
}

/** Moves the clock past the next poll slot and runs everything due (the poll, then the outcome jobs). */
async function poll(): Promise<void> {
  t.clock.advance(61_000);
  await drain();
  await drain();
}

const types = async (payoutId: string) => (await payoutEvents(db(), payoutId)).map((e) => e.type);
const e2e = (payoutId: string) => payoutId.replaceAll("-", "");
const status = async (s: Scenario, payoutId: string) => (await getPayout(t.app, s.key, payoutId)).status;
/** What the Business's inbound file `name` recorded as unmatched (each Business has its own folder). */
const unmatchedOf = async (s: Scenario, name: string) =>
  (
    await db()
      .select()
      .from(bankInboundFiles)
      .where(and(eq(bankInboundFiles.businessId, s.business.businessId), eq(bankInboundFiles.fileName, name)))
  )[0]?.unmatched as string[];
const SUBMITTED = "payout.disbursement_submitted";

/** Yesterday's date in Berlin (a booking date never in the future of the test clock). */
function berlinYesterday(): string {
  return new Date(t.clock.now().getTime() - 24 * HOUR).toLocaleDateString("sv-SE", { timeZone: "Europe/Berlin" });
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "bank-status-booking-"));
  t = await buildTestApp({
    env: { BANK_RAIL_LOCAL_ROOT: root, BANK_RAIL_POLL_INTERVAL_SECONDS: "60", PAYOUT_RETURN_WINDOW_HOURS: "48" },
  });
  // Summer: Berlin is UTC+2 for the whole test.
  t.clock.set(new Date("2026-06-01T06:00:00.000Z"));
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("pain.002 group status, no transaction detail (both versions)", () => {
  const accepted = [
    { version: 10, group: "ACCP" },
    { version: 3, group: "ACTC" },
    { version: 10, group: "ACSP" },
    { version: 3, group: "ACSC" },
    { version: 10, group: "ACWC" },
  ] as const;
  for (const { version, group } of accepted) {
    it(`${group} (pain.002.001.${version === 3 ? "03" : "10"}) acknowledges every payout of the file and accepts it`, async () => {
      const s = await newFile([1_000, 2_500]);
      await bankWrites(
        s,
        "status.xml",
        bankPain002({ messageId: `STS-${group}`, originalMessageId: String(s.file.message_id), version, groupStatus: group }),
      );
      await poll();
      for (const payout of s.payouts) {
        expect(await status(s, payout)).toBe("approved");
        expect(await types(payout)).toEqual([SUBMITTED, "payout.acknowledged"]);
      }
      expect(await fileOf(s)).toMatchObject({ status: "accepted", alerts: [] });
    });
  }

  for (const version of [10, 3] as const) {
    it(`RJCT (pain.002.001.${version === 3 ? "03" : "10"}) fails every payout with the group's reason and rejects the file`, async () => {
      const s = await newFile([1_000, 2_500]);
      await bankWrites(
        s,
        "status.xml",
        bankPain002({
          messageId: "STS-RJCT",
          originalMessageId: String(s.file.message_id),
          version,
          groupStatus: "RJCT",
          groupReasonCode: "FF01",
        }),
      );
      await poll();
      for (const payout of s.payouts) {
        const failed = await getPayout(t.app, s.key, payout);
        expect(failed.status).toBe("failed");
        expect(failed.failure_reason).toMatch(/^FF01: /);
        expect(await types(payout)).toEqual([SUBMITTED, "payout.failed"]);
      }
      expect(await fileOf(s)).toMatchObject({ status: "rejected", alerts: ["rejected"] });
    });

    it(`PDNG (pain.002.001.${version === 3 ? "03" : "10"}) moves nothing: payouts and file stay as they are, the answer is noted`, async () => {
      const s = await newFile([1_000]);
      await bankWrites(
        s,
        "status.xml",
        bankPain002({ messageId: "STS-PDNG", originalMessageId: String(s.file.message_id), version, groupStatus: "PDNG" }),
      );
      await poll();
      expect(await types(s.payouts[0] as string)).toEqual([SUBMITTED]);
      const file = await fileOf(s);
      expect(file).toMatchObject({ status: "uploaded", alerts: [] });
      expect(file.acknowledged_at).not.toBeNull();
    });
  }
});

describe("pain.002 group PART listing only the rejected transaction (the issue's report)", () => {
  it("fails the rejected payout, leaves the others as they are, and marks the file partially accepted, not rejected", async () => {
    const s = await newFile([1_000, 2_000, 3_000]);
    const [a, b, rejected] = s.payouts as [string, string, string];
    await bankWrites(
      s,
      "status.xml",
      bankPain002({
        messageId: "STS-PART-1",
        originalMessageId: String(s.file.message_id),
        groupStatus: "PART",
        paymentInfoId: s.block,
        transactions: [{ endToEndId: e2e(rejected), status: "RJCT", reasonCode: "AC04" }],
      }),
    );
    await poll();
    expect(await getPayout(t.app, s.key, rejected)).toMatchObject({
      status: "failed",
      failure_reason: "AC04: The account is closed.",
    });
    for (const payout of [a, b]) expect(await types(payout)).toEqual([SUBMITTED]);
    expect(await fileOf(s)).toMatchObject({ status: "partially_accepted", alerts: ["rejected"] });
  });
});

describe("pain.002 payment-block level", () => {
  for (const version of [10, 3] as const) {
    it(`a block RJCT with no transaction detail rejects every transaction of the block (.${version === 3 ? "03" : "10"})`, async () => {
      const s = await newFile([1_000, 2_000, 3_000]);
      await bankWrites(
        s,
        "status.xml",
        bankPain002({
          messageId: "STS-BLK",
          originalMessageId: String(s.file.message_id),
          version,
          groupStatus: "PART",
          blocks: [{ paymentInfoId: s.block, status: "RJCT", reasonCode: "AM04" }],
        }),
      );
      await poll();
      for (const payout of s.payouts) {
        expect(await getPayout(t.app, s.key, payout)).toMatchObject({
          status: "failed",
          failure_reason: expect.stringMatching(/^AM04: /),
        });
        expect(await types(payout)).toEqual([SUBMITTED, "payout.failed"]);
      }
      expect(await fileOf(s)).toMatchObject({ status: "rejected", alerts: ["rejected"] });
    });
  }

  it("a block status naming a block that is not ours moves nothing and is said", async () => {
    const s = await newFile([1_000]);
    await bankWrites(
      s,
      "status.xml",
      bankPain002({
        messageId: "STS-NOBLK",
        originalMessageId: String(s.file.message_id),
        groupStatus: null,
        blocks: [{ paymentInfoId: "SOMEONE-ELSES-0001", status: "RJCT", reasonCode: "AM04" }],
      }),
    );
    await poll();
    expect(await types(s.payouts[0] as string)).toEqual([SUBMITTED]);
    expect(await unmatchedOf(s, "status.xml")).toEqual([
      `pain.002 STS-NOBLK reports on payment block SOMEONE-ELSES-0001 (RJCT), which is not a block of file ${s.file.file_name} (message ${s.file.message_id}); nothing was moved for it.`,
    ]);
    expect(await fileOf(s)).toMatchObject({ status: "uploaded", alerts: ["unmatched_entries"] });
  });
});

describe("pain.002 PART with transaction detail, then a batch-booked camt.054 (version 8)", () => {
  let s: Scenario;
  let a: string;
  let b: string;
  let rejected: string;
  let silent: string;

  it("PART: each accepted payout acknowledged, the rejected one failed with its reason, one with no status of its own left as it is", async () => {
    s = await newFile([1_000, 2_000, 3_000, 4_000]);
    [a, b, rejected, silent] = s.payouts as [string, string, string, string];
    await bankWrites(
      s,
      "status-1.xml",
      bankPain002({
        messageId: "STS-PART",
        originalMessageId: String(s.file.message_id),
        groupStatus: "PART",
        blocks: [
          {
            paymentInfoId: s.block,
            status: "PART",
            transactions: [
              { endToEndId: e2e(a), status: "ACCP", originalAmount: "10.00" },
              { endToEndId: e2e(b), status: "ACSC" },
              { endToEndId: e2e(rejected), status: "RJCT", reasonCode: "AC04", originalAmount: "30.00" },
              { endToEndId: e2e(silent) },
            ],
          },
        ],
      }),
    );
    await poll();
    expect(await types(a)).toEqual([SUBMITTED, "payout.acknowledged"]);
    expect(await types(b)).toEqual([SUBMITTED, "payout.acknowledged"]);
    expect(await getPayout(t.app, s.key, rejected)).toMatchObject({
      status: "failed",
      failure_reason: "AC04: The account is closed.",
    });
    expect(await types(rejected)).toEqual([SUBMITTED, "payout.failed"]);
    expect(await status(s, silent)).toBe("approved");
    expect(await types(silent)).toEqual([SUBMITTED]);
    const file = await fileOf(s);
    expect(file).toMatchObject({ status: "partially_accepted", alerts: ["rejected"] });
    expect(await unmatchedOf(s, "status-1.xml")).toEqual([]);
  });

  it("the same statuses again, in another report, move nothing twice", async () => {
    await bankWrites(
      s,
      "status-2.xml",
      bankPain002({
        messageId: "STS-PART-AGAIN",
        originalMessageId: String(s.file.message_id),
        groupStatus: "PART",
        paymentInfoId: s.block,
        transactions: [
          { endToEndId: e2e(a), status: "ACSC" },
          { endToEndId: e2e(b), status: "ACSC" },
          { endToEndId: e2e(rejected), status: "RJCT", reasonCode: "AC04" },
        ],
      }),
    );
    await poll();
    expect(await types(a)).toEqual([SUBMITTED, "payout.acknowledged"]);
    expect(await types(b)).toEqual([SUBMITTED, "payout.acknowledged"]);
    expect(await types(rejected)).toEqual([SUBMITTED, "payout.failed"]);
    expect(await fileOf(s)).toMatchObject({ status: "partially_accepted" });
  });

  it("a later ACSC for the last one accepts it: the file is partially accepted, all decided", async () => {
    await bankWrites(
      s,
      "status-3.xml",
      bankPain002({
        messageId: "STS-LAST",
        originalMessageId: String(s.file.message_id),
        groupStatus: "PART",
        paymentInfoId: s.block,
        transactions: [{ endToEndId: e2e(silent), status: "ACSC" }],
      }),
    );
    await poll();
    expect(await types(silent)).toEqual([SUBMITTED, "payout.acknowledged"]);
    expect(await types(rejected)).toEqual([SUBMITTED, "payout.failed"]);
    expect(await fileOf(s)).toMatchObject({ status: "partially_accepted" });
  });

  const batch = (overrides: Partial<BankBatchBooking> = {}): BankBatchBooking => ({
    paymentInfoId: s.block,
    numberOfTransactions: 3,
    totalAmount: "70.00",
    amount: "70.00",
    bookingDate: berlinYesterday(),
    ...overrides,
  });

  it("a pending batch entry (PDNG) moves nothing", async () => {
    await bankWrites(
      s,
      "camt-pending.xml",
      bankCamt054({ messageId: "NTF-P", bookings: [], batches: [batch({ status: "PDNG" })] }),
    );
    await poll();
    for (const payout of [a, b, silent]) expect(await status(s, payout)).toBe("approved");
    expect(await unmatchedOf(s, "camt-pending.xml")).toEqual([]);
  });

  it("a batch booking equal to the block less its rejected item moves each remaining payout to disbursed at the booking date", async () => {
    const day = berlinYesterday();
    await bankWrites(
      s,
      "camt-batch.xml",
      bankCamt054({ messageId: "NTF-B", bookings: [], batches: [batch({ bookingDate: day })] }),
    );
    await poll();
    const startOfDayBerlin = new Date(`${day}T00:00:00+02:00`);
    for (const payout of [a, b, silent]) {
      const got = await getPayout(t.app, s.key, payout);
      expect(got).toMatchObject({ status: "disbursed", disbursed_at: startOfDayBerlin.toISOString() });
      const events = await payoutEvents(db(), payout);
      const disbursed = events.find((e) => e.type === "payout.disbursed");
      expect(disbursed?.occurredAt.toISOString()).toBe(startOfDayBerlin.toISOString());
      expect(disbursed?.data.disbursed_at).toBe(startOfDayBerlin.toISOString());
      expect(events.filter((e) => e.type === "payout.disbursed")).toHaveLength(1);
    }
    expect(await status(s, rejected)).toBe("failed");
    expect(await unmatchedOf(s, "camt-batch.xml")).toEqual([]);
  });
});

describe("pain.002 transaction-level mix (version 3), unmatched lines, and camt.054 batches that do not add up (version 2)", () => {
  let s: Scenario;
  let other: Scenario;

  it("a transaction's own status wins over its block's; a block status covers the transactions it does not list", async () => {
    s = await newFile([1_000, 2_000, 3_000]);
    other = await newFile([5_000]);
    const [a, b, c] = s.payouts as [string, string, string];
    const blocks: BankBlockStatus[] = [
      {
        paymentInfoId: s.block,
        status: "ACTC",
        transactions: [
          { endToEndId: e2e(b), status: "RJCT", reasonCode: "AC01" },
          // Ours, but the bank saw another amount: nothing moves it, not even the block's ACTC.
          { endToEndId: e2e(c), status: "ACCP", originalAmount: "31.00" },
          // A payout of another file of another Business, and an id we never sent.
          { endToEndId: e2e(other.payouts[0] as string), status: "RJCT", reasonCode: "AC04" },
          { endToEndId: "f".repeat(32), status: "RJCT", reasonCode: "AC04" },
        ],
      },
    ];
    await bankWrites(
      s,
      "status.xml",
      bankPain002({
        messageId: "STS-MIX",
        originalMessageId: String(s.file.message_id),
        version: 3,
        groupStatus: "PART",
        blocks,
      }),
    );
    await poll();
    expect(await types(a)).toEqual([SUBMITTED, "payout.acknowledged"]);
    expect(await getPayout(t.app, s.key, b)).toMatchObject({
      status: "failed",
      failure_reason: expect.stringMatching(/^AC01: /),
    });
    expect(await types(c)).toEqual([SUBMITTED]);
    expect(await types(other.payouts[0] as string)).toEqual([SUBMITTED]);
    const where = `file ${s.file.file_name} (message ${s.file.message_id})`;
    expect(await unmatchedOf(s, "status.xml")).toEqual([
      `pain.002 STS-MIX: transaction ${e2e(c)} (ACCP): we sent EUR 30.00, the status report says EUR 31.00; nothing was moved.`,
      `pain.002 STS-MIX: transaction ${e2e(other.payouts[0] as string)} (RJCT) is not one we sent in ${where}; nothing was moved.`,
      `pain.002 STS-MIX: transaction ${"f".repeat(32)} (RJCT) is not one we sent in ${where}; nothing was moved.`,
    ]);
    expect(await fileOf(s)).toMatchObject({ status: "partially_accepted", alerts: ["rejected", "unmatched_entries"] });
    expect(await fileOf(other)).toMatchObject({ status: "uploaded", alerts: [] });
  });

  it("a batch booking that does not add up moves nothing, says what was expected and found, and flags the file", async () => {
    const [a, , c] = s.payouts as [string, string, string];
    // The block less its rejected item is 2 transactions for EUR 40.00; the bank counts the rejected one in.
    await bankWrites(
      s,
      "camt-wrong.xml",
      bankCamt054({
        messageId: "NTF-W",
        version: 2,
        bookings: [],
        batches: [
          {
            paymentInfoId: s.block,
            numberOfTransactions: 3,
            totalAmount: "60.00",
            amount: "60.00",
            bookingDate: berlinYesterday(),
          },
        ],
      }),
    );
    await poll();
    for (const payout of [a, c]) expect(await status(s, payout)).toBe("approved");
    expect(await unmatchedOf(s, "camt-wrong.xml")).toEqual([
      `camt.054 NTF-W: batch booking of payment block ${s.block} (file ${s.file.file_name}) does not add up: we expected 2 transactions for EUR 40.00 (3 sent less 1 rejected), the bank booked NbOfTxs 3, TtlAmt EUR 60.00, entry amount EUR 60.00; nothing was moved.`,
    ]);
    // Right count and total, another entry amount: still nothing.
    await bankWrites(
      s,
      "camt-wrong-2.xml",
      bankCamt054({
        messageId: "NTF-W2",
        version: 2,
        bookings: [],
        batches: [
          {
            paymentInfoId: s.block,
            numberOfTransactions: 2,
            totalAmount: "40.00",
            amount: "40.01",
            bookingDate: berlinYesterday(),
          },
        ],
      }),
    );
    // A block that is none of ours.
    await bankWrites(
      s,
      "camt-stranger.xml",
      bankCamt054({
        messageId: "NTF-S",
        version: 2,
        bookings: [],
        batches: [{ paymentInfoId: "PO20260101T0000Z000000000000-0001", amount: "40.00", bookingDate: berlinYesterday() }],
      }),
    );
    await poll();
    for (const payout of [a, c]) expect(await status(s, payout)).toBe("approved");
    expect(await unmatchedOf(s, "camt-wrong-2.xml")).toEqual([
      `camt.054 NTF-W2: batch booking of payment block ${s.block} (file ${s.file.file_name}) does not add up: we expected 2 transactions for EUR 40.00 (3 sent less 1 rejected), the bank booked entry amount EUR 40.01; nothing was moved.`,
    ]);
    expect(await unmatchedOf(s, "camt-stranger.xml")).toEqual([
      "camt.054 NTF-S: a batch booking of EUR 40.00 names payment block PO20260101T0000Z000000000000-0001, which is none of our SEPA files' blocks; nothing was moved.",
    ]);
    expect((await fileOf(s)).alerts).toEqual(["rejected", "unmatched_entries"]);
  });

  it("the right batch (version 2, NbOfTxs and TtlAmt left out, the entry amount right) books the two remaining payouts", async () => {
    const [a, b, c] = s.payouts as [string, string, string];
    const day = berlinYesterday();
    await bankWrites(
      s,
      "camt-right.xml",
      bankCamt054({
        messageId: "NTF-R",
        version: 2,
        bookings: [],
        batches: [{ paymentInfoId: s.block, amount: "40.00", bookingDate: day }],
      }),
    );
    await poll();
    for (const payout of [a, c]) {
      expect(await getPayout(t.app, s.key, payout)).toMatchObject({
        status: "disbursed",
        disbursed_at: new Date(`${day}T00:00:00+02:00`).toISOString(),
      });
    }
    expect(await status(s, b)).toBe("failed");
  });
});

describe("camt.054 booked per transaction: the booking date is disbursed_at", () => {
  for (const version of [2, 8] as const) {
    it(`version ${version}: a date-time with and without its offset, a pending entry moves nothing`, async () => {
      const s = await newFile([1_000, 2_000, 3_000]);
      const [a, b, pending] = s.payouts as [string, string, string];
      const day = berlinYesterday();
      await bankWrites(
        s,
        "camt.xml",
        bankCamt054({
          messageId: `NTF-${version}`,
          version,
          bookings: [
            { endToEndId: e2e(a), amount: "10.00", creditDebit: "DBIT", bookingDate: `${day}T10:15:00+01:00` },
            { endToEndId: e2e(b), amount: "20.00", creditDebit: "DBIT", bookingDate: `${day}T10:15:00` },
            { endToEndId: e2e(pending), amount: "30.00", creditDebit: "DBIT", bookingDate: day, status: "PDNG" },
          ],
        }),
      );
      await poll();
      expect(await getPayout(t.app, s.key, a)).toMatchObject({
        status: "disbursed",
        disbursed_at: new Date(`${day}T09:15:00.000Z`).toISOString(),
      });
      // No offset: the rail's time zone (Berlin, UTC+2 in summer).
      expect(await getPayout(t.app, s.key, b)).toMatchObject({
        status: "disbursed",
        disbursed_at: new Date(`${day}T08:15:00.000Z`).toISOString(),
      });
      const event = (await payoutEvents(db(), b)).find((e) => e.type === "payout.disbursed");
      expect(event?.occurredAt.toISOString()).toBe(new Date(`${day}T08:15:00.000Z`).toISOString());
      expect(await status(s, pending)).toBe("approved");
      expect(await types(pending)).toEqual([SUBMITTED]);
    });
  }
});
