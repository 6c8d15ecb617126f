// GET /v1/payouts/export: the list's filters as a streamed CSV file, with the payee's name and the masked
// destination, formula-safe, audited, isolated by Business and environment, and read batch by batch as the
// client takes it (a few thousand payouts never all in memory).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPayoutExportService, openPayoutCsvStream } from "../../src/modules/payouts/payouts.export.js";
import type { Tenant } from "../../src/platform/auth/actor.js";
import { parseCsv } from "../beneficiary-export/csv.js";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { newKey, payableBeneficiary } from "./payout-fixtures.js";

let t: TestApp;
let business: RegisteredBusiness;
let other: RegisteredBusiness;
let key: string;
let payee: { beneficiaryId: string; destinationId: string; last4: string };
let payeeName: string;
const uploadId = newKey("export");

const HEADER = [
  "payout_id",
  "created_at",
  "status",
  "amount",
  "amount_minor",
  "currency",
  "beneficiary_id",
  "payee_name",
  "bank_account_id",
  "destination_kind",
  "destination_scheme",
  "destination_country",
  "destination_last4",
  "external_ref",
  "channel",
  "upload_id",
  "replaces_payout_id",
  "rail",
  "failure_reason",
  "disbursed_at",
  "settled_at",
  "updated_at",
];
const REFS = ["=HYPERLINK(1)", "+1", "-2", "@SUM(A1)", "\uFF1Dx", "plain", " =1+1"];

beforeAll(async () => {
  t = await buildTestApp();
  business = await registerBusiness(t.app);
  other = await registerBusiness(t.app);
  key = business.keys.sandbox;
  payee = await payableBeneficiary(t.app, key);
  const got = await t.app.inject({ method: "GET", url: `/v1/beneficiaries/${payee.beneficiaryId}`, headers: bearer(key) });
  payeeName = got.json().display_name;
  const rows = REFS.map((ref, i) => ({
    beneficiary_id: payee.beneficiaryId,
    amount: `${10 + i}.25`,
    currency: "EUR",
    external_ref: ref,
  }));
  const sent = await t.app.inject({ method: "POST", url: "/v1/payouts/bulk", headers: bearer(key), payload: { uploadId, rows } });
  expect(sent.json().created, sent.body).toBe(REFS.length);
  // The other Business's payouts and this Business's production environment must never appear.
  const otherPayee = await payableBeneficiary(t.app, other.keys.sandbox);
  await t.app.inject({
    method: "POST",
    url: "/v1/payouts/bulk",
    headers: bearer(other.keys.sandbox),
    payload: { uploadId, rows: [{ beneficiary_id: otherPayee.beneficiaryId, amount_minor: 5, currency: "EUR" }] },
  });
});
afterAll(async () => t?.close());

const exportCsv = (query = "", k = key) => t.app.inject({ method: "GET", url: `/v1/payouts/export${query}`, headers: bearer(k) });

describe("payouts export", () => {
  it("streams every filtered payout with the payee's name, the masked destination and both amounts, formula-safe", async () => {
    const res = await exportCsv(`?upload_id=${uploadId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="payouts-sandbox-\d{8}\.csv"$/);
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual(HEADER);
    expect(rows).toHaveLength(REFS.length);
    const col = (row: string[], name: string) => row[HEADER.indexOf(name)];
    // Newest first: the last row of the upload first.
    const first = rows[0] as string[];
    expect(col(first, "amount")).toBe("16.25");
    expect(col(first, "amount_minor")).toBe("1625");
    expect(col(first, "payee_name")).toBe(payeeName);
    expect(col(first, "bank_account_id")).toBe(payee.destinationId);
    expect(col(first, "destination_last4")).toBe(payee.last4);
    expect(col(first, "destination_scheme")).toBe("iban");
    expect(col(first, "destination_country")).toBe("DE");
    expect(col(first, "channel")).toBe("csv");
    expect(rows.map((r) => col(r, "external_ref")).reverse()).toEqual([
      "'=HYPERLINK(1)",
      "'+1",
      "'-2",
      "'@SUM(A1)",
      "'\uFF1Dx",
      "plain",
      "' =1+1",
    ]);
    // No full account number anywhere in the file.
    expect(res.body).not.toMatch(/DE\d{20}/);
  });

  it("applies the list's filters, and refuses a reversed range before any byte", async () => {
    const one = await exportCsv(`?upload_id=${uploadId}&amount_min=1225&amount_max=1325`);
    expect(
      parseCsv(one.body)
        .slice(1)
        .map((r) => r[HEADER.indexOf("amount_minor")]),
    ).toEqual(["1325", "1225"]);
    const none = await exportCsv("?currency=USD");
    expect(parseCsv(none.body)).toEqual([HEADER]);
    const reversed = await exportCsv("?created_from=2026-01-02T00:00:00Z&created_to=2026-01-01T00:00:00Z");
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error.code).toBe("validation_failed");
    expect((await exportCsv("?cursor=abc")).statusCode).toBe(400);
  });

  it("shows only the caller's Business and environment, and a read-only key may export", async () => {
    const theirs = parseCsv((await exportCsv("", other.keys.sandbox)).body);
    expect(theirs).toHaveLength(2);
    expect(theirs[1]?.[HEADER.indexOf("beneficiary_id")]).not.toBe(payee.beneficiaryId);
    expect(parseCsv((await exportCsv("", business.keys.production)).body)).toEqual([HEADER]);
    const readOnly = await createApiKey(t.app, key, "business_read_only");
    const read = await exportCsv(`?upload_id=${uploadId}`, readOnly.key);
    expect(read.statusCode).toBe(200);
    expect(parseCsv(read.body)).toHaveLength(REFS.length + 1);
  });

  it("records every export in the audit log", async () => {
    await exportCsv("?status=pending_approval");
    const audit = await t.app.inject({ method: "GET", url: "/v1/audit-records?action=payouts_exported", headers: bearer(key) });
    expect(audit.json().audit_records[0]).toMatchObject({
      action: "payouts_exported",
      environment: "sandbox",
      subject: { type: "export", id: expect.stringMatching(/^payouts-sandbox-\d{8}\.csv$/) },
    });
  });

  it("streams a few thousand payouts batch by batch: it reads only as far as the client has taken, chunked", async () => {
    const bigUpload = newKey("big");
    for (let part = 0; part < 3; part += 1) {
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        beneficiary_id: payee.beneficiaryId,
        amount_minor: 1 + i,
        currency: "EUR",
        external_ref: `big-${part}-${i}`,
      }));
      const sent = await t.app.inject({
        method: "POST",
        url: "/v1/payouts/bulk",
        headers: bearer(key),
        payload: { uploadId: `${bigUpload}.${part}`, rows },
      });
      expect(sent.json().created).toBe(1000);
    }
    const exporter = createPayoutExportService({
      db: t.runtime.deps.database.db,
      clock: { now: () => new Date() },
      recordAudit: async () => {},
      batchSize: 100,
    });
    const tenant: Tenant = { businessId: business.businessId, environment: "sandbox" };
    let reads = 0;
    const stream = await openPayoutCsvStream(async (beforeId) => {
      reads += 1;
      return exporter.readBatch(tenant, { channel: "csv", currency: "EUR" }, beforeId);
    }, 100);
    // Nobody reads: the stream fills its buffer and stops asking for batches.
    const deadline = Date.now() + 10_000;
    while (stream.readableLength < stream.readableHighWaterMark && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (let i = 0; i < 50; i += 1) await new Promise((resolve) => setImmediate(resolve));
    const readsBeforeConsuming = reads;
    expect(readsBeforeConsuming).toBeLessThanOrEqual(3);
    let text = "";
    for await (const chunk of stream) text += String(chunk);
    const total = 3000 + REFS.length;
    expect(parseCsv(text)).toHaveLength(total + 1);
    expect(reads).toBe(Math.floor(total / 100) + 1);

    // Over HTTP the body is chunked, without a Content-Length (the file's size is not known in advance).
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: `/v1/payouts/export?channel=csv`, headers: bearer(key) }, resolve)
        .on("error", reject);
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["transfer-encoding"]).toBe("chunked");
    expect(response.headers["content-length"]).toBeUndefined();
    let lines = 0;
    for await (const chunk of response) lines += String(chunk).split("\r\n").length - 1;
    expect(lines).toBe(total + 1);
  });
});
