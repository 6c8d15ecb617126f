// The reconciliation corpus (test/fixtures/statements/corpus.ts): the same seed makes the same corpus, every file
// it writes reads back (and every camt one validates against its ISO 20022 schema), every line the files carry has
// its expected outcome, and the outcomes agree with the payouts, blocks and top-ups the corpus says exist. The files
// we sent (pain.001 by the bank rails' writer, valid against the EPC schema; NACHA, read back by the independent
// reader) and the bank's answers (pain.002, valid against ISO 20022; NACHA returns) carry the references, amounts and
// blocks the statements name, and each batch line is its block less the items the bank's answers reject.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { isFederalReserveBusinessDay, isTarget2BusinessDay } from "../../../src/rails/bank-files/calendars.js";
import { readPain001Blocks, readPain002 } from "../../../src/rails/bank-files/iso-readers.js";
import { readNachaFile } from "../../../src/rails/bank-files/nacha-reader.js";
import { type BankStatement, readBankStatements, statementLineFingerprints } from "../../../src/rails/bank-files/statements.js";
import { type CorpusLine, generateReconciliationCorpus, type ReconciliationCorpus } from "../../fixtures/statements/corpus.js";
import { isoSchemasAvailable } from "../../helpers/iso-xsd.js";
import { EPC_SCHEMA_PATH, epcSchemaAvailable } from "./xsd.js";

const SEED = 20260402;
const ISO_PAIN002_PATH = resolve(import.meta.dirname, "../../../../shared/standards/pain.002.001.10.xsd");
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

  it("holds the files we sent and the bank's answers: both rails, partial and whole rejections, ACH returns", () => {
    expect(new Set(corpus.sentFiles.map((f) => f.format))).toEqual(new Set(["pain.001.001.09", "nacha"]));
    const statuses = corpus.bankAnswers
      .filter((a) => a.format === "pain.002.001.10")
      .map((a) => readPain002(a.content).groupStatus);
    expect(statuses).toContain("ACCP");
    expect(statuses).toContain("PART");
    expect(corpus.bankAnswers.some((a) => a.format === "nacha_returns")).toBe(true);
    // Every payout went in exactly one file.
    const sent = corpus.sentFiles.flatMap((f) => f.payoutKeys);
    expect(sent.length).toBe(corpus.payouts.length);
    expect(new Set(sent)).toEqual(new Set(corpus.payouts.map((p) => p.key)));
  });

  it("the files we sent and the bank's answers carry what the statements name; each batch line is its block less the rejected", () => {
    // What we sent, by reference (EndToEndId, ACH trace), and the blocks (PmtInfId, ACH batch reference).
    const sentItems = new Map<string, { amountMinor: number; block: string; effectiveDate: string | null }>();
    const blocks = new Map<string, string[]>();
    const add = (reference: string, amountMinor: number, block: string, effectiveDate: string | null) => {
      expect(sentItems.has(reference), `${reference} sent twice`).toBe(false);
      sentItems.set(reference, { amountMinor, block, effectiveDate });
      blocks.set(block, [...(blocks.get(block) ?? []), reference]);
    };
    const messageIds = new Set(corpus.sentFiles.map((f) => f.messageId));
    for (const file of corpus.sentFiles) {
      if (file.format === "nacha") {
        const nacha = readNachaFile(file.content);
        expect(`${nacha.creationDate}-${nacha.fileIdModifier}`).toBe(file.messageId);
        for (const batch of nacha.batches)
          for (const entry of batch.entries)
            add(entry.traceNumber, entry.amountMinor, batch.companyDiscretionaryData, batch.effectiveDate);
      } else {
        expect(file.content).toContain(`<MsgId>${file.messageId}</MsgId>`);
        for (const block of readPain001Blocks(file.content))
          for (const tx of block.transactions) add(tx.endToEndId, tx.amountMinor, block.paymentInfoId, null);
      }
    }
    // What the bank's answers reject: pain.002 RJCT transactions, NACHA return entries (before settlement).
    const rejected = new Set<string>();
    for (const answer of corpus.bankAnswers) {
      if (answer.format === "pain.002.001.10") {
        const report = readPain002(answer.content);
        expect(messageIds.has(report.originalMessageId), answer.name).toBe(true);
        for (const tx of report.transactions) {
          expect(tx.status, answer.name).toBe("RJCT");
          expect(sentItems.get(tx.endToEndId)?.amountMinor, answer.name).toBe(tx.originalAmountMinor);
          rejected.add(tx.endToEndId);
        }
      } else {
        for (const batch of readNachaFile(answer.content).batches)
          for (const entry of batch.entries) {
            const original = entry.returnInfo?.originalTrace ?? "";
            expect(sentItems.get(original)?.amountMinor, answer.name).toBe(entry.amountMinor);
            rejected.add(original);
          }
      }
    }
    const payouts = new Map(corpus.payouts.map((p) => [p.key, p]));
    for (const payout of corpus.payouts) {
      expect(sentItems.get(payout.reference)?.amountMinor, payout.key).toBe(payout.amountMinor);
      expect(rejected.has(payout.reference), payout.key).toBe(payout.fate === "rejected");
    }
    for (const batch of corpus.batches) expect(blocks.get(batch.reference)?.length, batch.key).toBe(batch.payoutKeys.length);

    const expected = new Map(corpus.lines.map((line) => [line.fingerprint, line]));
    const referenceOf = (key: string) => payouts.get(key)?.reference ?? "";
    const batchLines = new Set<string>();
    for (const { name, statements } of readAll(corpus))
      for (const statement of statements)
        statementLineFingerprints(statement).forEach((print, index) => {
          const line = statement.lines[index];
          const known = expected.get(print)?.expected;
          if (line === undefined || known === undefined || line.status !== "booked") return;
          const what = `${name} line ${index + 1} (${JSON.stringify(known)})`;
          const named = [
            ...line.details.flatMap((d) => [d.endToEndId, d.returnInfo?.originalEndToEndId ?? null]),
            line.achTrace,
          ].filter((r): r is string => r !== null && sentItems.has(r));
          if (typeof known === "string" || known.rule === "amount_date" || known.rule === "top_up") {
            // Money known by its amount, or not ours: the line names nothing we sent.
            expect(named, what).toEqual([]);
            return;
          }
          const references = known.payoutKeys.map(referenceOf);
          if (known.rule === "batch") {
            batchLines.add(print);
            const block = line.paymentInformationId ?? line.achTrace ?? "";
            const members = blocks.get(block) ?? [];
            const accepted = members.filter((r) => !rejected.has(r));
            expect([...accepted].sort(), what).toEqual([...references].sort());
            expect(
              accepted.reduce((sum, r) => sum + (sentItems.get(r)?.amountMinor ?? 0), 0),
              what,
            ).toBe(line.amountMinor);
            if (line.batchCount !== null) expect(line.batchCount, what).toBe(accepted.length);
            for (const id of line.details.flatMap((d) => d.endToEndId ?? [])) expect(accepted, what).toContain(id);
            // An ACH batch settles on the effective date of its batch header.
            if (line.achTrace !== null) expect(sentItems.get(members[0] ?? "")?.effectiveDate, what).toBe(line.bookingDate);
          } else {
            expect(named, what).toEqual(references);
            const sent = sentItems.get(references[0] ?? "");
            if (known.rule === "end_to_end_id") {
              expect(sent?.amountMinor, what).toBe(line.amountMinor);
              if (sent?.effectiveDate) expect(sent.effectiveDate, what).toBe(line.bookingDate);
            } else expect(line.amountMinor, what).toBeLessThanOrEqual(sent?.amountMinor ?? 0);
            expect(rejected.has(references[0] ?? ""), what).toBe(false);
          }
        });
    expect(batchLines.size).toBe(
      corpus.lines.filter((l) => typeof l.expected !== "string" && l.expected.rule === "batch").length,
    );
  });

  it.skipIf(!epcSchemaAvailable())("every pain.001 it writes is valid against the EPC schema", async () => {
    const files = corpus.sentFiles.filter((f) => f.format === "pain.001.001.09");
    const result = await validateXML({
      xml: files.map((f) => ({ fileName: f.name, contents: f.content })),
      schema: [{ fileName: "epc.xsd", contents: readFileSync(EPC_SCHEMA_PATH, "utf8") }],
      maxMemoryPages: 16384,
    });
    expect(result.errors.map((e) => e.rawMessage)).toEqual([]);
  });

  it.skipIf(!isoSchemasAvailable())("every pain.002 it writes is valid against its ISO 20022 schema", async () => {
    const answers = corpus.bankAnswers.filter((a) => a.format === "pain.002.001.10");
    const result = await validateXML({
      xml: answers.map((a) => ({ fileName: a.name, contents: a.content })),
      schema: [{ fileName: "pain.002.001.10.xsd", contents: readFileSync(ISO_PAIN002_PATH, "utf8") }],
      maxMemoryPages: 16384,
    });
    expect(result.errors.map((e) => e.rawMessage)).toEqual([]);
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
