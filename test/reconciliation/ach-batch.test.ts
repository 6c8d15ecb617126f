// The `batch` rule for ACH (issue 28), on both databases: the NACHA file the cut-off writes names each batch in its
// batch header (Company Discretionary Data: achBatchReference), the same reference is kept on the batch's items
// (bank_file_items.payment_info_id), and a BAI2 line booking the batch as one carries it as its customer reference.
// One line for a 3-payout batch matches the three; a batch with one entry returned before it settled (the bank's
// NACHA return fails that payout) booked as the accepted amount matches the other two.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankFileItems } from "../../src/modules/bank-rails/bank-rails.schema.js";
import type { Tenant } from "../../src/platform/auth/actor.js";
import { readNachaFile } from "../../src/rails/bank-files/nacha-reader.js";
import { type BankStatement, readBankStatements } from "../../src/rails/bank-files/statements.js";
import { achConfig, localFolder, US_ACCOUNT, uniqueAchOriginator } from "../bank-rails/bank-rail-fixtures.js";
import { writeBai2File } from "../fixtures/statements/writers.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import type { TestApp } from "../helpers/test-app.js";
import { bankAchReturnFile } from "../helpers/test-bank.js";
import { createPayout, decide, getPayout } from "../payouts/payout-fixtures.js";
import { buildReconApp, drain, getJson, HOUR, line, linesOf, reconService, unique } from "./recon-fixtures.js";

let t: TestApp;
let root: string;

beforeAll(async () => {
  ({ t, root } = await buildReconApp());
});
afterAll(async () => t?.close());

interface AchScenario {
  readonly business: RegisteredBusiness;
  readonly key: string;
  readonly tenant: Tenant;
  readonly accountNumber: string;
  readonly payouts: string[];
  /** The batch reference in the file's batch header. */
  readonly batchReference: string;
  readonly effectiveDate: string;
  readonly file: ReturnType<typeof readNachaFile>;
}

let accounts = 0;
/** A Business with an ACH rail on local folders and payouts of these amounts approved and sent in one NACHA file. */
async function sentAch(amounts: readonly number[]): Promise<AchScenario> {
  const business = await registerBusiness(t.app);
  const key = business.keys.production;
  accounts += 1;
  const accountNumber = `7700${String(accounts).padStart(6, "0")}${Math.floor(Math.random() * 1e6)}`.slice(0, 17);
  t.clock.set(new Date("2026-06-01T14:00:00.000Z")); // Monday, 10:00 in New York
  const configured = await t.app.inject({
    method: "PUT",
    url: "/v1/bank-rails/ach",
    headers: bearer(key),
    payload: achConfig({ originator: { ...uniqueAchOriginator(), account_number: accountNumber } }),
  });
  expect(configured.statusCode, configured.body).toBe(201);
  const beneficiary = await createBeneficiary(t.app, key, {
    first_name: "Jane",
    last_name: "Doe",
    country_of_residence: "US",
    postal_address: null,
  });
  await registerBankAccount(t.app, key, beneficiary.id, US_ACCOUNT);
  await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(key) });
  const payouts: string[] = [];
  for (const amount of amounts) {
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiary.id, amount_minor: amount, currency: "USD" });
    expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
    payouts.push(payout.payout_id);
  }
  await drain(t);
  t.clock.advance(7 * HOUR); // past the 16:00 New York cut-off
  await drain(t);
  const listed = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
  const sent = (listed as Array<Record<string, unknown>>).find((f) => f.rail === "ach");
  expect(sent).toMatchObject({ status: "uploaded", entry_count: amounts.length });
  const file = readNachaFile(
    readFileSync(path.join(localFolder(root, business.businessId, "ach/out"), String(sent?.file_name)), "utf8"),
  );
  expect(file.batches).toHaveLength(1);
  const batch = file.batches[0];
  if (batch === undefined) throw new Error("no batch");
  return {
    business,
    key,
    tenant: { businessId: business.businessId, environment: "production" },
    accountNumber,
    payouts,
    batchReference: batch.companyDiscretionaryData,
    effectiveDate: batch.effectiveDate,
    file,
  };
}

/** The bank's BAI2 file for the effective date: one line booking `amountMinor` for the batch, read back. */
function bai2BookingTheBatch(s: AchScenario, amountMinor: number, entries: number): BankStatement[] {
  const statement: BankStatement = {
    format: "bai2",
    messageVersion: "bai2",
    messageId: "",
    statementId: "",
    sequenceNumber: null,
    account: { iban: null, number: s.accountNumber, currency: "USD" },
    createdAt: `${s.effectiveDate}T23:00:00`,
    periodFrom: s.effectiveDate,
    periodTo: s.effectiveDate,
    openingBookedMinor: null,
    closingBookedMinor: null,
    closingDate: s.effectiveDate,
    lines: [
      line({
        currency: "USD",
        bookingDate: s.effectiveDate,
        valueDate: null,
        amountMinor,
        bankTransactionCode: "455",
        achTrace: s.batchReference,
        remittance: `ACH ORIGINATION SETTLEMENT BATCH ${s.batchReference} ${entries} ITEMS`,
      }),
    ],
  };
  const text = writeBai2File(
    {
      sender: "091000019",
      receiver: "PAYOUTSCO",
      fileId: unique("F").replace(/[^A-Za-z0-9]/g, ""),
      createdAt: statement.createdAt,
    },
    [statement],
  );
  return readBankStatements(text);
}

async function matchOf(s: AchScenario, statements: BankStatement[]) {
  const applied = await reconService(t).receiveStatements(s.tenant, statements);
  const [only] = await linesOf(t, s.key, String(applied.statements[0]?.id));
  return only as Record<string, unknown> & { match: { rule: string; payout_ids: string[] } | null };
}

describe("batch (ACH)", () => {
  it("the batch reference of the NACHA batch header is kept on its items; one BAI2 line for the 3-payout batch books all three", async () => {
    const s = await sentAch([1_000, 2_000, 3_000]);
    expect(s.batchReference).toMatch(/^\d{6}[A-Z0-9]\d{7}$/);
    const items = await t.runtime.deps.database.db
      .select({ payoutId: bankFileItems.payoutId, paymentInfoId: bankFileItems.paymentInfoId })
      .from(bankFileItems)
      .where(eq(bankFileItems.businessId, s.business.businessId));
    expect(items.map((i) => i.paymentInfoId)).toEqual([s.batchReference, s.batchReference, s.batchReference]);
    const only = await matchOf(s, bai2BookingTheBatch(s, 6_000, 3));
    expect(only).toMatchObject({ status: "matched", match: { rule: "batch", difference_minor: 0 } });
    expect([...(only.match?.payout_ids ?? [])].sort()).toEqual([...s.payouts].sort());
    for (const id of s.payouts)
      expect(await getPayout(t.app, s.key, id)).toMatchObject({ status: "disbursed", reconciliation_status: "reconciled" });
  });

  it("a batch with one entry returned before it settled, booked as the accepted amount, books the other two", async () => {
    const s = await sentAch([1_500, 2_500, 4_000]);
    const returnedId = s.payouts[1] as string;
    const detail = await getJson(t, s.key, `/v1/payouts/${returnedId}`);
    expect(detail.status).toBe("approved");
    // The bank's NACHA return for the second entry, before the effective date: the payout fails.
    const entries = s.file.batches.flatMap((b) => b.entries);
    const returned = entries.find((e) => e.amountMinor === 2_500);
    if (returned === undefined) throw new Error("no entry of 25.00");
    const inbound = localFolder(root, s.business.businessId, "ach/in");
    mkdirSync(inbound, { recursive: true });
    writeFileSync(
      path.join(inbound, "returns-1.ach"),
      bankAchReturnFile({
        companyIdentification: s.file.batches[0]?.companyIdentification ?? "",
        odfiIdentification: "09100001",
        returns: [
          {
            originalTrace: returned.traceNumber,
            receivingRouting: returned.receivingRouting,
            accountNumber: returned.accountNumber,
            amountMinor: returned.amountMinor,
            name: returned.name,
            accountType: "checking",
            code: "R03",
          },
        ],
        changes: [],
      }),
    );
    t.clock.advance(61_000);
    await drain(t);
    await drain(t);
    expect(await getPayout(t.app, s.key, returnedId)).toMatchObject({ status: "failed" });
    const only = await matchOf(s, bai2BookingTheBatch(s, 5_500, 2));
    expect(only).toMatchObject({ status: "matched", match: { rule: "batch", difference_minor: 0 } });
    expect([...(only.match?.payout_ids ?? [])].sort()).toEqual([s.payouts[0], s.payouts[2]].sort());
    expect(await getPayout(t.app, s.key, returnedId)).toMatchObject({ status: "failed", reconciliation_status: "unreconciled" });
  });
});
