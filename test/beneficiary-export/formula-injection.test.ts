// OWASP's CSV injection rule on the export, variant by variant: what a spreadsheet would evaluate as a
// formula is prefixed with `'`, including formulas hidden behind whitespace or invisible characters.
// Through the CSV writer itself (the API refuses tab, CR, LF and other control characters in names, but
// rows stored earlier may carry them).
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import type { ExportRecord } from "../../src/modules/beneficiary-export/beneficiary-export.columns.js";
import { defuseFormula, openCsvStream } from "../../src/modules/beneficiary-export/beneficiary-export.service.js";
import { parseCsvRecords } from "./csv.js";

function recordNamed(name: string, n: number): ExportRecord {
  const id = `00000000-0000-7000-8000-${String(n).padStart(12, "0")}`;
  return {
    beneficiary: {
      id,
      beneficiary_type: "person",
      name,
      nickname: null,
      display_name: name,
      email: `p${n}@example.com`,
      phone: null,
      first_name: null,
      last_name: null,
      country_of_residence: null,
      date_of_birth: null,
      business_name: null,
      country_of_incorporation: null,
      registration_number: null,
      tax_id: null,
      postal_address: null,
      bank_details: null,
      compliance_status: "pending",
      identity_complete: false,
      missing_identity_fields: [],
      missing_for_ready: [],
      acknowledged_at: null,
      reacknowledgment_required: false,
      collection_status: "not_invited",
      details_submitted_at: null,
      declared_destination_id: null,
      declared_destination_change: null,
      status: "pending_details",
      enrollment_status: null,
      enrollment_failure_detail: null,
      enrollment_failure_bank_account_id: null,
      pending_requests: [],
      tax_document: null,
      screening_status: "not_screened",
      screening_match: null,
      screened_at: null,
      archived_at: null,
      environment: "sandbox",
      created_at: "2026-05-27T12:00:00.000Z",
      updated_at: "2026-05-27T12:00:00.000Z",
    },
    destinationCount: 0,
    payoutDestination: null,
  } as ExportRecord;
}

async function exportNames(names: readonly string[]): Promise<string[]> {
  const records = names.map((name, index) => recordNamed(name, index + 1));
  const csv = await openCsvStream(async (beforeId) => (beforeId === null ? records : []), 1000);
  return parseCsvRecords(await text(csv)).records.map((record) => String(record.name));
}

const DANGEROUS: Readonly<Record<string, string>> = {
  equals: "=1+1",
  plus: "+1+1",
  minus: "-1+1",
  at: "@SUM(A1)",
  "leading tab": "\t=1+1",
  "leading carriage return": "\r=1+1",
  "leading space": " =1+1",
  "several spaces": "   =1+1",
  "leading line feed": "\n=1+1",
  "CR LF": "\r\n=1+1",
  "no-break space": "\u00A0=1+1",
  "zero-width space": "\u200B=1+1",
  "zero-width joiner": "\u200D@SUM(A1)",
  "byte-order mark": "\uFEFF+1+1",
  "word joiner then space": "\u2060 -1+1",
  "ideographic space": "\u3000=1+1",
  "full-width equals": "\uFF1D1+1",
  "tab alone": "\tcmd",
  "carriage return alone": "\rcmd",
};

const HARMLESS: Readonly<Record<string, string>> = {
  plain: "Ann-Marie +1 @home",
  "space then text": " Ann",
  "zero-width space then text": "\u200BAnn",
  "later equals": "a=b",
  empty: "",
};

describe("beneficiary export: formula injection", () => {
  it.each(Object.entries(DANGEROUS))("prefixes a cell starting with %s", async (_label, value) => {
    expect(defuseFormula(value)).toBe(`'${value}`);
    expect(await exportNames([value])).toEqual([`'${value}`]);
  });

  it("quotes line breaks inside a cell so the record stays one record", async () => {
    expect(await exportNames(['Doe, "JJ"\r\nJunior\nthe Third'])).toEqual(['Doe, "JJ"\r\nJunior\nthe Third']);
  });

  it.each(Object.entries(HARMLESS))("leaves %s alone", async (_label, value) => {
    expect(defuseFormula(value)).toBe(value);
    expect(await exportNames([value])).toEqual([value]);
  });
});
