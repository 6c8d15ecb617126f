// Readers of the bank's ISO 20022 answers: pain.002 (customer payment status report: was the file, a payment
// block or a transaction accepted or rejected) and camt.054 (debit/credit notification: a transfer booked on
// the account, or a returned one credited back). Parsed by parseXml below: a document type declaration refused
// outright, well-formedness decided by fast-xml-parser's XMLValidator, the tree built by xml-tree.ts (or by
// fast-xml-parser's XMLParser for the rare shapes it leaves alone), no entity expanded, and every value kept as
// a string (amounts and ids keep their leading zeros; amounts become minor units without floating point). Any
// version of either message is read: only elements common to all of them are used.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { readXmlTree } from "./xml-tree.js";

export class IsoParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IsoParseError";
  }
}

export type XmlNode = { readonly [key: string]: unknown };

/** The elements always read as lists, however many a file holds (one `Ntry` is still a list of one). */
export const REPEATED_ELEMENTS: ReadonlySet<string> = new Set([
  "OrgnlPmtInfAndSts",
  "TxInfAndSts",
  "StsRsnInf",
  "Ntfctn",
  "Ntry",
  "NtryDtls",
  "TxDtls",
  "AddtlInf",
  "Rsn",
  "Btch",
  "PmtInf",
  "CdtTrfTxInf",
  // camt.052/053 (statements.ts reads them with these helpers too)
  "Stmt",
  "Rpt",
  "Bal",
  "Ustrd",
  "Chrgs",
  "Rcrd",
]);

const isRepeated = (name: string) => REPEATED_ELEMENTS.has(name);

/** fast-xml-parser's XMLParser with the options the readers were written against; xml-tree.ts builds the same. */
function parseWithXmlParser(text: string): unknown {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    trimValues: true,
    isArray: isRepeated,
  });
  try {
    return parser.parse(text);
  } catch (error) {
    throw new IsoParseError(`the file is not well-formed XML: ${(error as Error).message}`);
  }
}

/**
 * The tree of an ISO 20022 file: a document type declaration refused, then XMLValidator decides whether the file
 * is well-formed (its refusal said in words by notWellFormed), then readXmlTree builds the tree in one pass; a file
 * of a shape it leaves alone (see xml-tree.ts) is read by XMLParser instead. Either way the same object: every
 * value a trimmed string as written (no entity expanded), attributes as `@name`, namespace prefixes dropped.
 */
export function parseXml(text: string): XmlNode {
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) throw new IsoParseError("document type declarations are not accepted");
  const validation = XMLValidator.validate(text);
  if (validation !== true) throw new IsoParseError(notWellFormed(text, validation.err));
  const parsed = readXmlTree(text, isRepeated) ?? parseWithXmlParser(text);
  if (typeof parsed !== "object" || parsed === null) throw new IsoParseError("empty document");
  return parsed as XmlNode;
}

/**
 * fast-xml-parser's validation error in words a bank operations person reads: where (line, column) and what.
 * Its own message for a file cut short lists the open elements as a JSON array at line 1, column 1
 * (`Invalid '[ "Document", ... ]' found.`): said here as the elements left open at the end of the file.
 */
function notWellFormed(text: string, err: { code: string; msg: string; line: number; col?: number }): string {
  const where = err.col === undefined ? `line ${err.line}` : `line ${err.line}, column ${err.col}`;
  if (text.trim() === "") return "the file is empty: not an XML document";
  if (err.code === "InvalidXml") {
    const open = /^Invalid '(\[[\s\S]*\])' found\.$/.exec(err.msg);
    if (open?.[1] !== undefined) {
      let names: string[] = [];
      try {
        names = JSON.parse(open[1]) as string[];
      } catch {
        names = [];
      }
      const last = text.split("\n");
      const end = `line ${last.length}, column ${(last.at(-1) ?? "").length + 1}`;
      return `the file is not well-formed XML: it ends (${end}) with ${names.length} element${names.length === 1 ? "" : "s"} left open (${names.map((n) => `<${n}>`).join(" > ")}); it looks cut short`;
    }
    return `the file is not well-formed XML: ${where}: ${err.msg.replace(/\.$/, "")}`;
  }
  if (err.code === "InvalidChar" && err.line === 1 && err.col === 1)
    return `the file is not XML: it starts with ${JSON.stringify(text.trimStart().slice(0, 20))}, not with an element`;
  return `the file is not well-formed XML: ${where}: ${err.msg.replace(/\.$/, "")}`;
}

/** The root element's local name (namespace prefix dropped), for a refusal naming what the file is. */
export function rootName(document: XmlNode): string {
  const names = Object.keys(document).filter((key) => !key.startsWith("?") && !key.startsWith("@"));
  return names[0] ?? "(none)";
}

export function child(node: unknown, name: string): XmlNode | undefined {
  if (typeof node !== "object" || node === null) return undefined;
  const value = (node as XmlNode)[name];
  if (Array.isArray(value)) return value[0] as XmlNode | undefined;
  return typeof value === "object" && value !== null ? (value as XmlNode) : undefined;
}

export function children(node: unknown, name: string): XmlNode[] {
  if (typeof node !== "object" || node === null) return [];
  const value = (node as XmlNode)[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is XmlNode => typeof v === "object" && v !== null);
}

/** The text of a leaf element (or of `#text` when it has attributes), decoding only the five XML entities. */
export function text(node: unknown, ...path: string[]): string | null {
  let current: unknown = node;
  for (const name of path) {
    if (typeof current !== "object" || current === null) return null;
    const value = (current as XmlNode)[name];
    current = Array.isArray(value) ? value[0] : value;
  }
  if (typeof current === "string") return decodeXmlEntities(current);
  if (typeof current === "object" && current !== null && typeof (current as XmlNode)["#text"] === "string") {
    return decodeXmlEntities((current as XmlNode)["#text"] as string);
  }
  return null;
}

export function attribute(node: unknown, path: string[], name: string): string | null {
  let current: unknown = node;
  for (const step of path) {
    if (typeof current !== "object" || current === null) return null;
    const value = (current as XmlNode)[step];
    current = Array.isArray(value) ? value[0] : value;
  }
  if (typeof current !== "object" || current === null) return null;
  const value = (current as XmlNode)[`@${name}`];
  return typeof value === "string" ? value : null;
}

function decodeXmlEntities(value: string): string {
  // Most values hold no reference at all: not run through the expression.
  if (!value.includes("&")) return value;
  return value.replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_, name: string) => ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" })[name] ?? "",
  );
}

/** The strings of a repeated leaf element, entities decoded. */
export function strings(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((v): v is string => typeof v === "string").map(decodeXmlEntities);
}

/** A decimal amount with at most two fraction digits as minor units (`"1234.5"` -> 123450). */
export function parseDecimalAmountMinor(value: string): number {
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) throw new IsoParseError(`not an amount with at most two decimals: ${JSON.stringify(value)}`);
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

interface StatusReason {
  readonly code: string | null;
  readonly additionalInfo: string | null;
}

function reasonOf(node: unknown): StatusReason {
  const reason = children(node, "StsRsnInf")[0];
  if (!reason) return { code: null, additionalInfo: null };
  const code = text(reason, "Rsn", "Cd") ?? text(reason, "Rsn", "Prtry");
  const info = strings(reason.AddtlInf).join(" ");
  return { code, additionalInfo: info === "" ? null : info };
}

export interface Pain002Report {
  readonly messageId: string;
  readonly originalMessageId: string;
  /** ACCP, ACTC, ACSP, ACSC, RJCT, PART, PDNG… or null when the bank reports per block or transaction only. */
  readonly groupStatus: string | null;
  readonly groupReason: StatusReason;
  readonly paymentBlocks: ReadonlyArray<{
    readonly paymentInfoId: string;
    readonly status: string | null;
    readonly reason: StatusReason;
  }>;
  readonly transactions: ReadonlyArray<{
    readonly paymentInfoId: string;
    readonly endToEndId: string;
    readonly status: string | null;
    readonly reason: StatusReason;
    /** OrgnlTxRef/Amt/InstdAmt when the bank repeats it (optional in both versions): the amount it saw. */
    readonly originalAmountMinor: number | null;
    readonly originalCurrency: string | null;
  }>;
}

/**
 * Why a file is neither a pain.002 nor a camt.054, in words: not well-formed (where), or its root element.
 * Throws IsoParseError with that reason.
 */
export function refuseOtherIsoMessage(xml: string): never {
  const root = parseXml(xml);
  const document = child(root, "Document");
  throw new IsoParseError(
    `neither a pain.002 status report nor a camt.054 notification: the root element is <${rootName(root)}>${document ? ` holding <${rootName(document)}>` : ""}, expected <Document> holding <CstmrPmtStsRpt> or <BkToCstmrDbtCdtNtfctn>`,
  );
}

/** Reads a pain.002 (any version). Throws IsoParseError when the file is not one. */
export function readPain002(xml: string): Pain002Report {
  const root = parseXml(xml);
  const document = child(root, "Document");
  const report = child(document, "CstmrPmtStsRpt");
  if (!report)
    throw new IsoParseError(
      `not a pain.002 customer payment status report: the root element is <${rootName(root)}>${document ? ` holding <${rootName(document)}>` : ""}, expected <Document> holding <CstmrPmtStsRpt>`,
    );
  const messageId = text(report, "GrpHdr", "MsgId");
  const group = child(report, "OrgnlGrpInfAndSts");
  const originalMessageId = text(group, "OrgnlMsgId");
  if (!messageId || !originalMessageId) throw new IsoParseError("pain.002 without MsgId or OrgnlMsgId");
  const paymentBlocks: Pain002Report["paymentBlocks"][number][] = [];
  const transactions: Pain002Report["transactions"][number][] = [];
  for (const block of children(report, "OrgnlPmtInfAndSts")) {
    const paymentInfoId = text(block, "OrgnlPmtInfId") ?? "";
    paymentBlocks.push({ paymentInfoId, status: text(block, "PmtInfSts"), reason: reasonOf(block) });
    for (const tx of children(block, "TxInfAndSts")) {
      const endToEndId = text(tx, "OrgnlEndToEndId");
      if (!endToEndId) throw new IsoParseError("pain.002 transaction without OrgnlEndToEndId");
      const amount = text(tx, "OrgnlTxRef", "Amt", "InstdAmt");
      transactions.push({
        paymentInfoId,
        endToEndId,
        status: text(tx, "TxSts"),
        reason: reasonOf(tx),
        originalAmountMinor: amount === null ? null : parseDecimalAmountMinor(amount),
        originalCurrency: attribute(tx, ["OrgnlTxRef", "Amt", "InstdAmt"], "Ccy"),
      });
    }
  }
  return {
    messageId,
    originalMessageId,
    groupStatus: text(group, "GrpSts"),
    groupReason: reasonOf(group),
    paymentBlocks,
    transactions,
  };
}

export interface Camt054Transaction {
  readonly endToEndId: string | null;
  readonly amountMinor: number;
  readonly currency: string;
  /** DBIT: money left the account (our transfer booked); CRDT: money came in (a return credited back). */
  readonly creditDebit: "CRDT" | "DBIT";
  /** BOOK, PDNG, INFO… */
  readonly entryStatus: string;
  /** BookgDt/Dt (a date, `YYYY-MM-DD`) or BookgDt/DtTm (as written, with or without its offset); null if absent. */
  readonly bookingDate: string | null;
  readonly returnReasonCode: string | null;
  readonly returnAdditionalInfo: string | null;
}

/**
 * An entry booked for a whole payment block (`NtryDtls/Btch`, what BtchBookg=true asks for): one amount for
 * the block, its PmtInfId, how many transactions and their total as the bank counted them; no TxDtls.
 */
export interface Camt054Batch {
  readonly paymentInfoId: string | null;
  readonly numberOfTransactions: number | null;
  readonly totalAmountMinor: number | null;
  readonly totalCurrency: string | null;
  /** The entry's own amount and currency (what left the account). */
  readonly entryAmountMinor: number;
  readonly entryCurrency: string;
  readonly creditDebit: "CRDT" | "DBIT";
  readonly entryStatus: string;
  readonly bookingDate: string | null;
}

export interface Camt054Notification {
  readonly messageId: string;
  readonly transactions: readonly Camt054Transaction[];
  readonly batches: readonly Camt054Batch[];
}

/** Reads a camt.054 (any version). Throws IsoParseError when the file is not one. */
export function readCamt054(xml: string): Camt054Notification {
  const root = parseXml(xml);
  const document = child(root, "Document");
  const notification = child(document, "BkToCstmrDbtCdtNtfctn");
  if (!notification)
    throw new IsoParseError(
      `not a camt.054 debit/credit notification: the root element is <${rootName(root)}>${document ? ` holding <${rootName(document)}>` : ""}, expected <Document> holding <BkToCstmrDbtCdtNtfctn>`,
    );
  const messageId = text(notification, "GrpHdr", "MsgId");
  if (!messageId) throw new IsoParseError("camt.054 without MsgId");
  const transactions: Camt054Transaction[] = [];
  const batches: Camt054Batch[] = [];
  for (const account of children(notification, "Ntfctn")) {
    for (const entry of children(account, "Ntry")) {
      // Sts is a code in version 2 and a choice (Sts/Cd) from version 6 on.
      const entryStatus = text(entry, "Sts", "Cd") ?? text(entry, "Sts") ?? "";
      const entryIndicator = text(entry, "CdtDbtInd");
      const bookingDate = text(entry, "BookgDt", "Dt") ?? text(entry, "BookgDt", "DtTm") ?? null;
      const entryDetails = children(entry, "NtryDtls");
      const details = entryDetails.flatMap((d) => children(d, "TxDtls"));
      const batchInfo = entryDetails.flatMap((d) => children(d, "Btch"));
      if (details.length === 0 && batchInfo.length > 0) {
        // Booked per batch: the entry is the block's booking (one Btch per entry is what banks send; a second
        // Btch in the same entry is read too, each with the entry's amount, and will not add up).
        const entryAmount = text(entry, "Amt");
        const entryCurrency = attribute(entry, ["Amt"], "Ccy");
        if (!entryAmount || !entryCurrency || (entryIndicator !== "CRDT" && entryIndicator !== "DBIT")) {
          throw new IsoParseError("camt.054 entry without amount, currency or credit/debit indicator");
        }
        for (const batch of batchInfo) {
          const count = text(batch, "NbOfTxs");
          const total = text(batch, "TtlAmt");
          if (count !== null && !/^\d{1,15}$/.test(count))
            throw new IsoParseError(`camt.054 batch NbOfTxs is not a count: ${JSON.stringify(count)}`);
          batches.push({
            paymentInfoId: text(batch, "PmtInfId"),
            numberOfTransactions: count === null ? null : Number(count),
            totalAmountMinor: total === null ? null : parseDecimalAmountMinor(total),
            totalCurrency: attribute(batch, ["TtlAmt"], "Ccy"),
            entryAmountMinor: parseDecimalAmountMinor(entryAmount),
            entryCurrency,
            creditDebit: entryIndicator,
            entryStatus,
            bookingDate,
          });
        }
        continue;
      }
      for (const tx of details) {
        const amountText = text(tx, "Amt") ?? text(tx, "AmtDtls", "TxAmt", "Amt") ?? text(entry, "Amt");
        const currency =
          attribute(tx, ["Amt"], "Ccy") ?? attribute(tx, ["AmtDtls", "TxAmt", "Amt"], "Ccy") ?? attribute(entry, ["Amt"], "Ccy");
        const indicator = text(tx, "CdtDbtInd") ?? entryIndicator;
        if (!amountText || !currency || (indicator !== "CRDT" && indicator !== "DBIT")) {
          throw new IsoParseError("camt.054 entry without amount, currency or credit/debit indicator");
        }
        const returnInfo = child(tx, "RtrInf");
        const additional = returnInfo ? strings(returnInfo.AddtlInf) : [];
        transactions.push({
          endToEndId: text(tx, "Refs", "EndToEndId"),
          amountMinor: parseDecimalAmountMinor(amountText),
          currency,
          creditDebit: indicator,
          entryStatus,
          bookingDate,
          returnReasonCode: returnInfo ? (text(returnInfo, "Rsn", "Cd") ?? text(returnInfo, "Rsn", "Prtry")) : null,
          returnAdditionalInfo: additional.length > 0 ? additional.join(" ") : null,
        });
      }
    }
  }
  return { messageId, transactions, batches };
}

/** One payment block of a pain.001 we wrote: its PmtInfId and its transactions (EndToEndId, amount). */
export interface Pain001Block {
  readonly paymentInfoId: string;
  readonly transactions: ReadonlyArray<{ readonly endToEndId: string; readonly amountMinor: number }>;
}

/**
 * The payment blocks of a pain.001 (any version): which transactions a PmtInfId grouped. Read from the file
 * as we sent it (kept encrypted on the file's row), so a status or booking naming a block is checked against
 * what the bank received.
 */
export function readPain001Blocks(xml: string): Pain001Block[] {
  const document = child(parseXml(xml), "Document");
  const initiation = child(document, "CstmrCdtTrfInitn");
  if (!initiation) throw new IsoParseError("not a pain.001 credit transfer initiation");
  return children(initiation, "PmtInf").map((block) => ({
    paymentInfoId: text(block, "PmtInfId") ?? "",
    transactions: children(block, "CdtTrfTxInf").map((tx) => ({
      endToEndId: text(tx, "PmtId", "EndToEndId") ?? "",
      amountMinor: parseDecimalAmountMinor(text(tx, "Amt", "InstdAmt") ?? ""),
    })),
  }));
}
