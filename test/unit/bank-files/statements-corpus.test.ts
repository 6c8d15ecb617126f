// The reconciliation corpus (test/fixtures/statements/corpus.ts): the same seed makes the same corpus, every file
// it writes reads back (and every camt one validates against its ISO 20022 schema), every line the files carry has
// its expected outcome, and the outcomes agree with the payouts, blocks and top-ups the corpus says exist.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { isFederalReserveBusinessDay, isTarget2BusinessDay } from "../../../src/rails/bank-files/calendars.js";
import { type BankStatement, readBankStatements, statementLineFingerprints } from "../../../src/rails/bank-files/statements.js";
import { type CorpusLine, generateReconciliationCorpus, type ReconciliationCorpus } from "../../fixtures/statements/corpus.js";
import { isoSchemasAvailable } from "../../helpers/iso-xsd.js";

const SEED = 20260402;
const corpus = generateReconciliationCorpus({ seed: SEED, payouts: 160 });

function readAll(c: ReconciliationCorpus): Array<{ name: string; statements: BankStatement[] }> {
  return c.files.map((file) => ({ name: file.name, statements: readBankStatements(file.content) }));
}

describe("reconciliation corpus", () => {
  it("is the same for the same seed and different for another", () => {
    expect(generateReconciliationCorpus({ seed: SEED, payouts: 160 })).toEqual(corpus);
    const other = generateReconciliationCorpus({ seed: SEED + 1, payouts: 160 });
    expect(other.files.map((f) => f.content)).not.toEqual(corpus.files.map((f) => f.content));
  });

  it("holds every case the reconciliation must meet", () => {
    const expectations = corpus.lines.map((line) => line.expected);
    const rules = new Set(expectations.map((e) => (typeof e === "string" ? e : e.rule)));
    expect([...rules].sort()).toEqual(["amount_date", "batch", "end_to_end_id", "needs_review", "return", "top_up", "unmatched"]);
    expect(corpus.batches.some((b) => b.rejectedKeys.length > 0)).toBe(true);
    expect(corpus.batches.some((b) => b.rail === "ach") && corpus.batches.some((b) => b.rail === "sepa")).toBe(true);
    expect(corpus.payouts.some((p) => p.returned !== null && p.returned.feeMinor > 0)).toBe(true);
    expect(corpus.payouts.some((p) => p.fate === "returned" && p.rail === "ach")).toBe(true);
    expect(corpus.lines.some((l) => l.expected === "unmatched" && l.direction === "debit")).toBe(true);
    expect(corpus.lines.some((l) => l.expected === "unmatched" && l.direction === "credit")).toBe(true);
    const versions = new Set(corpus.files.map((f) => f.messageVersion));
    expect([...versions].sort()).toEqual(["bai2", "camt.052.001.02", "camt.052.001.08", "camt.053.001.02", "camt.053.001.08"]);
    expect(corpus.files.some((f) => f.kind === "resent")).toBe(true);
    // Out of order: some file comes after one of a later day.
    expect(corpus.files.some((f, index) => index > 0 && f.day < (corpus.files[index - 1]?.day ?? ""))).toBe(true);
    // BAI2 texts continued in 88 records.
    expect(corpus.files.some((f) => f.format === "bai2" && /\n88,/.test(f.content))).toBe(true);
    // Booking after the Easter closing (TARGET2) and Memorial Day (Fed): sent Thursday 2 April, booked Tuesday 7 April;
    // sent Friday 22 May, booked Tuesday 26 May.
    expect(corpus.payouts.some((p) => p.sentDate === "2026-04-02")).toBe(true);
    expect(corpus.lines.some((l) => l.bookingDate === "2026-04-07")).toBe(true);
    expect(corpus.lines.some((l) => l.bookingDate === "2026-05-26")).toBe(true);
    expect(
      corpus.lines.every((l) =>
        l.currency === "EUR" ? isTarget2BusinessDay(l.bookingDate) : isFederalReserveBusinessDay(l.bookingDate),
      ),
    ).toBe(true);
  });

  it("every line of every file has its expected outcome, and each expected line is in some file", () => {
    const expected = new Map(corpus.lines.map((line) => [line.fingerprint, line]));
    const found = new Set<string>();
    const read = readAll(corpus);
    let pending = 0;
    for (const { name, statements } of read) {
      for (const statement of statements) {
        statementLineFingerprints(statement).forEach((print, index) => {
          const line = statement.lines[index];
          const known = expected.get(print);
          if (!known) throw new Error(`${name}: line ${index + 1} has no expected outcome`);
          expect([line?.direction, line?.amountMinor, line?.currency], `${name} line ${index + 1}`).toEqual([
            known.direction,
            known.amountMinor,
            known.currency,
          ]);
          if (line?.status === "pending") pending += 1;
          found.add(print);
        });
      }
    }
    expect(found.size).toBe(corpus.lines.length);
    expect(pending).toBeGreaterThan(0);
    // Statements chain: each closing booked balance is the next statement's opening, per account.
    for (const currency of ["EUR", "USD"] as const) {
      const endOfDay = read
        .filter(({ name }) => !name.includes("resent") && !name.startsWith("camt052"))
        .flatMap(({ statements }) => statements)
        .filter((s) => s.account.currency === currency)
        .sort((a, b) => ((a.periodFrom ?? "") < (b.periodFrom ?? "") ? -1 : 1));
      expect(endOfDay[0]?.openingBookedMinor).toBe(corpus.openingMinor[currency]);
      for (let index = 1; index < endOfDay.length; index += 1)
        expect(endOfDay[index]?.openingBookedMinor).toBe(endOfDay[index - 1]?.closingBookedMinor);
      for (const statement of endOfDay) {
        const moved = statement.lines.reduce((sum, l) => sum + (l.direction === "credit" ? l.amountMinor : -l.amountMinor), 0);
        expect(statement.closingBookedMinor).toBe((statement.openingBookedMinor ?? 0) + moved);
      }
    }
  });

  it("its expected outcomes agree with the payouts, blocks and top-ups", () => {
    const payouts = new Map(corpus.payouts.map((p) => [p.key, p]));
    const topUps = new Map(corpus.topUps.map((t) => [t.key, t]));
    const matchedPayouts: string[] = [];
    const sameAmount = (line: CorpusLine) =>
      corpus.payouts.filter((p) => p.currency === line.currency && p.amountMinor === line.amountMinor && p.fate !== "rejected");
    for (const line of corpus.lines) {
      const { expected } = line;
      const what = `${line.story} (${JSON.stringify(expected)})`;
      if (expected === "unmatched") {
        expect(sameAmount(line), what).toEqual([]);
        expect(
          corpus.topUps.some((t) => t.currency === line.currency && t.amountMinor === line.amountMinor),
          what,
        ).toBe(false);
        continue;
      }
      if (expected === "needs_review") {
        expect(line.direction, what).toBe("debit");
        expect(sameAmount(line).length, what).toBeGreaterThanOrEqual(2);
        continue;
      }
      const members = expected.payoutKeys.map((key) => payouts.get(key));
      expect(
        members.every((p) => p !== undefined && p.currency === line.currency && p.fate !== "rejected"),
        what,
      ).toBe(true);
      switch (expected.rule) {
        case "end_to_end_id":
        case "amount_date":
          expect([line.direction, members.length, members[0]?.amountMinor], what).toEqual(["debit", 1, line.amountMinor]);
          if (expected.rule === "amount_date") expect(sameAmount(line).length, what).toBe(1);
          matchedPayouts.push(...expected.payoutKeys);
          break;
        case "batch": {
          const batch = corpus.batches.find((b) => b.payoutKeys.includes(expected.payoutKeys[0] ?? ""));
          expect(batch, what).toBeDefined();
          expect(
            members.reduce((sum, p) => sum + (p?.amountMinor ?? 0), 0),
            what,
          ).toBe(line.amountMinor);
          expect(batch?.bookedMinor, what).toBe(line.amountMinor);
          expect([...expected.payoutKeys, ...(batch?.rejectedKeys ?? [])].sort(), what).toEqual(
            [...(batch?.payoutKeys ?? [])].sort(),
          );
          matchedPayouts.push(...expected.payoutKeys);
          break;
        }
        case "return":
          expect([line.direction, members[0]?.fate, members[0]?.returned?.creditedMinor], what).toEqual([
            "credit",
            "returned",
            line.amountMinor,
          ]);
          expect((members[0]?.returned?.creditedMinor ?? 0) + (members[0]?.returned?.feeMinor ?? 0), what).toBe(
            members[0]?.amountMinor,
          );
          break;
        case "top_up":
          expect([line.direction, topUps.get(expected.topUpKey ?? "")?.amountMinor], what).toEqual(["credit", line.amountMinor]);
          break;
      }
    }
    // Every payout the bank booked is matched once or waits in review; none twice; none rejected or in flight.
    expect(new Set(matchedPayouts).size).toBe(matchedPayouts.length);
    const booked = corpus.payouts.filter((p) => p.fate === "booked" || p.fate === "returned");
    const inReview = corpus.lines.filter((l) => l.expected === "needs_review").length;
    expect(matchedPayouts.length + inReview).toBe(booked.length);
    for (const key of matchedPayouts) expect(["booked", "returned"]).toContain(payouts.get(key)?.fate);
  });

  it.skipIf(!isoSchemasAvailable())("every camt file it writes is valid against its ISO 20022 schema", async () => {
    const byVersion = new Map<string, string[]>();
    for (const file of corpus.files) {
      if (file.format === "bai2") continue;
      byVersion.set(file.messageVersion, [...(byVersion.get(file.messageVersion) ?? []), file.content]);
    }
    for (const [version, contents] of byVersion) {
      const schema = readFileSync(resolve(import.meta.dirname, `../../../../shared/standards/${version}.xsd`), "utf8");
      const result = await validateXML({
        xml: contents.map((contents, index) => ({ fileName: `${version}-${index}.xml`, contents })),
        schema: [{ fileName: `${version}.xsd`, contents: schema }],
        maxMemoryPages: 16384,
      });
      expect(
        result.errors.map((e) => e.rawMessage),
        version,
      ).toEqual([]);
    }
  });

  it("grows to the bench's 10,000 lines", () => {
    const large = generateReconciliationCorpus({ seed: 1, payouts: 100, minLines: 10_000 });
    expect(large.lines.length).toBeGreaterThanOrEqual(10_000);
    expect(large.files.filter((f) => f.kind === "statement").length).toBeLessThanOrEqual(80);
    // Reading them all is the bench's part (npm run bench); here one of each format.
    for (const format of ["camt.053", "bai2"] as const) {
      const file = large.files.find((f) => f.format === format && f.kind === "statement");
      expect(readBankStatements(file?.content ?? "")[0]?.lines.length).toBeGreaterThan(100);
    }
  });
});
