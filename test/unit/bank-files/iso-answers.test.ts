// What a pain.002 or a batch-booked camt.054 does to the items of one of our SEPA files, decided on every fact
// it carries: a transaction's own status over its block's over the group's; PART and PDNG move nothing by
// themselves; a batch moves its block only when it is the block less its rejected items. Readers included:
// OrgnlTxRef amounts, Btch entries, booking date-times, and the blocks of our own pain.001.
import { describe, expect, it } from "vitest";
import {
  checkBatchBooking,
  decideStatusReport,
  type FileItemFacts,
  fileStatusOf,
} from "../../../src/modules/bank-rails/bank-rails.iso-answers.js";
import { readCamt054, readPain001Blocks, readPain002 } from "../../../src/rails/bank-files/iso-readers.js";
import { buildPain001, paymentInfoIdsOf, type SepaTransfer } from "../../../src/rails/bank-files/sepa-pain001.js";
import { bankCamt054, bankPain002 } from "../../helpers/test-bank.js";

const FILE = { fileName: "sepa-1.xml", messageId: "PO20260601T1300Z000000000001", status: "uploaded" };
const BLOCK = `${FILE.messageId}-0001`;
const ref = (n: number) => `0190f0a0000070008000${String(n).padStart(12, "0")}`;
const item = (n: number, amountMinor: number, bankStatus: string | null = null): FileItemFacts => ({
  payoutId: `p${n}`,
  reference: ref(n),
  amountMinor,
  bankStatus,
});
const blocks = [{ paymentInfoId: BLOCK, transactions: [1, 2, 3].map((n) => ({ endToEndId: ref(n), amountMinor: n * 1000 })) }];
const items = [item(1, 1000), item(2, 2000), item(3, 3000)];

describe("decideStatusReport", () => {
  it("a transaction's own status wins over its block's, the block's over the group's", () => {
    const report = readPain002(
      bankPain002({
        messageId: "S",
        originalMessageId: FILE.messageId,
        groupStatus: "RJCT",
        blocks: [
          { paymentInfoId: BLOCK, status: "ACCP", transactions: [{ endToEndId: ref(2), status: "RJCT", reasonCode: "AC04" }] },
        ],
      }),
    );
    const decision = decideStatusReport(report, FILE, blocks, items);
    expect(decision.items.get("p1")).toMatchObject({ status: "ACCP", outcome: "acknowledged" });
    expect(decision.items.get("p2")).toMatchObject({ status: "RJCT", outcome: "failed", reason: "AC04: The account is closed." });
    expect(decision.items.get("p3")).toMatchObject({ status: "ACCP", outcome: "acknowledged" });
    expect(decision.fileStatus).toBe("partially_accepted");
  });

  it("PART at block level does not fall through to the group: silent transactions stay as they are", () => {
    const report = readPain002(
      bankPain002({
        messageId: "S",
        originalMessageId: FILE.messageId,
        groupStatus: "ACCP",
        version: 3,
        blocks: [{ paymentInfoId: BLOCK, status: "PART", transactions: [{ endToEndId: ref(1), status: "ACSC" }] }],
      }),
    );
    const decision = decideStatusReport(report, FILE, blocks, items);
    expect([...decision.items.keys()]).toEqual(["p1"]);
    expect(decision.fileStatus).toBe("partially_accepted");
  });

  it("PDNG moves nothing; the same outcome again moves nothing a second time", () => {
    const pending = readPain002(bankPain002({ messageId: "S", originalMessageId: FILE.messageId, groupStatus: "PDNG" }));
    expect(decideStatusReport(pending, FILE, blocks, items)).toMatchObject({ fileStatus: "uploaded", rejected: 0 });
    expect(decideStatusReport(pending, FILE, blocks, items).items.size).toBe(0);
    const again = readPain002(bankPain002({ messageId: "S", originalMessageId: FILE.messageId, groupStatus: "ACSC" }));
    const decided = decideStatusReport(again, FILE, blocks, [
      item(1, 1000, "ACTC"),
      item(2, 2000, "ACSC"),
      item(3, 3000, "BOOK"),
    ]);
    expect([...decided.items]).toEqual([["p1", { status: "ACSC", outcome: null, reason: null }]]);
    expect(decided.fileStatus).toBe("accepted");
    // A rejection of a transfer the bank already booked is said, not applied.
    const late = readPain002(bankPain002({ messageId: "S", originalMessageId: FILE.messageId, groupStatus: "RJCT" }));
    const lateDecision = decideStatusReport(late, FILE, blocks, [item(1, 1000, "BOOK")]);
    expect(lateDecision.items.size).toBe(0);
    expect(lateDecision.problems).toEqual([
      `pain.002 S: transaction ${ref(1)} is rejected, but the bank already reported it booked; nothing was moved.`,
    ]);
  });

  it("a line with another amount, another block, or an id not in the file moves nothing and is said", () => {
    const report = readPain002(
      bankPain002({
        messageId: "S",
        originalMessageId: FILE.messageId,
        groupStatus: "ACCP",
        blocks: [
          {
            paymentInfoId: BLOCK,
            transactions: [
              { endToEndId: ref(1), status: "ACCP", originalAmount: "10.01" },
              { endToEndId: ref(9), status: "RJCT" },
            ],
          },
          { paymentInfoId: "OTHER-0001", transactions: [{ endToEndId: ref(2), status: "RJCT" }] },
        ],
      }),
    );
    const decision = decideStatusReport(report, FILE, blocks, items);
    expect(decision.problems).toEqual([
      "pain.002 S reports on payment block OTHER-0001, which is not a block of file sepa-1.xml (message PO20260601T1300Z000000000001); nothing was moved for it.",
      `pain.002 S: transaction ${ref(1)} (ACCP): we sent EUR 10.00, the status report says EUR 10.01; nothing was moved.`,
      `pain.002 S: transaction ${ref(9)} (RJCT) is not one we sent in file sepa-1.xml (message PO20260601T1300Z000000000001); nothing was moved.`,
      `pain.002 S: transaction ${ref(2)} (RJCT) is reported under payment block OTHER-0001, but we sent it in block ${BLOCK} of file sepa-1.xml; nothing was moved.`,
    ]);
    // Only the undisputed one takes the group's ACCP.
    expect([...decision.items.keys()]).toEqual(["p3"]);
  });

  it("the file's status from its items", () => {
    expect(fileStatusOf(["accepted", "accepted"], "uploaded")).toBe("accepted");
    expect(fileStatusOf(["rejected", "rejected"], "uploaded")).toBe("rejected");
    expect(fileStatusOf(["undecided", "undecided"], "uploaded")).toBe("uploaded");
    expect(fileStatusOf(["rejected", "undecided"], "uploaded")).toBe("partially_accepted");
    expect(fileStatusOf(["accepted", "rejected"], "uploaded")).toBe("partially_accepted");
  });
});

describe("checkBatchBooking", () => {
  const batchOf = (xml: string) => readCamt054(xml).batches[0] as NonNullable<ReturnType<typeof readCamt054>["batches"][number]>;
  const batch = (numberOfTransactions: number | undefined, totalAmount: string | undefined, amount: string) =>
    batchOf(
      bankCamt054({
        messageId: "N",
        bookings: [],
        batches: [
          {
            paymentInfoId: BLOCK,
            amount,
            bookingDate: "2026-06-02",
            ...(numberOfTransactions === undefined ? {} : { numberOfTransactions }),
            ...(totalAmount === undefined ? {} : { totalAmount }),
          },
        ],
      }),
    );
  const withRejected = [item(1, 1000, "ACCP"), item(2, 2000, "RJCT"), item(3, 3000)];

  it("the block less its rejected items moves the rest", () => {
    expect(checkBatchBooking(batch(2, "40.00", "40.00"), blocks[0] as never, FILE, withRejected, "N")).toEqual({
      matched: true,
      payoutIds: ["p1", "p3"],
    });
    expect(checkBatchBooking(batch(undefined, undefined, "40.00"), blocks[0] as never, FILE, withRejected, "N").matched).toBe(
      true,
    );
  });

  it("anything else moves nothing and says what was expected and booked", () => {
    expect(checkBatchBooking(batch(3, "60.00", "60.00"), blocks[0] as never, FILE, withRejected, "N")).toEqual({
      matched: false,
      problem: `camt.054 N: batch booking of payment block ${BLOCK} (file sepa-1.xml) does not add up: we expected 2 transactions for EUR 40.00 (3 sent less 1 rejected), the bank booked NbOfTxs 3, TtlAmt EUR 60.00, entry amount EUR 60.00; nothing was moved.`,
    });
    expect(checkBatchBooking(batch(2, "40.00", "39.99"), blocks[0] as never, FILE, withRejected, "N").matched).toBe(false);
    expect(checkBatchBooking(batch(2, "40.01", "40.00"), blocks[0] as never, FILE, withRejected, "N").matched).toBe(false);
  });
});

describe("readers", () => {
  it("reads a batch entry (both versions) and keeps a booking date-time as written", () => {
    for (const version of [2, 8] as const) {
      const read = readCamt054(
        bankCamt054({
          messageId: "N",
          version,
          bookings: [{ endToEndId: ref(1), amount: "10.00", creditDebit: "DBIT", bookingDate: "2026-06-02T10:15:00+02:00" }],
          batches: [
            { paymentInfoId: BLOCK, numberOfTransactions: 2, totalAmount: "40.00", amount: "40.00", bookingDate: "2026-06-02" },
          ],
        }),
      );
      expect(read.transactions[0]).toMatchObject({ amountMinor: 1000, bookingDate: "2026-06-02T10:15:00+02:00" });
      expect(read.batches).toEqual([
        {
          paymentInfoId: BLOCK,
          numberOfTransactions: 2,
          totalAmountMinor: 4000,
          totalCurrency: "EUR",
          entryAmountMinor: 4000,
          entryCurrency: "EUR",
          creditDebit: "DBIT",
          entryStatus: "BOOK",
          bookingDate: "2026-06-02",
        },
      ]);
    }
  });

  it("reads the OrgnlTxRef amount of a status line", () => {
    const report = readPain002(
      bankPain002({
        messageId: "S",
        originalMessageId: "M",
        version: 3,
        groupStatus: null,
        paymentInfoId: BLOCK,
        transactions: [{ endToEndId: ref(1), status: "ACCP", originalAmount: "12.30" }],
      }),
    );
    expect(report.transactions[0]).toMatchObject({ originalAmountMinor: 1230, originalCurrency: "EUR" });
  });

  it("the blocks of our own pain.001 are the ones paymentInfoIdsOf gives each transfer", () => {
    const debtor = { name: "Acme", iban: "DE89370400440532013000", bic: "COBADEFFXXX" };
    const transfer = (n: number, executionDate: string): SepaTransfer =>
      ({
        payoutId: `0190f0a0-0000-7000-8000-${String(n).padStart(12, "0")}`,
        amountMinor: n * 100,
        creditorName: "Ana Perez",
        creditorIban: "ES9121000418450200051332",
        creditorBic: null,
        creditorAddress: {
          streetName: "Calle Mayor",
          buildingNumber: "5",
          postalCode: "28013",
          townName: "Madrid",
          country: "ES",
        },
        remittance: null,
        purposeCode: null,
        executionDate,
        debtor,
      }) as unknown as SepaTransfer;
    const transfers = [transfer(1, "2026-06-03"), transfer(2, "2026-06-02"), transfer(3, "2026-06-03")];
    const message = {
      version: "pain.001.001.09" as const,
      messageId: FILE.messageId,
      createdAt: "2026-06-01T13:00:00",
      initiatingParty: { name: "Acme", id: null },
      transfers,
    };
    const written = readPain001Blocks(buildPain001(message as never));
    const kept = paymentInfoIdsOf(message);
    for (const block of written)
      for (const tx of block.transactions) {
        const payoutId = transfers.find((t) => t.payoutId.replaceAll("-", "") === tx.endToEndId)?.payoutId;
        expect(kept.get(payoutId as string)).toBe(block.paymentInfoId);
      }
    expect(written.map((b) => b.transactions.length)).toEqual([1, 2]);
  });
});
