// Bank files: building a 10,000-payout pain.001.001.09 and a 10,000-entry NACHA file, and reading a
// 10,000-transaction pain.002 status report, in this process (pure code: no service, no database). Time is
// the wall time of one build after one warm-up build; memory is the growth of the V8 heap and RSS peak
// sampled during the build. Targets: each under 2 s.
//
// Not measured here (not built yet): ingesting a 10,000-entry status report through the service on
// PostgreSQL (the poll job applying it in one transaction).
import { readPain002 } from "../src/rails/bank-files/iso-readers.js";
import { buildNachaFile } from "../src/rails/bank-files/nacha-writer.js";
import { buildPain001, endToEndIdOf } from "../src/rails/bank-files/sepa-pain001.js";
import { round } from "./lib/stats.js";
import type { Benchmark } from "./lib/types.js";

const COUNT = 10_000;
const TARGET_MS = 2_000;
const MB = 1024 * 1024;

function payoutId(i: number): string {
  return `0190f0a0-0000-7000-8000-${String(i).padStart(12, "0")}`;
}

function measure(build: () => number): {
  ms: number | null;
  heap_growth_mb: number | null;
  rss_peak_mb: number | null;
  bytes: number;
} {
  build(); // warm-up
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let rssPeak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  const bytes = build();
  const ms = performance.now() - started;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  return {
    ms: round(ms, 1),
    heap_growth_mb: round((process.memoryUsage().heapUsed - heapBefore) / MB, 1),
    rss_peak_mb: round(rssPeak / MB, 1),
    bytes,
  };
}

export const bankFilesBenchmark: Benchmark = {
  name: "bank_files",
  description: "Build a 10,000-payout pain.001 and a 10,000-entry NACHA file; read a 10,000-transaction pain.002.",
  async run(context) {
    const debtor = {
      name: "Acme Payouts GmbH",
      iban: "DE89370400440532013000",
      bic: "COBADEFFXXX",
      address: { townName: "Berlin", country: "DE" },
    };
    const transfers = Array.from({ length: COUNT }, (_, i) => ({
      payoutId: payoutId(i),
      amountMinor: 1_000 + i,
      creditorName: `Zoë Ångström ${i}`,
      creditorIban: "FR1420041010050500013M02606",
      creditorBic: null,
      creditorAddress: {
        streetName: "Rue de l'Église",
        buildingNumber: "12",
        postalCode: "75001",
        townName: "Paris",
        country: "FR",
      },
      remittance: `Payout ${i}`,
      purposeCode: null,
      executionDate: "2026-11-25",
      debtor,
    }));
    context.log("bank_files: pain.001");
    const pain001 = measure(
      () =>
        buildPain001({
          version: "pain.001.001.09",
          messageId: "BENCH-1",
          createdAt: "2026-11-24T15:00:00",
          initiatingParty: { name: "Acme", id: null },
          transfers,
        }).length,
    );
    const credits = Array.from({ length: COUNT }, (_, i) => ({
      payoutId: payoutId(i),
      amountMinor: 1_000 + i,
      secCode: (i % 2 === 0 ? "PPD" : "CCD") as "PPD" | "CCD",
      accountType: "checking" as const,
      routingNumber: "021000021",
      accountNumber: String(100_000_000 + i),
      receiverName: `José Núñez ${i}`,
      receiverId: String(i),
      entryDescription: "PAYOUT",
      effectiveDate: "2026-11-27",
    }));
    context.log("bank_files: NACHA");
    const nacha = measure(
      () =>
        buildNachaFile({
          originator: {
            odfiRoutingNumber: "091000019",
            immediateDestination: "091000019",
            immediateDestinationName: "Bank",
            immediateOrigin: "1234567890",
            immediateOriginName: "Acme",
            companyName: "Acme",
            companyIdentification: "1234567890",
          },
          createdDate: "2026-11-25",
          createdTime: "15:00",
          fileIdModifier: "A",
          credits,
        }).content.length,
    );
    const txs = Array.from(
      { length: COUNT },
      (_, i) =>
        `<TxInfAndSts><OrgnlEndToEndId>${endToEndIdOf(payoutId(i))}</OrgnlEndToEndId><TxSts>${i % 10 === 0 ? "RJCT" : "ACCP"}</TxSts>${i % 10 === 0 ? "<StsRsnInf><Rsn><Cd>AC04</Cd></Rsn></StsRsnInf>" : ""}</TxInfAndSts>`,
    ).join("");
    const report = `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10"><CstmrPmtStsRpt><GrpHdr><MsgId>S</MsgId></GrpHdr><OrgnlGrpInfAndSts><OrgnlMsgId>BENCH-1</OrgnlMsgId><GrpSts>PART</GrpSts></OrgnlGrpInfAndSts><OrgnlPmtInfAndSts><OrgnlPmtInfId>P</OrgnlPmtInfId>${txs}</OrgnlPmtInfAndSts></CstmrPmtStsRpt></Document>`;
    context.log("bank_files: pain.002 read");
    const pain002 = measure(() => readPain002(report).transactions.length);
    const met = (m: { ms: number | null }) => m.ms !== null && m.ms < TARGET_MS;
    return {
      count: COUNT,
      target_ms: TARGET_MS,
      pain001_09: { ...pain001, met: met(pain001) },
      nacha: { ...nacha, met: met(nacha) },
      pain002_read: { ...pain002, met: met(pain002) },
      not_measured: "ingesting a 10,000-entry status report through the service on PostgreSQL",
    };
  },
};
