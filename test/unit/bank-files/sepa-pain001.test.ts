import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { readPain002 } from "../../../src/rails/bank-files/iso-readers.js";
import {
  buildPain001,
  checkSepaTransfer,
  endToEndIdOf,
  formatEuroAmount,
  payoutIdOfEndToEndId,
  SepaFileError,
  writePain001,
} from "../../../src/rails/bank-files/sepa-pain001.js";
import { GOLDEN_SEPA, SECOND_DEBTOR, sepaTransfer } from "./fixtures.js";
import { epcSchemaAvailable, epcSchemaErrors } from "./xsd.js";

const golden = (name: string) => readFileSync(resolve(import.meta.dirname, "golden", name), "utf8");

if (!epcSchemaAvailable()) {
  console.warn("NOTICE: ../shared/standards is absent: the EPC schema checks of pain.001.001.09 are skipped.");
}
const withSchema = epcSchemaAvailable() ? it : it.skip;

describe("pain.001.001.09", () => {
  it("writes the golden file byte for byte", () => {
    expect(buildPain001(GOLDEN_SEPA)).toBe(golden("pain.001.001.09.xml"));
  });

  withSchema("validates against the EPC's SCT 2023 schema", async () => {
    expect(await epcSchemaErrors(buildPain001(GOLDEN_SEPA))).toEqual([]);
  });

  withSchema("the schema check fails a file the EPC refuses (the check can fail)", async () => {
    const unstructured = buildPain001(GOLDEN_SEPA).replace(
      "<TwnNm>Paris</TwnNm>",
      "<AdrLine>1 Rue X</AdrLine><TwnNm>Paris</TwnNm>",
    );
    expect((await epcSchemaErrors(unstructured)).length).toBeGreaterThan(0);
    const threeDecimals = buildPain001(GOLDEN_SEPA).replace('Ccy="EUR">0.05<', 'Ccy="EUR">0.005<');
    expect((await epcSchemaErrors(threeDecimals)).length).toBeGreaterThan(0);
  });

  it("has one block per execution date and debtor account, with counts and control sums", () => {
    const xml = buildPain001(GOLDEN_SEPA);
    const blocks = [...xml.matchAll(/<PmtInf>[\s\S]*?<\/PmtInf>/g)].map((m) => m[0]);
    expect(blocks).toHaveLength(3);
    const summary = blocks.map((b) => ({
      date: /<Dt>([^<]+)<\/Dt>/.exec(b)?.[1],
      debtor: /<DbtrAcct>\s*<Id>\s*<IBAN>([^<]+)</.exec(b)?.[1],
      count: /<NbOfTxs>(\d+)</.exec(b)?.[1],
      sum: /<CtrlSum>([^<]+)</.exec(b)?.[1],
    }));
    expect(summary).toEqual([
      { date: "2026-11-25", debtor: "DE89370400440532013000", count: "2", sum: "1000001234.55" },
      { date: "2026-11-25", debtor: "NL91ABNA0417164300", count: "1", sum: "1.00" },
      { date: "2026-11-26", debtor: "DE89370400440532013000", count: "1", sum: "0.05" },
    ]);
    expect(/<GrpHdr>[\s\S]*?<NbOfTxs>(\d+)<\/NbOfTxs>\s*<CtrlSum>([^<]+)</.exec(xml)?.slice(1)).toEqual(["4", "1000001235.60"]);
    // A debtor without a BIC: the agent is NOTPROVIDED, as the guidelines allow.
    expect(blocks[1]).toContain("<Id>NOTPROVIDED</Id>");
  });

  it("ties each transaction to its payout by EndToEndId", () => {
    const id = "0190f0a0-0000-7000-8000-00000000000a";
    expect(endToEndIdOf(id)).toBe("0190f0a000007000800000000000000a");
    expect(payoutIdOfEndToEndId(endToEndIdOf(id))).toBe(id);
    expect(payoutIdOfEndToEndId("NOTPROVIDED")).toBeNull();
    const ids = [...buildPain001(GOLDEN_SEPA).matchAll(/<EndToEndId>([^<]+)</g)].map((m) => payoutIdOfEndToEndId(m[1] ?? ""));
    expect(ids.sort()).toEqual(GOLDEN_SEPA.transfers.map((t) => t.payoutId).sort());
  });

  it("formats amounts from minor units without floating point", () => {
    expect(formatEuroAmount(1)).toBe("0.01");
    expect(formatEuroAmount(100)).toBe("1.00");
    expect(formatEuroAmount(99_999_999_999)).toBe("999999999.99");
    expect(formatEuroAmount(10_000_000_000_000_001n)).toBe("100000000000000.01");
  });

  it("sends addresses structured, never as address lines", () => {
    const xml = buildPain001(GOLDEN_SEPA);
    expect(xml).not.toContain("<AdrLine>");
    expect(xml).toContain("<TwnNm>Lodz</TwnNm>");
    expect(xml).toContain("<StrtNm>Rue de l'Eglise</StrtNm>");
  });
});

describe("what a SEPA file cannot carry", () => {
  const base = sepaTransfer({ payoutId: "0190f0a0-0000-7000-8000-000000000009" });

  it("refuses an address without town or country, a name with nothing left, an amount out of range", () => {
    expect(checkSepaTransfer(base)).toBeNull();
    expect(checkSepaTransfer({ ...base, creditorAddress: null })).toBe("SEPA_ADDRESS_NOT_STRUCTURED");
    expect(checkSepaTransfer({ ...base, creditorAddress: { townName: "  ", country: "ES" } })).toBe(
      "SEPA_ADDRESS_NOT_STRUCTURED",
    );
    expect(checkSepaTransfer({ ...base, creditorAddress: { townName: "Madrid", country: "es" } })).toBe(
      "SEPA_ADDRESS_NOT_STRUCTURED",
    );
    expect(checkSepaTransfer({ ...base, creditorName: "王小明" })).toBe("SEPA_NAME_NOT_REPRESENTABLE");
    expect(checkSepaTransfer({ ...base, creditorName: "Ελένη" })).toBeNull();
    expect(checkSepaTransfer({ ...base, amountMinor: 0 })).toBe("SEPA_AMOUNT_OUT_OF_RANGE");
    expect(checkSepaTransfer({ ...base, amountMinor: 100_000_000_000 })).toBe("SEPA_AMOUNT_OUT_OF_RANGE");
    expect(checkSepaTransfer({ ...base, creditorIban: "ES91 2100" })).toBe("SEPA_ACCOUNT_INVALID");
    expect(checkSepaTransfer({ ...base, creditorBic: "bad" })).toBe("SEPA_ACCOUNT_INVALID");
  });

  it("builds no file at all when one transfer cannot be carried", () => {
    const message = {
      ...GOLDEN_SEPA,
      transfers: [base, { ...base, payoutId: "0190f0a0-0000-7000-8000-00000000000b", creditorAddress: null }],
    };
    expect(() => buildPain001(message)).toThrow(SepaFileError);
    expect(() => buildPain001({ ...GOLDEN_SEPA, transfers: [] })).toThrow(/at least one/);
  });
});

describe("pain.001.001.03", () => {
  it("writes the golden file byte for byte", () => {
    expect(buildPain001({ ...GOLDEN_SEPA, version: "pain.001.001.03" })).toBe(golden("pain.001.001.03.xml"));
  });

  it("uses the version's own element names", () => {
    const xml = buildPain001({ ...GOLDEN_SEPA, version: "pain.001.001.03" });
    expect(xml).toContain('xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"');
    expect(xml).toContain("<ReqdExctnDt>2026-11-25</ReqdExctnDt>");
    expect(xml).toContain("<BIC>COBADEFFXXX</BIC>");
    expect(xml).not.toContain("BICFI");
    expect(xml).not.toContain("<BldgNm>");
  });
});

describe("the writer's file through an independent reading", () => {
  it("a pain.002 answer names the message and transactions the file carried", () => {
    // Not the writer's parser: fast-xml-parser reads back MsgId and EndToEndIds as the bank would echo them.
    const xml = buildPain001({
      ...GOLDEN_SEPA,
      transfers: [sepaTransfer({ payoutId: "0190f0a0-0000-7000-8000-00000000000c", debtor: SECOND_DEBTOR })],
    });
    const msgId = /<MsgId>([^<]+)</.exec(xml)?.[1] ?? "";
    const report = readPain002(
      `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10"><CstmrPmtStsRpt><GrpHdr><MsgId>R1</MsgId></GrpHdr><OrgnlGrpInfAndSts><OrgnlMsgId>${msgId}</OrgnlMsgId><GrpSts>ACCP</GrpSts></OrgnlGrpInfAndSts></CstmrPmtStsRpt></Document>`,
    );
    expect(report.originalMessageId).toBe(GOLDEN_SEPA.messageId);
  });
});

describe("the streaming writer", () => {
  it("writes the same document in chunks as in one string, none of them the whole file", () => {
    const chunks: string[] = [];
    writePain001(GOLDEN_SEPA, (chunk) => chunks.push(chunk));
    expect(chunks.join("")).toBe(buildPain001(GOLDEN_SEPA));
    expect(chunks.length).toBeGreaterThan(100);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(200);
  });

  it("escapes markup in the values it does not transliterate, so the file stays well-formed", () => {
    const xml = buildPain001({ ...GOLDEN_SEPA, messageId: 'A&B<C>D"E' });
    expect(xml).toContain("<MsgId>A&amp;B&lt;C&gt;D&quot;E</MsgId>");
    // Read back by a parser that is not the writer: the value comes back as it was given.
    const parsed = new XMLParser({ processEntities: true, parseTagValue: false }).parse(xml) as {
      Document: { CstmrCdtTrfInitn: { GrpHdr: { MsgId: string } } };
    };
    expect(parsed.Document.CstmrCdtTrfInitn.GrpHdr.MsgId).toBe('A&B<C>D"E');
  });

  withSchema("a 2,000-transfer file over several blocks validates, its totals read back by another parser", async () => {
    const transfers = Array.from({ length: 2_000 }, (_, i) =>
      sepaTransfer({
        payoutId: `0190f0a0-0000-7000-8000-${String(i).padStart(12, "0")}`,
        amountMinor: 1 + i * 7,
        creditorName: `Zoë Ångström & Søn ${i}`,
        remittance: `Payout ${i} – für Müller`,
        executionDate: i % 3 === 0 ? "2026-11-26" : "2026-11-25",
        debtor: i % 2 === 0 ? (GOLDEN_SEPA.transfers[0]?.debtor ?? SECOND_DEBTOR) : SECOND_DEBTOR,
      }),
    );
    const xml = buildPain001({ ...GOLDEN_SEPA, transfers });
    expect(await epcSchemaErrors(xml)).toEqual([]);
    const parsed = new XMLParser({ parseTagValue: false, isArray: (name) => name === "PmtInf" || name === "CdtTrfTxInf" }).parse(
      xml,
    ) as {
      Document: {
        CstmrCdtTrfInitn: {
          GrpHdr: { NbOfTxs: string; CtrlSum: string };
          PmtInf: Array<{ NbOfTxs: string; CtrlSum: string; CdtTrfTxInf: Array<{ Amt: { InstdAmt: string } }> }>;
        };
      };
    };
    const root = parsed.Document.CstmrCdtTrfInitn;
    const cents = (text: string) => Number(text.replace(".", ""));
    expect(root.PmtInf).toHaveLength(4);
    expect(root.GrpHdr.NbOfTxs).toBe("2000");
    const expectedTotal = transfers.reduce((sum, t) => sum + t.amountMinor, 0);
    expect(cents(root.GrpHdr.CtrlSum)).toBe(expectedTotal);
    let total = 0;
    for (const block of root.PmtInf) {
      const amounts = block.CdtTrfTxInf.map((tx) => cents(tx.Amt.InstdAmt));
      expect(String(amounts.length)).toBe(block.NbOfTxs);
      expect(cents(block.CtrlSum)).toBe(amounts.reduce((a, b) => a + b, 0));
      total += cents(block.CtrlSum);
    }
    expect(total).toBe(expectedTotal);
  });
});
