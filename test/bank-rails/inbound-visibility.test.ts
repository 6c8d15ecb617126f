// Inbound problems are shown to the Business (issue 25, item 7): every file the bank sent is listed with its
// status, what it moved and each problem in words (GET /v1/bank-inbound-files); refused files, unmatched items
// and notifications of change are events; the same content under another name is a duplicate that applies
// nothing; a NOC's correction is kept encrypted and applied with one call. Files go through local folders.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destinations } from "../../src/modules/destinations/destinations.schema.js";
import { readNachaFile } from "../../src/rails/bank-files/nacha-reader.js";
import {
  bearer,
  createApiKey,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { bankAchReturnFile, bankCamt054, checkBankAnswersOfThisFile } from "../helpers/test-bank.js";
import { createPayout, decide, getPayout, payoutEvents } from "../payouts/payout-fixtures.js";
import {
  achConfig,
  localFolder,
  sepaConfig,
  US_ACCOUNT,
  uniqueAchOriginator,
  uniqueSepaOriginator,
} from "./bank-rail-fixtures.js";

// Every pain.002 and camt.054 this file sends is checked against its ISO 20022 schema after its tests.
checkBankAnswersOfThisFile();

const LIMIT = 65_536;
let t: TestApp;
let root: string;
let business: RegisteredBusiness;
let other: RegisteredBusiness;
let key: string;
let companyIdentification: string;
const db = () => t.runtime.deps.database.db;
const drain = () => t.runtime.createWorker(`w-${Math.random()}`).drain();

type InboundFile = {
  id: string;
  rail: string;
  file_name: string;
  kind: string;
  size_bytes: number | null;
  status: string;
  duplicate_of: string | null;
  moved: Array<{ payout_id: string; outcome: string; bank_status: string | null }>;
  problems: Array<{ reference: string | null; reason: string }>;
};

function bankWrites(dir: string, name: string, content: string | Buffer): void {
  mkdirSync(localFolder(root, business.businessId, dir), { recursive: true });
  writeFileSync(path.join(localFolder(root, business.businessId, dir), name), content);
}

async function poll(): Promise<void> {
  t.clock.advance(61_000);
  await drain();
  await drain();
}

async function inbound(query = "", as = key): Promise<InboundFile[]> {
  const response = await t.app.inject({ method: "GET", url: `/v1/bank-inbound-files${query}`, headers: bearer(as) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().bank_inbound_files;
}

const named = async (name: string) => (await inbound()).find((f) => f.file_name === name);

async function eventsOf(type: string): Promise<Array<{ data: Record<string, unknown> }>> {
  const response = await t.app.inject({ method: "GET", url: `/v1/events?type=${type}&limit=100`, headers: bearer(key) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().events;
}

async function approved(beneficiaryId: string, amount: number, currency: string): Promise<string> {
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: amount, currency });
  expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
  return payout.payout_id;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "bank-inbound-view-"));
  t = await buildTestApp({
    env: {
      BANK_RAIL_LOCAL_ROOT: root,
      BANK_RAIL_POLL_INTERVAL_SECONDS: "60",
      BANK_RAIL_INBOUND_MAX_FILE_BYTES: String(LIMIT),
    },
  });
  business = await registerBusiness(t.app);
  other = await registerBusiness(t.app);
  key = business.keys.production;
  const sepa = await t.app.inject({
    method: "PUT",
    url: "/v1/bank-rails/sepa",
    headers: bearer(key),
    payload: sepaConfig({
      originator: uniqueSepaOriginator(),
      delivery: { kind: "local_directory", outbound_directory: "sepa/out", inbound_directory: "sepa/in" },
    }),
  });
  expect(sepa.statusCode, sepa.body).toBe(201);
  const originator = uniqueAchOriginator();
  companyIdentification = String(originator.company_identification);
  const ach = await t.app.inject({
    method: "PUT",
    url: "/v1/bank-rails/ach",
    headers: bearer(key),
    payload: achConfig({ originator }),
  });
  expect(ach.statusCode, ach.body).toBe(201);
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("ACH answers: unmatched items, a notification of change, the same file under another name", () => {
  let returnedId: string;
  let changedId: string;
  let beneficiaryId: string;
  let accountId: string;
  let returnsText: string;
  let returnsFileId: string;

  it("lists what a return file moved and each item that moved nothing, with an event per item", async () => {
    const beneficiary = await createBeneficiary(t.app, key, {
      first_name: "Jane",
      last_name: "Doe",
      country_of_residence: "US",
    });
    beneficiaryId = beneficiary.id;
    accountId = (await registerBankAccount(t.app, key, beneficiaryId, US_ACCOUNT)).id;
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiaryId}/acknowledge`, headers: bearer(key) });
    t.clock.set(new Date("2026-07-27T18:00:00.000Z"));
    returnedId = await approved(beneficiaryId, 5_000, "USD");
    changedId = await approved(beneficiaryId, 6_000, "USD");
    await drain();
    t.clock.set(new Date("2026-07-27T20:00:00.000Z"));
    await drain();
    const files = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
    const achFile = files.find((f: { rail: string }) => f.rail === "ach");
    expect(achFile).toMatchObject({ status: "uploaded", entry_count: 2 });
    const sent = readNachaFile(
      readFileSync(path.join(localFolder(root, business.businessId, "ach/out"), String(achFile.file_name)), "utf8"),
    );
    const entries = sent.batches.flatMap((b) => b.entries);
    const detail = (await t.app.inject({ method: "GET", url: `/v1/bank-files/${achFile.id}`, headers: bearer(key) })).json();
    const traceOf = (id: string) => detail.payouts.find((p: { payout_id: string }) => p.payout_id === id).reference;
    const entryOf = (id: string) => entries.find((e) => e.traceNumber === traceOf(id));
    const answer = (id: string, code: string, correctedData?: string) => ({
      originalTrace: traceOf(id),
      receivingRouting: entryOf(id)?.receivingRouting ?? "",
      accountNumber: entryOf(id)?.accountNumber ?? "",
      amountMinor: entryOf(id)?.amountMinor ?? 0,
      name: entryOf(id)?.name ?? "",
      accountType: "checking" as const,
      code,
      ...(correctedData === undefined ? {} : { correctedData }),
    });
    returnsText = bankAchReturnFile({
      companyIdentification,
      odfiIdentification: "09100001",
      returns: [
        answer(returnedId, "R03"),
        // A return naming a trace we never sent: shown, nothing moved.
        { ...answer(returnedId, "R02"), originalTrace: "091000019999999" },
      ],
      // C03: routing number 011000015, three spaces, account number 987654321.
      changes: [answer(changedId, "C03", "011000015   987654321")],
    });
    bankWrites("ach/in", "returns-1.ach", returnsText);
    await poll();

    const file = await named("returns-1.ach");
    returnsFileId = String(file?.id);
    expect(file).toMatchObject({
      rail: "ach",
      kind: "nacha_returns",
      status: "partially_applied",
      duplicate_of: null,
      moved: [
        { payout_id: returnedId, outcome: "returned", bank_status: "R03" },
        { payout_id: changedId, outcome: "notification_of_change", bank_status: "C03" },
      ],
      problems: [
        {
          reference: "091000019999999",
          reason:
            "ACH return R02 for trace 091000019999999: none of our ACH entries carries this trace number; nothing was moved.",
        },
      ],
    });
    expect(await getPayout(t.app, key, returnedId)).toMatchObject({ status: "failed" });
    expect((await inbound("?status=partially_applied")).map((f) => f.file_name)).toEqual(["returns-1.ach"]);
    expect(await eventsOf("bank_file.item_unmatched")).toEqual([
      expect.objectContaining({
        data: {
          inbound_file_id: returnsFileId,
          rail: "ach",
          file_name: "returns-1.ach",
          reference: "091000019999999",
          reason:
            "ACH return R02 for trace 091000019999999: none of our ACH entries carries this trace number; nothing was moved.",
        },
      }),
    ]);
    const one = await t.app.inject({ method: "GET", url: `/v1/bank-inbound-files/${returnsFileId}`, headers: bearer(key) });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(file);
  });

  it("announces the notification of change, masked; the correction is kept encrypted, never shown", async () => {
    const [event] = await eventsOf("beneficiary.bank_account.notification_of_change");
    expect(event?.data).toEqual({
      beneficiary_id: beneficiaryId,
      bank_account_id: accountId,
      code: "C03",
      description: "C03: Incorrect routing number and account number.",
      corrected_fields: ["routing_number", "account_number"],
      corrected_data: "011000015 *****4321",
      payout_id: changedId,
      received_at: t.clock.now().toISOString(),
    });
    const accounts = await t.app.inject({
      method: "GET",
      url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts`,
      headers: bearer(key),
    });
    const account = accounts.json().bank_accounts.find((a: { id: string }) => a.id === accountId);
    expect(account).toMatchObject({
      last4: "6789",
      notification_of_change: { code: "C03", corrected_data: "011000015 *****4321", can_apply: true, applied_at: null },
    });
    expect(accounts.body).not.toContain("987654321");
    expect(accounts.body).not.toContain("correction_encrypted");
    // At rest: encrypted, not in clear.
    const [row] = await db().select().from(destinations).where(eq(destinations.id, accountId));
    expect(JSON.stringify(row?.notificationOfChange)).not.toContain("987654321");
    expect(JSON.stringify(row?.notificationOfChange)).toContain("correction_encrypted");
  });

  it("the same bytes under another name are a duplicate: listed, nothing applied, no second event", async () => {
    const before = (await payoutEvents(db(), returnedId)).map((e) => e.type);
    bankWrites("ach/in", "returns-1-resent.ach", returnsText);
    await poll();
    const copy = await named("returns-1-resent.ach");
    expect(copy).toMatchObject({ status: "duplicate", duplicate_of: returnsFileId, moved: [] });
    expect(copy?.problems).toEqual([
      {
        reference: null,
        reason: expect.stringMatching(
          /^The same content as returns-1\.ach, received .*: the bank sent the file twice; nothing was applied again\.$/,
        ),
      },
    ]);
    expect((await payoutEvents(db(), returnedId)).map((e) => e.type)).toEqual(before);
    expect(await eventsOf("bank_file.item_unmatched")).toHaveLength(1);
    expect(await eventsOf("beneficiary.bank_account.notification_of_change")).toHaveLength(1);
    expect((await inbound("?status=duplicate")).map((f) => f.file_name)).toEqual(["returns-1-resent.ach"]);
  });

  it("roles and tenants: every role reads the list; another Business sees none of it; only admins apply", async () => {
    const readOnly = await createApiKey(t.app, key, "business_read_only");
    expect((await inbound("", readOnly.key)).length).toBeGreaterThan(0);
    const theirs = other.keys.production;
    expect(await inbound("", theirs)).toEqual([]);
    expect(
      (await t.app.inject({ method: "GET", url: `/v1/bank-inbound-files/${returnsFileId}`, headers: bearer(theirs) })).statusCode,
    ).toBe(404);
    // The sandbox of the same Business sees none of production's files.
    expect(await inbound("", business.keys.sandbox)).toEqual([]);
    const url = `/v1/beneficiaries/${beneficiaryId}/bank-accounts/${accountId}/notification-of-change/apply`;
    expect((await t.app.inject({ method: "POST", url, headers: bearer(readOnly.key) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: "POST", url, headers: bearer(theirs) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "POST", url, headers: bearer(business.keys.sandbox) })).statusCode).toBe(404);
    // An account the bank sent no notification about: nothing to apply.
    const plain = await registerBankAccount(t.app, key, beneficiaryId, { ...US_ACCOUNT, account_number: "555000111" });
    const none = await t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts/${plain.id}/notification-of-change/apply`,
      headers: bearer(key),
    });
    expect(none.statusCode).toBe(409);
    expect(none.json().error.code).toBe("NOTIFICATION_OF_CHANGE_NOT_APPLICABLE");
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts/${plain.id}`,
      headers: bearer(key),
    });
    expect(removed.statusCode).toBe(204);
  });

  it("pages with a cursor", async () => {
    const all = await inbound("?limit=100");
    expect(all.length).toBe(2);
    const first = await t.app.inject({ method: "GET", url: "/v1/bank-inbound-files?limit=1", headers: bearer(key) });
    const second = await t.app.inject({
      method: "GET",
      url: `/v1/bank-inbound-files?limit=100&cursor=${first.json().next_cursor}`,
      headers: bearer(key),
    });
    expect([...first.json().bank_inbound_files, ...second.json().bank_inbound_files].map((f: InboundFile) => f.id)).toEqual(
      all.map((f) => f.id),
    );
  });

  it("applies the correction with one call: audited, announced, and the next file pays the corrected account, queued payouts included", async () => {
    // A payout approved and queued for the next cut-off before the correction: the file pays the corrected account.
    t.clock.set(new Date("2026-07-28T18:00:00.000Z"));
    const next = await approved(beneficiaryId, 7_000, "USD");
    await drain();
    const url = `/v1/beneficiaries/${beneficiaryId}/bank-accounts/${accountId}/notification-of-change/apply`;
    const applied = await t.app.inject({ method: "POST", url, headers: bearer(key) });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({
      id: accountId,
      last4: "4321",
      payout_usable: true,
      notification_of_change: { code: "C03", can_apply: false, applied_at: t.clock.now().toISOString() },
    });
    expect(applied.body).not.toContain("987654321");
    // Once only.
    const again = await t.app.inject({ method: "POST", url, headers: bearer(key) });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe("NOTIFICATION_OF_CHANGE_NOT_APPLICABLE");

    const audit = await t.app.inject({
      method: "GET",
      url: "/v1/audit-records?action=bank_account_corrected",
      headers: bearer(key),
    });
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json().audit_records).toEqual([
      expect.objectContaining({
        action: "bank_account_corrected",
        subject: { type: "bank_account", id: accountId },
        details: expect.objectContaining({ last4: "4321", previous_last4: "6789", code: "C03" }),
      }),
    ]);
    expect(audit.body).not.toContain("987654321");
    expect(audit.body).not.toContain("123456789");
    const [corrected] = await eventsOf("beneficiary.bank_account.corrected");
    expect(corrected?.data).toEqual({
      beneficiary_id: beneficiaryId,
      bank_account_id: accountId,
      code: "C03",
      corrected_fields: ["routing_number", "account_number"],
      last4: "4321",
      previous_last4: "6789",
    });

    // The queued payout's entry carries the corrected routing and account numbers.
    t.clock.set(new Date("2026-07-28T20:00:00.000Z"));
    await drain();
    const files = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
    const achFile = files.find(
      (f: { rail: string; cutoff_at: string }) => f.rail === "ach" && f.cutoff_at === "2026-07-28T20:00:00.000Z",
    );
    expect(achFile).toMatchObject({ entry_count: 1 });
    const written = readNachaFile(
      readFileSync(path.join(localFolder(root, business.businessId, "ach/out"), String(achFile.file_name)), "utf8"),
    );
    const [entry] = written.batches.flatMap((b) => b.entries);
    expect(entry).toMatchObject({ receivingRouting: "011000015", accountNumber: "987654321", amountMinor: 7_000 });
    expect(await getPayout(t.app, key, next)).toMatchObject({ bank_account_id: accountId });
  });
});

describe("refused files are listed with their reason in words, and are events", () => {
  it("a truncated camt.054, a file that is not XML, a malformed NACHA file and one over the size limit", async () => {
    // The bank's folders are read once a file was sent: a SEPA file first (the ACH one went above).
    const ana = await createBeneficiary(t.app, key, {
      first_name: "Ana",
      last_name: "Pérez",
      country_of_residence: "ES",
      postal_address: { line1: "Calle Mayor 5", city: "Madrid", postal_code: "28013", country: "ES" },
    });
    await registerBankAccount(t.app, key, ana.id, {
      account_holder_name: "Ana Pérez",
      country: "ES",
      currency: "EUR",
      iban: "ES9121000418450200051332",
    });
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${ana.id}/acknowledge`, headers: bearer(key) });
    t.clock.set(new Date("2026-07-29T12:00:00.000Z"));
    await approved(ana.id, 1_000, "EUR");
    await drain();
    t.clock.set(new Date("2026-07-29T13:00:00.000Z"));
    await drain();
    const camt = bankCamt054({
      messageId: "NTF-CUT",
      bookings: [{ endToEndId: "1".repeat(32), amount: "10.00", creditDebit: "DBIT", bookingDate: "2026-05-28" }],
    });
    bankWrites("sepa/in", "camt054-cut.xml", camt.slice(0, camt.lastIndexOf("<", Math.floor(camt.length / 2))));
    bankWrites("sepa/in", "statement.pdf", "%PDF-1.7 not a bank message");
    const achText = bankAchReturnFile({
      companyIdentification,
      odfiIdentification: "09100001",
      returns: [
        {
          originalTrace: "091000010000001",
          receivingRouting: "021000021",
          accountNumber: "123456789",
          amountMinor: 100,
          name: "Jane Doe",
          accountType: "checking",
          code: "R03",
        },
      ],
      changes: [],
    });
    const lines = achText.split("\n");
    lines[2] = (lines[2] ?? "").slice(0, 50);
    bankWrites("ach/in", "returns-broken.ach", lines.join("\n"));
    bankWrites("ach/in", "huge.ach", Buffer.alloc(LIMIT + 10, "9"));
    await poll();

    const cut = await named("camt054-cut.xml");
    expect(cut).toMatchObject({ rail: "sepa", status: "refused", kind: "unknown", moved: [] });
    expect(cut?.problems).toHaveLength(1);
    expect(cut?.problems[0]?.reference).toBeNull();
    // fast-xml-parser's own words were `Invalid '[ "Document", ... ]' found.:1:1`.
    expect(cut?.problems[0]?.reason).toMatch(
      /^The file is not well-formed XML: it ends \(line \d+, column \d+\) with \d+ elements left open \(<Document> > <BkToCstmrDbtCdtNtfctn> > .*\); it looks cut short\.$/,
    );
    expect((await named("statement.pdf"))?.problems[0]?.reason).toBe(
      'The file is not XML: it starts with "%PDF-1.7 not a bank ", not with an element.',
    );
    expect((await named("returns-broken.ach"))?.problems[0]?.reason).toBe(
      "The file is not a valid NACHA file: line 3: a record must have 94 characters, this one has 50.",
    );
    const huge = await named("huge.ach");
    expect(huge).toMatchObject({ status: "refused", size_bytes: LIMIT + 10 });
    expect(huge?.problems[0]?.reason).toContain(`over the ${LIMIT}-byte limit for inbound files`);

    const refused = (await eventsOf("bank_file.refused")).map((e) => e.data);
    expect(refused).toHaveLength(4);
    for (const name of ["camt054-cut.xml", "statement.pdf", "returns-broken.ach", "huge.ach"]) {
      const file = await named(name);
      expect(refused).toContainEqual({
        inbound_file_id: file?.id,
        rail: file?.rail,
        file_name: name,
        reason: file?.problems[0]?.reason,
      });
    }
    // Filters: by status and by rail.
    expect((await inbound("?status=refused")).map((f) => f.file_name).sort()).toEqual(
      ["camt054-cut.xml", "huge.ach", "returns-broken.ach", "statement.pdf"].sort(),
    );
    expect((await inbound("?status=refused&rail=ach")).map((f) => f.file_name).sort()).toEqual([
      "huge.ach",
      "returns-broken.ach",
    ]);
    // The next poll neither records nor announces them again.
    await poll();
    expect(await eventsOf("bank_file.refused")).toHaveLength(4);
  });
});
