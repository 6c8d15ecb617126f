// Reconciliation scenarios (issue 28): a Business with a SEPA rail on local folders, payouts sent in one bank file
// (their EndToEndIds and PmtInfId known), and statements built as the readers give them (BankStatement objects),
// applied through the module's service as an upload or an inbound file would.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import type { BankStatement, ReconciliationService, StatementLine } from "../../src/modules/reconciliation/index.js";
import type { Tenant } from "../../src/platform/auth/actor.js";
import { localFolder, sepaConfig, uniqueSepaOriginator } from "../bank-rails/bank-rail-fixtures.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide } from "../payouts/payout-fixtures.js";

export const HOUR = 3_600_000;

export async function buildReconApp(env: Record<string, string> = {}): Promise<{ t: TestApp; root: string }> {
  const root = mkdtempSync(path.join(tmpdir(), "recon-"));
  const t = await buildTestApp({
    env: { BANK_RAIL_LOCAL_ROOT: root, BANK_RAIL_POLL_INTERVAL_SECONDS: "60", ...env },
  });
  // Summer: Berlin is UTC+2; a Monday.
  t.clock.set(new Date("2026-06-01T06:00:00.000Z"));
  return { t, root };
}

export function reconService(t: TestApp): ReconciliationService {
  const module = t.runtime.deps.modules.modules.find((m) => m.name === "reconciliation");
  const service = (module?.offers as { service?: ReconciliationService } | undefined)?.service;
  if (service === undefined) throw new Error("no reconciliation module");
  return service;
}

export interface Scenario {
  readonly business: RegisteredBusiness;
  readonly key: string;
  readonly tenant: Tenant;
  readonly iban: string;
  readonly beneficiaryId: string;
  /** Payout ids in the order of `amounts`. */
  readonly payouts: string[];
  readonly fileMessageId: string;
  /** The PmtInfId of the file's one payment block. */
  readonly block: string;
  readonly fundingAccountId: string;
}

export const drain = (t: TestApp) => t.runtime.createWorker(`w-${Math.random()}`).drain();

/** A Business with a SEPA rail, one Beneficiary, and payouts of these amounts approved and sent in one file. */
export async function sentPayouts(t: TestApp, amounts: readonly number[], business?: RegisteredBusiness): Promise<Scenario> {
  const owner = business ?? (await registerBusiness(t.app));
  const key = owner.keys.production;
  const originator = uniqueSepaOriginator();
  const delivery = { kind: "local_directory", outbound_directory: "sepa/out", inbound_directory: "sepa/in" };
  const configured = await t.app.inject({
    method: "PUT",
    url: "/v1/bank-rails/sepa",
    headers: bearer(key),
    payload: sepaConfig({ originator, delivery, status_report_timeout_hours: 72 }),
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
  await drain(t);
  t.clock.advance(19 * HOUR); // past the next cut-off
  await drain(t);
  const listed = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
  const file = listed[0] as Record<string, unknown>;
  expect(file).toMatchObject({ status: "uploaded" });
  const accounts = (await t.app.inject({ method: "GET", url: "/v1/funding-accounts", headers: bearer(key) })).json()
    .funding_accounts as Array<{ id: string; kind: string; currency: string }>;
  const account = accounts.find((a) => a.kind === "bank_rail" && a.currency === "EUR");
  if (account === undefined) throw new Error("no SEPA funding account");
  return {
    business: owner,
    key,
    tenant: { businessId: owner.businessId, environment: "production" },
    iban: String(originator.iban),
    beneficiaryId: beneficiary.id,
    payouts,
    fileMessageId: String(file.message_id),
    block: `${String(file.message_id)}-0001`,
    fundingAccountId: account.id,
  };
}

export const e2e = (payoutId: string) => payoutId.replaceAll("-", "");

let counter = 0;
/** A unique id for message and statement ids. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export function line(overrides: Partial<StatementLine> = {}): StatementLine {
  return {
    bankReference: unique("REF"),
    status: "booked",
    bookingDate: "2026-06-01",
    valueDate: "2026-06-01",
    direction: "debit",
    amountMinor: 1_000,
    currency: "EUR",
    reversal: false,
    bankTransactionCode: "PMNT/ICDT/ESCT",
    paymentInformationId: null,
    batchCount: null,
    batchTotalMinor: null,
    achTrace: null,
    remittance: null,
    details: [],
    ...overrides,
  };
}

/** A debit booking one payout by its EndToEndId. */
export function bookingOf(payoutId: string, amountMinor: number, overrides: Partial<StatementLine> = {}): StatementLine {
  return line({
    amountMinor,
    details: [
      {
        endToEndId: e2e(payoutId),
        instructionId: null,
        paymentInformationId: null,
        amountMinor,
        returnInfo: null,
        remittance: null,
      },
    ],
    ...overrides,
  });
}

export function statement(
  s: Pick<Scenario, "iban">,
  lines: readonly StatementLine[],
  overrides: Partial<BankStatement> = {},
): BankStatement {
  return {
    format: "camt.053",
    messageVersion: "camt.053.001.08",
    messageId: unique("MSG"),
    statementId: unique("STMT"),
    sequenceNumber: null,
    account: { iban: s.iban, number: null, currency: "EUR" },
    createdAt: "2026-06-01T20:00:00Z",
    periodFrom: "2026-06-01",
    periodTo: "2026-06-01",
    openingBookedMinor: null,
    closingBookedMinor: null,
    closingDate: "2026-06-01",
    lines: [...lines],
    ...overrides,
  };
}

export async function getJson(t: TestApp, key: string, url: string): Promise<Record<string, unknown> & { [k: string]: unknown }> {
  const response = await t.app.inject({ method: "GET", url, headers: bearer(key) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

export async function linesOf(t: TestApp, key: string, statementId: string): Promise<Array<Record<string, unknown>>> {
  return (await getJson(t, key, `/v1/statement-lines?statement_id=${statementId}&limit=200`)).statement_lines as Array<
    Record<string, unknown>
  >;
}

export { localFolder };
