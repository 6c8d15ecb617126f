// The bank's answers move payouts through the spec's states: pain.002 (accepted, one transaction rejected),
// camt.054 (booked, then a late return after settlement), ACH returns and notifications of change; a file
// that cannot be parsed is refused and changes nothing; an entry naming no payout is flagged. Files are
// delivered and read through local folders here (the bank is test/helpers/test-bank.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankInboundFiles } from "../../src/modules/bank-rails/bank-rails.schema.js";
import { readNachaFile } from "../../src/rails/bank-files/nacha-reader.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { bankAchReturnFile, bankCamt054, bankPain002, checkBankAnswersOfThisFile } from "../helpers/test-bank.js";
import { createPayout, decide, getPayout, payoutEvents } from "../payouts/payout-fixtures.js";
import { achConfig, localFolder, sepaConfig, US_ACCOUNT } from "./bank-rail-fixtures.js";

// Every pain.002 and camt.054 this file sends is checked against its ISO 20022 schema after its tests.
checkBankAnswersOfThisFile();

const HOUR = 3_600_000;
let t: TestApp;
let root: string;
let business: RegisteredBusiness;
let key: string;
const db = () => t.runtime.deps.database.db;
const drain = () => t.runtime.createWorker(`w-${Math.random()}`).drain();

async function payee(account: Record<string, unknown>, fields: Record<string, unknown> = {}): Promise<string> {
  const beneficiary = await createBeneficiary(t.app, key, {
    first_name: "Ana",
    last_name: "Pérez",
    country_of_residence: "ES",
    postal_address: { line1: "Calle Mayor 5", city: "Madrid", postal_code: "28013", country: "ES" },
    ...fields,
  });
  await registerBankAccount(t.app, key, beneficiary.id, account);
  await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(key) });
  return beneficiary.id;
}

async function approved(beneficiaryId: string, amount: number, currency = "EUR"): Promise<string> {
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: amount, currency });
  expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
  return payout.payout_id;
}

async function files(): Promise<Array<Record<string, unknown>>> {
  return (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
}

function bankWrites(dir: string, name: string, content: string): void {
  mkdirSync(localFolder(root, business.businessId, dir), { recursive: true });
  writeFileSync(path.join(localFolder(root, business.businessId, dir), name), content);
}

/** Moves the clock past the next poll slot and runs everything due (the poll, then the outcome jobs). */
async function poll(): Promise<void> {
  t.clock.advance(61_000);
  await drain();
  await drain();
}

const types = async (payoutId: string) => (await payoutEvents(db(), payoutId)).map((e) => e.type);
const e2e = (payoutId: string) => payoutId.replaceAll("-", "");

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "bank-ingest-"));
  t = await buildTestApp({
    env: { BANK_RAIL_LOCAL_ROOT: root, BANK_RAIL_POLL_INTERVAL_SECONDS: "60", PAYOUT_RETURN_WINDOW_HOURS: "48" },
  });
  business = await registerBusiness(t.app);
  key = business.keys.production;
  const delivery = { kind: "local_directory", outbound_directory: "sepa/out", inbound_directory: "sepa/in" };
  expect(
    (
      await t.app.inject({
        method: "PUT",
        url: "/v1/bank-rails/sepa",
        headers: bearer(key),
        payload: sepaConfig({ delivery, status_report_timeout_hours: 2 }),
      })
    ).statusCode,
  ).toBe(201);
  expect(
    (await t.app.inject({ method: "PUT", url: "/v1/bank-rails/ach", headers: bearer(key), payload: achConfig() })).statusCode,
  ).toBe(201);
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("SEPA: approve -> cut-off -> file -> pain.002 -> camt.054 booked -> settled -> late return", () => {
  let good: string;
  let rejected: string;
  let file: Record<string, unknown>;

  it("delivers the file at the cut-off", async () => {
    const ana = await payee({
      account_holder_name: "Ana Pérez",
      country: "ES",
      currency: "EUR",
      iban: "ES9121000418450200051332",
    });
    good = await approved(ana, 10_000);
    rejected = await approved(ana, 2_000);
    await drain();
    t.clock.set(new Date("2026-05-27T13:00:00.000Z"));
    await drain();
    [file] = (await files()) as [Record<string, unknown>];
    expect(file).toMatchObject({ status: "uploaded", entry_count: 2 });
  });

  it("a pain.002 accepts one transaction and rejects the other with its reason code and words", async () => {
    bankWrites(
      "sepa/in",
      "pain002-1.xml",
      bankPain002({
        messageId: "STS-1",
        originalMessageId: String(file.message_id),
        groupStatus: "PART",
        paymentInfoId: `${String(file.message_id)}-0001`,
        transactions: [
          { endToEndId: e2e(good), status: "ACCP" },
          { endToEndId: e2e(rejected), status: "RJCT", reasonCode: "AC04" },
        ],
      }),
    );
    await poll();
    expect(await getPayout(t.app, key, good)).toMatchObject({ status: "approved" });
    expect(await types(good)).toEqual(["payout.disbursement_submitted", "payout.acknowledged"]);
    const failed = await getPayout(t.app, key, rejected);
    expect(failed).toMatchObject({ status: "failed", failure_reason: "AC04: The account is closed." });
    expect(await types(rejected)).toEqual(["payout.disbursement_submitted", "payout.failed"]);
    const after = (await files()).find((f) => f.id === file.id);
    expect(after).toMatchObject({ status: "partially_accepted", alerts: ["rejected"] });
    expect(after?.acknowledged_at).not.toBeNull();
  });

  it("the same file read again changes nothing (once per name and hash)", async () => {
    await poll();
    expect(await types(good)).toEqual(["payout.disbursement_submitted", "payout.acknowledged"]);
  });

  it("camt.054 booked -> disbursed; the return window closes -> settled; a late return -> returned", async () => {
    bankWrites(
      "sepa/in",
      "camt054-1.xml",
      bankCamt054({
        messageId: "NTF-1",
        bookings: [{ endToEndId: e2e(good), amount: "100.00", creditDebit: "DBIT", bookingDate: "2026-05-28" }],
      }),
    );
    await poll();
    expect(await getPayout(t.app, key, good)).toMatchObject({ status: "disbursed" });
    t.clock.advance(49 * HOUR);
    await drain();
    expect(await getPayout(t.app, key, good)).toMatchObject({ status: "settled" });
    bankWrites(
      "sepa/in",
      "camt054-2.xml",
      bankCamt054({
        messageId: "NTF-2",
        bookings: [
          { endToEndId: e2e(good), amount: "100.00", creditDebit: "CRDT", bookingDate: "2026-07-20", returnReasonCode: "MD07" },
        ],
      }),
    );
    await poll();
    expect(await getPayout(t.app, key, good)).toMatchObject({
      status: "returned",
      failure_reason: "MD07: The account holder is deceased.",
    });
    expect(await types(good)).toEqual([
      "payout.disbursement_submitted",
      "payout.acknowledged",
      "payout.disbursed",
      "payout.settled",
      "payout.returned",
    ]);
    const returned = (await payoutEvents(db(), good)).at(-1);
    expect(JSON.stringify(returned?.data)).toContain("MD07: The account holder is deceased.");
  });

  it("refuses an unparseable file visibly and applies nothing; flags entries naming no payout", async () => {
    const before = await types(good);
    bankWrites("sepa/in", "broken.xml", "<Document><CstmrPmtStsRpt><GrpHdr>");
    bankWrites(
      "sepa/in",
      "camt054-unknown.xml",
      bankCamt054({
        messageId: "NTF-3",
        bookings: [{ endToEndId: "0".repeat(32), amount: "1.00", creditDebit: "DBIT", bookingDate: "2026-07-21" }],
      }),
    );
    await poll();
    expect(await types(good)).toEqual(before);
    const inbound = await db().select().from(bankInboundFiles);
    const broken = inbound.find((f) => f.fileName === "broken.xml");
    expect(broken).toMatchObject({ status: "refused" });
    expect(broken?.refusalReason).toMatch(/well-formed|pain.002|camt.054/);
    expect(inbound.find((f) => f.fileName === "camt054-unknown.xml")?.unmatched).toEqual([`EndToEndId ${"0".repeat(32)}`]);
    const log = t.logLines.join("\n");
    expect(log).toContain("inbound bank file refused");
    const metrics = await t.runtime.deps.metrics.registry.getSingleMetricAsString("bank_file_events_total");
    expect(metrics).toContain('event="inbound_refused"');
    expect(metrics).toContain('event="unmatched_entry"');
  });

  it("flags a file that got no status report in time", async () => {
    const ana = await payee({
      account_holder_name: "Ana Pérez",
      country: "ES",
      currency: "EUR",
      iban: "ES9121000418450200051332",
    });
    t.clock.set(new Date("2026-07-22T12:00:00.000Z"));
    await approved(ana, 1_500);
    await drain();
    t.clock.set(new Date("2026-07-22T13:00:00.000Z"));
    await drain();
    const quiet = (await files()).find((f) => f.cutoff_at === "2026-07-22T13:00:00.000Z");
    expect(quiet).toMatchObject({ status: "uploaded", alerts: [] });
    t.clock.advance(3 * HOUR);
    await poll();
    expect((await files()).find((f) => f.id === quiet?.id)).toMatchObject({ alerts: ["no_status_report"] });
  });
});

describe("ACH: returns and notifications of change", () => {
  it("an R-code return fails a payout before settlement, a C-code is recorded on the entry and the file", async () => {
    const jane = await payee(US_ACCOUNT, { country_of_residence: "US", postal_address: null });
    t.clock.set(new Date("2026-07-27T18:00:00.000Z"));
    const returnedId = await approved(jane, 5_000, "USD");
    const changedId = await approved(jane, 6_000, "USD");
    await drain();
    t.clock.set(new Date("2026-07-27T20:00:00.000Z"));
    await drain();
    const achFile = (await files()).find((f) => f.rail === "ach" && f.cutoff_at === "2026-07-27T20:00:00.000Z");
    expect(achFile).toMatchObject({ status: "uploaded", entry_count: 2 });
    const sent = readNachaFile(
      readFileSync(path.join(localFolder(root, business.businessId, "ach/out"), String(achFile?.file_name)), "utf8"),
    );
    const entries = sent.batches.flatMap((b) => b.entries);
    const detail = (await t.app.inject({ method: "GET", url: `/v1/bank-files/${achFile?.id}`, headers: bearer(key) })).json();
    const traceOf = (id: string) => detail.payouts.find((p: { payout_id: string }) => p.payout_id === id).reference;
    const entryOf = (id: string) => entries.find((e) => e.traceNumber === traceOf(id));
    const asReturn = (id: string, code: string, correctedData?: string) => ({
      originalTrace: traceOf(id),
      receivingRouting: entryOf(id)?.receivingRouting ?? "",
      accountNumber: entryOf(id)?.accountNumber ?? "",
      amountMinor: entryOf(id)?.amountMinor ?? 0,
      name: entryOf(id)?.name ?? "",
      accountType: "checking" as const,
      code,
      ...(correctedData === undefined ? {} : { correctedData }),
    });
    bankWrites(
      "ach/in",
      "returns-1.ach",
      bankAchReturnFile({
        companyIdentification: "1234567890",
        odfiIdentification: "09100001",
        returns: [asReturn(returnedId, "R03")],
        changes: [asReturn(changedId, "C01", "987654321")],
      }),
    );
    await poll();
    expect(await getPayout(t.app, key, returnedId)).toMatchObject({
      status: "failed",
      failure_reason: "R03: No account, or the account could not be located.",
    });
    const after = (await t.app.inject({ method: "GET", url: `/v1/bank-files/${achFile?.id}`, headers: bearer(key) })).json();
    expect(after.bank_file.alerts).toContain("notification_of_change");
    expect(after.payouts.find((p: { payout_id: string }) => p.payout_id === changedId).bank_status).toBe("C01");
    // The Business sees the correction on the bank account; the account itself is left as it was.
    const account = (await getPayout(t.app, key, changedId)) as { beneficiary_id: string; bank_account_id: string };
    const accounts = await t.app.inject({
      method: "GET",
      url: `/v1/beneficiaries/${account.beneficiary_id}/bank-accounts`,
      headers: bearer(key),
    });
    expect(accounts.statusCode, accounts.body).toBe(200);
    const corrected = accounts.json().bank_accounts.find((a: { id: string }) => a.id === account.bank_account_id);
    expect(corrected).toMatchObject({
      notification_of_change: {
        code: "C01",
        description: "C01: Incorrect account number.",
        corrected_data: "*****4321",
        payout_id: changedId,
        received_at: t.clock.now().toISOString(),
      },
      last4: "6789",
      payout_usable: true,
    });
    // The corrected payout still settles on its effective date (Tuesday 2026-07-28, 17:00 New York).
    t.clock.set(new Date("2026-07-28T21:30:00.000Z"));
    await drain();
    expect(await getPayout(t.app, key, changedId)).toMatchObject({ status: "disbursed" });
    expect(await getPayout(t.app, key, returnedId)).toMatchObject({ status: "failed" });
  });
});
