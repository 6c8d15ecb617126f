// CSV reading for the bulk helpers, and the browser entry of the client bundling without Node.js modules.
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import {
  beneficiaryRowsFromCsv,
  CsvError,
  computeUploadId,
  parseCsv,
  payoutRowsFromCsv,
} from "../../packages/client/src/index.js";

function csvError(fn: () => unknown): CsvError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CsvError) return error;
    throw error;
  }
  throw new Error("no CsvError");
}

describe("CSV", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, CRLF and a BOM", () => {
    const table = parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\r\n"multi\nline",2\n');
    expect(table.header).toEqual(["a", "b"]);
    expect(table.records.map((r) => r.values)).toEqual([
      ["x, y", 'say "hi"'],
      ["multi\nline", "2"],
    ]);
    expect(table.records.map((r) => r.line)).toEqual([2, 3]);
  });

  it("names the line of a broken file", () => {
    expect(csvError(() => parseCsv("a,b\n1,2\n3\n"))).toMatchObject({ code: "csv_bad_row", line: 3 });
    expect(csvError(() => parseCsv('a,b\n1,"2\n'))).toMatchObject({ code: "csv_malformed", line: 2 });
    expect(csvError(() => parseCsv("a,a\n1,2\n"))).toMatchObject({ code: "csv_bad_header", line: 1 });
    expect(csvError(() => parseCsv(""))).toMatchObject({ code: "csv_empty" });
  });

  it("maps payout columns and refuses an unknown or missing one", () => {
    expect(payoutRowsFromCsv("beneficiary_id,amount_minor,currency,external_ref\nb1,1250,EUR,\n")).toEqual([
      { beneficiary_id: "b1", amount_minor: 1250, currency: "EUR" },
    ]);
    expect(csvError(() => payoutRowsFromCsv("beneficiary,amount_minor,currency\nb1,1,EUR\n")).message).toContain(
      'unknown column "beneficiary"',
    );
    expect(csvError(() => payoutRowsFromCsv("beneficiary_id,currency\nb1,EUR\n")).message).toContain(
      'missing column "amount" (in the currency\'s units, e.g. 12.50) or "amount_minor"',
    );
  });

  it("reads the dashboard's format too: amount in currency units as text, header names in any case", () => {
    expect(payoutRowsFromCsv(" Beneficiary_ID ,Amount,CURRENCY\nb1,12.50,EUR\nb2, 1500 ,JPY\n")).toEqual([
      { beneficiary_id: "b1", amount: "12.50", currency: "EUR" },
      { beneficiary_id: "b2", amount: "1500", currency: "JPY" },
    ]);
    expect(payoutRowsFromCsv("beneficiary_id,amount,amount_minor,currency\nb1,12.50,1250,EUR\nb2,,7,EUR\n")).toEqual([
      { beneficiary_id: "b1", amount: "12.50", amount_minor: 1250, currency: "EUR" },
      { beneficiary_id: "b2", amount_minor: 7, currency: "EUR" },
    ]);
    expect(csvError(() => payoutRowsFromCsv("beneficiary_id,Amount,amount,currency\nb1,1,1,EUR\n")).message).toContain(
      'column "amount" appears twice',
    );
  });

  it("nests dotted beneficiary columns", () => {
    const rows = beneficiaryRowsFromCsv(
      "email,first_name,last_name,acknowledged,bank.country,bank.iban,postal_address.city\nj@example.com,Jane,Doe,true,DE,DE89370400440532013000,\n",
    );
    expect(rows).toEqual([
      {
        email: "j@example.com",
        first_name: "Jane",
        last_name: "Doe",
        acknowledged: true,
        bank: { country: "DE", iban: "DE89370400440532013000" },
      },
    ]);
    expect(csvError(() => beneficiaryRowsFromCsv("email,nmae,bank.iban\na,b,c\n"))).toMatchObject({ code: "csv_bad_header" });
    expect(csvError(() => beneficiaryRowsFromCsv("email,first_name\na,b\n")).message).toContain("bank");
  });

  it("computes the upload id as the SHA-256 of the bytes", async () => {
    expect(await computeUploadId("abc")).toBe("sha256-ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});

describe("the browser entry", () => {
  it("bundles for the browser with no Node.js module", async () => {
    const result = await build({
      entryPoints: ["packages/client/src/index.ts"],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    const code = result.outputFiles[0]?.text ?? "";
    expect(code).toContain("createClient");
    expect(code).not.toMatch(/from\s*"node:|require\("node:/);
    // The webhook entry does need node:crypto: bundling it for the browser fails, so it stays out of "." .
    await expect(
      build({
        entryPoints: ["packages/client/src/webhooks.ts"],
        bundle: true,
        platform: "browser",
        write: false,
        logLevel: "silent",
      }),
    ).rejects.toThrow();
  });
});
