// The "bank" of the tests: writes the answers a bank sends back, from the standards' layouts, with no code of
// the service: pain.002 status reports, camt.054 notifications, and NACHA return / notification-of-change
// files. Every value is given by the test, so each answer is exactly what the test means to send.
import { afterAll, beforeAll } from "vitest";
import { expectIsoValid } from "./iso-xsd.js";

/** Every pain.002 and camt.054 written so far and not yet checked (expectWrittenAnswersIsoValid). */
const unchecked: string[] = [];

function remember(xml: string): string {
  unchecked.push(xml);
  return xml;
}

/**
 * Checks every pain.002 and camt.054 this bank wrote since the last call against its ISO 20022 schema (the
 * test files that send them call it in `afterAll`), so the answers the service is tested with are ones a bank
 * could send. Skipped, with the check, where the schemas are absent.
 */
export async function expectWrittenAnswersIsoValid(): Promise<void> {
  const written = unchecked.splice(0);
  for (const xml of new Set(written)) await expectIsoValid(xml);
}

/**
 * For a test file that sends the bank's answers: what it writes (and only that: files run one after another in
 * a worker) is checked against the ISO 20022 schemas once its tests have run.
 */
export function checkBankAnswersOfThisFile(): void {
  beforeAll(() => {
    unchecked.splice(0);
  });
  afterAll(expectWrittenAnswersIsoValid, 120_000);
}

function escapeXml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export interface BankTransactionStatus {
  readonly endToEndId: string;
  /** Absent: the transaction is listed without a status of its own (its block's or the group's applies). */
  readonly status?: "ACCP" | "ACSC" | "ACSP" | "ACTC" | "ACWC" | "RJCT" | "PDNG";
  readonly reasonCode?: string;
  readonly additionalInfo?: string;
  /** OrgnlTxRef/Amt/InstdAmt, decimal text ("10.00"), when the bank repeats the amount. */
  readonly originalAmount?: string;
}

export interface BankBlockStatus {
  readonly paymentInfoId: string;
  /** PmtInfSts; absent when the bank reports the block's transactions only. */
  readonly status?: string;
  readonly reasonCode?: string;
  readonly transactions?: readonly BankTransactionStatus[];
}

/**
 * A pain.002 status report on `originalMessageId`, version .001.10 (default) or .001.03: a group status, and
 * either `blocks` (each with its PmtInfSts and transactions) or, the short form, `paymentInfoId` with
 * `transactions` (one block without a status of its own).
 */
export function bankPain002(options: {
  readonly messageId: string;
  readonly originalMessageId: string;
  readonly version?: 3 | 10;
  readonly groupStatus: string | null;
  readonly groupReasonCode?: string;
  readonly paymentInfoId?: string;
  readonly transactions?: readonly BankTransactionStatus[];
  readonly blocks?: readonly BankBlockStatus[];
}): string {
  const version = options.version ?? 10;
  const reason = (code: string | undefined, info: string | undefined) =>
    code ? `<StsRsnInf><Rsn><Cd>${code}</Cd></Rsn>${info ? `<AddtlInf>${escapeXml(info)}</AddtlInf>` : ""}</StsRsnInf>` : "";
  const transaction = (tx: BankTransactionStatus, i: number) =>
    `<TxInfAndSts><StsId>S${i + 1}</StsId><OrgnlEndToEndId>${tx.endToEndId}</OrgnlEndToEndId>${tx.status ? `<TxSts>${tx.status}</TxSts>` : ""}${reason(tx.reasonCode, tx.additionalInfo)}${tx.originalAmount ? `<OrgnlTxRef><Amt><InstdAmt Ccy="EUR">${tx.originalAmount}</InstdAmt></Amt></OrgnlTxRef>` : ""}</TxInfAndSts>`;
  const blocks: readonly BankBlockStatus[] =
    options.blocks ??
    (options.transactions && options.transactions.length > 0
      ? [{ paymentInfoId: options.paymentInfoId ?? "UNKNOWN", transactions: options.transactions }]
      : []);
  const blockXml = blocks
    .map(
      (block) => `<OrgnlPmtInfAndSts>
      <OrgnlPmtInfId>${block.paymentInfoId}</OrgnlPmtInfId>
      ${block.status ? `<PmtInfSts>${block.status}</PmtInfSts>` : ""}${reason(block.reasonCode, undefined)}
      ${(block.transactions ?? []).map(transaction).join("\n      ")}
    </OrgnlPmtInfAndSts>`,
    )
    .join("\n    ");
  return remember(`<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.${version === 3 ? "03" : "10"}">
  <CstmrPmtStsRpt>
    <GrpHdr><MsgId>${options.messageId}</MsgId><CreDtTm>2026-11-25T08:00:00</CreDtTm></GrpHdr>
    <OrgnlGrpInfAndSts>
      <OrgnlMsgId>${options.originalMessageId}</OrgnlMsgId>
      <OrgnlMsgNmId>${version === 3 ? "pain.001.001.03" : "pain.001.001.09"}</OrgnlMsgNmId>
      ${options.groupStatus ? `<GrpSts>${options.groupStatus}</GrpSts>` : ""}
      ${reason(options.groupReasonCode, undefined)}
    </OrgnlGrpInfAndSts>
    ${blockXml}
  </CstmrPmtStsRpt>
</Document>
`);
}

export interface BankBooking {
  readonly endToEndId: string;
  /** Decimal text as the bank writes it, e.g. "1234.50". */
  readonly amount: string;
  readonly creditDebit: "CRDT" | "DBIT";
  /** `YYYY-MM-DD` (BookgDt/Dt) or a date-time (BookgDt/DtTm). */
  readonly bookingDate: string;
  readonly returnReasonCode?: string;
  readonly returnInfo?: string;
  /** Entry status; BOOK when absent. */
  readonly status?: "BOOK" | "PDNG" | "INFO";
}

/** An entry booked for a whole payment block (NtryDtls/Btch), as BtchBookg=true asks for. */
export interface BankBatchBooking {
  readonly paymentInfoId: string;
  /** NbOfTxs; absent when the bank leaves it out. */
  readonly numberOfTransactions?: number;
  /** TtlAmt, decimal text; absent when the bank leaves it out. */
  readonly totalAmount?: string;
  /** The entry's amount, decimal text. */
  readonly amount: string;
  readonly bookingDate: string;
  readonly status?: "BOOK" | "PDNG" | "INFO";
}

/**
 * A camt.054 notification, version 2 (`<Sts>BOOK</Sts>`, the amount in AmtDtls) or 8 (`<Sts><Cd>BOOK</Cd></Sts>`),
 * with entries booked per transaction (`bookings`) and per batch (`batches`).
 */
export function bankCamt054(options: {
  readonly messageId: string;
  readonly version?: 2 | 8;
  readonly bookings: readonly BankBooking[];
  readonly batches?: readonly BankBatchBooking[];
}): string {
  const version = options.version ?? 8;
  const status = (code: string | undefined) =>
    version === 2 ? `<Sts>${code ?? "BOOK"}</Sts>` : `<Sts><Cd>${code ?? "BOOK"}</Cd></Sts>`;
  const date = (value: string) => (value.length > 10 ? `<DtTm>${value}</DtTm>` : `<Dt>${value}</Dt>`);
  const code = "<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>";
  const txAmount = (amount: string, indicator: string) =>
    version === 2
      ? `<AmtDtls><TxAmt><Amt Ccy="EUR">${amount}</Amt></TxAmt></AmtDtls>`
      : `<Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd>`;
  const entries = options.bookings
    .map(
      (b) => `<Ntry>
        <Amt Ccy="EUR">${b.amount}</Amt><CdtDbtInd>${b.creditDebit}</CdtDbtInd>${status(b.status)}
        <BookgDt>${date(b.bookingDate)}</BookgDt>
        ${code}
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>${b.endToEndId}</EndToEndId></Refs>
          ${txAmount(b.amount, b.creditDebit)}
          ${b.returnReasonCode ? `<RtrInf><Rsn><Cd>${b.returnReasonCode}</Cd></Rsn>${b.returnInfo ? `<AddtlInf>${escapeXml(b.returnInfo)}</AddtlInf>` : ""}</RtrInf>` : ""}
        </TxDtls></NtryDtls>
      </Ntry>`,
    )
    .concat(
      (options.batches ?? []).map(
        (b) => `<Ntry>
        <Amt Ccy="EUR">${b.amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd>${status(b.status)}
        <BookgDt>${date(b.bookingDate)}</BookgDt>
        ${code}
        <NtryDtls><Btch>
          <PmtInfId>${b.paymentInfoId}</PmtInfId>${b.numberOfTransactions === undefined ? "" : `<NbOfTxs>${b.numberOfTransactions}</NbOfTxs>`}${b.totalAmount === undefined ? "" : `<TtlAmt Ccy="EUR">${b.totalAmount}</TtlAmt>`}<CdtDbtInd>DBIT</CdtDbtInd>
        </Btch></NtryDtls>
      </Ntry>`,
      ),
    )
    .join("\n      ");
  const ns = version === 2 ? "camt.054.001.02" : "camt.054.001.08";
  return remember(`<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:${ns}">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>${options.messageId}</MsgId><CreDtTm>2026-11-26T08:00:00</CreDtTm></GrpHdr>
    <Ntfctn>
      <Id>N1</Id>
      <CreDtTm>2026-11-26T08:00:00</CreDtTm>
      <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>
      ${entries}
    </Ntfctn>
  </BkToCstmrDbtCdtNtfctn>
</Document>
`);
}

// The NACHA return / notification-of-change file lives in test-bank-nacha.ts (no vitest import: the corpus, which the
// bench also loads, writes its ACH answers with it).
export { type BankAchReturn, bankAchReturnFile } from "./test-bank-nacha.js";
