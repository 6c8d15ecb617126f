// The dashboard's bulk upload helpers (dashboard/src/lib/csv.ts): every invalid cell marked with the API's rule
// before anything is sent, amounts read in the currency's units, the upload id as the SHA-256 of the bytes, and
// the results written back as CSV.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { computeUploadId, parseBulkCsv, resultsToCsv, rowsToSend } from "../../dashboard/src/lib/csv.js";

const B = "0b7c6a52-8f43-4c1e-9d2a-6f1e2d3c4b5a";
const A = "1c8d7b63-9a54-4d2f-8e3b-7a2f3e4d5c6b";

describe("parseBulkCsv", () => {
  it("reads amounts in the currency's units into minor units, with optional columns", () => {
    const file = parseBulkCsv(
      `beneficiary_id,amount,currency,external_ref,bank_account_id\n${B},12.50,EUR,inv-1,${A}\n${B.toUpperCase()},1500,JPY,,\n${B},0.125,KWD,,\n`,
    );
    expect(file.fileErrors).toEqual([]);
    expect(rowsToSend(file)).toEqual([
      { beneficiary_id: B, amount: "12.50", currency: "EUR", external_ref: "inv-1", bank_account_id: A },
      { beneficiary_id: B, amount: "1500", currency: "JPY" },
      { beneficiary_id: B, amount: "0.125", currency: "KWD" },
    ]);
  });

  it("marks every invalid cell with its reason and sends nothing", () => {
    const file = parseBulkCsv(
      `beneficiary_id,amount,currency,replaces_payout_id\nnot-an-id,10.999,EUR,x\n${B},,eur,\n${B},5,ZZZ,\n${B},10.5,JPY,\n${B},-3,USD,\n`,
    );
    expect(file.rows.map((r) => r.errors)).toEqual([
      {
        beneficiary_id: "Not a Beneficiary id (a UUID)",
        amount: "EUR has at most 2 decimals",
        replaces_payout_id: "Not an id (a UUID)",
      },
      { amount: "Required", currency: "Three capital letters, such as EUR" },
      { amount: "Needs a valid currency", currency: "ZZZ is not an ISO 4217 currency code" },
      { amount: "JPY has no decimals" },
      { amount: "A number in the currency's units with a point and no thousands separator, such as 1250.00" },
    ]);
    expect(file.rows.map((r) => r.line)).toEqual([2, 3, 4, 5, 6]);
    expect(rowsToSend(file)).toBeNull();
  });

  it("refuses a file without the required columns, with unknown columns, or without rows", () => {
    expect(parseBulkCsv(`beneficiary_id,amount\n${B},1\n`).fileErrors).toEqual(["Missing column: currency"]);
    expect(parseBulkCsv(`beneficiary_id,currency\n${B},EUR\n`).fileErrors).toEqual(["Missing column: amount (or amount_minor)"]);
    expect(parseBulkCsv(`beneficiary_id,amount,currency,note\n${B},1,EUR,x\n`).fileErrors[0]).toMatch(/^Unknown column: note/);
    expect(parseBulkCsv("beneficiary_id,amount,currency\n").fileErrors).toEqual(["The file has no rows"]);
    const rows = Array.from({ length: 1001 }, () => `${B},1,EUR`).join("\n");
    expect(parseBulkCsv(`beneficiary_id,amount,currency\n${rows}`).fileErrors).toEqual([
      "At most 1000 rows per upload (this file has 1001)",
    ]);
    expect(rowsToSend(parseBulkCsv(`beneficiary_id,amount\n${B},1\n`))).toBeNull();
  });

  it("matches headers without case, spaces or a byte-order mark", () => {
    const file = parseBulkCsv(`\uFEFF Beneficiary_ID , Amount,CURRENCY\n${B},"1234.50",GBP\n`);
    expect(rowsToSend(file)).toEqual([{ beneficiary_id: B, amount: "1234.50", currency: "GBP" }]);
  });

  it("takes amount_minor (the CLI's column) and refuses a row whose two amounts disagree", () => {
    const file = parseBulkCsv(
      `beneficiary_id,amount,amount_minor,currency\n${B},12.50,1250,EUR\n${B},,7,EUR\n${B},12.5,125,EUR\n${B},"1,234.50",,EUR\n`,
    );
    expect(file.rows.map((r) => r.errors)).toEqual([
      {},
      {},
      { amount: "12.5 EUR is 1250 in minor units, not 125: keep one amount or make them agree" },
      { amount: "A number in the currency's units with a point and no thousands separator, such as 1250.00" },
    ]);
    expect(file.rows[0]?.row).toEqual({ beneficiary_id: B, amount: "12.50", amount_minor: 1250, currency: "EUR" });
    expect(file.rows[1]?.row).toEqual({ beneficiary_id: B, amount_minor: 7, currency: "EUR" });
  });
});

describe("computeUploadId", () => {
  it("is the client package's sha256-<lowercase hex> of the bytes, as the CLI computes it", async () => {
    const bytes = new TextEncoder().encode("beneficiary_id,amount,currency\n");
    expect(await computeUploadId(bytes)).toBe(`sha256-${createHash("sha256").update(bytes).digest("hex")}`);
    expect(await computeUploadId(new Uint8Array())).toBe(
      "sha256-e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
  });
});

describe("resultsToCsv", () => {
  it("appends each row's result and neutralises formulas", () => {
    const file = parseBulkCsv(`beneficiary_id,amount,currency,external_ref\n${B},1,EUR,=cmd\n${B},2,EUR,ok\n`);
    const csv = resultsToCsv(file, [
      { index: 0, status: "created", payout_id: A, payout_status: "pending_approval", error: null },
      {
        index: 1,
        status: "failed",
        payout_id: null,
        payout_status: null,
        error: { code: "not_found", message: "No such, Beneficiary" },
      },
    ]);
    expect(csv.split("\r\n")).toEqual([
      "beneficiary_id,amount,currency,external_ref,result,payout_id,payout_status,error_code,error_message",
      `${B},1,EUR,"'=cmd",created,${A},pending_approval,,`,
      `${B},2,EUR,ok,failed,,,not_found,"No such, Beneficiary"`,
    ]);
  });
});
