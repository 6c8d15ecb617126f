// Reader of the ISO 20022 account statements: camt.053 (BankToCustomerStatement, end of day) and camt.052
// (BankToCustomerAccountReport, intraday), versions .001.02 (2009) and .001.08 (2019). Parsed with the same
// safe parseXml as the camt.054 and pain.002 readers (iso-readers.ts: no DTD, no entities, every value a
// string). Only elements the two versions share are read, except where version 08 moved one (entry
// status is a code in 02 and a choice Sts/Cd in 08; a transaction's amount is TxDtls/Amt in 08 and only
// AmtDtls in 02; charges are repeated Chrgs/Amt in 02 and Chrgs/Rcrd/Amt in 08).
import { currencyExponent } from "../../platform/reference/iso-codes.js";
import { attribute, child, children, IsoParseError, parseXml, rootName, strings, text, type XmlNode } from "./iso-readers.js";
import { STATEMENT_MAX_ENTRIES } from "./limits.js";
import type {
  BankStatement,
  StatementFormat,
  StatementLine,
  StatementLineDetail,
  StatementMessageVersion,
} from "./statement-types.js";
import { StatementParseError } from "./statement-types.js";

const SUPPORTED = ["camt.053.001.02", "camt.053.001.08", "camt.052.001.02", "camt.052.001.08"] as const;

/**
 * An ISO amount (up to five fraction digits in the schema) as integer minor units of `currency`: the fraction
 * may not carry more digits than the currency's exponent unless they are zeros (`12.50` EUR is 1250, `12.505`
 * EUR is refused, `2700` JPY is 2700, `1.5` JPY refused).
 */
export function isoAmountMinor(value: string, currency: string, where: string): number {
  const exponent = exponentOf(currency);
  if (exponent === null) throw new StatementParseError(`${where}: ${JSON.stringify(currency)} is not an ISO 4217 currency code`);
  const match = /^(\d{1,18})(?:\.(\d{1,5}))?$/.exec(value.trim());
  if (!match)
    throw new StatementParseError(`${where}: ${JSON.stringify(value)} is not an amount (digits, a point, at most five decimals)`);
  const fraction = match[2] ?? "";
  if (fraction.length > exponent && !/^0*$/.test(fraction.slice(exponent)))
    throw new StatementParseError(
      `${where}: ${value} ${currency} has more decimals than ${currency} has minor units (${exponent})`,
    );
  const digits = `${match[1]}${fraction.slice(0, exponent).padEnd(exponent, "0")}`.replace(/^0+(?=\d)/, "");
  if (digits.length > 15) throw new StatementParseError(`${where}: ${value} ${currency} is too large an amount`);
  return Number(digits);
}

// A statement names its one or two currencies on every amount: the ISO table is asked once per currency. Only
// ISO codes are kept, so the map stays as small as the table whatever a file holds.
const exponents = new Map<string, number>();

function exponentOf(currency: string): number | null {
  const known = exponents.get(currency);
  if (known !== undefined) return known;
  const exponent = currencyExponent(currency);
  if (exponent !== null) exponents.set(currency, exponent);
  return exponent;
}

const DATE = /^(\d{4}-\d{2}-\d{2})(?:$|T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?$)/;

/** The `YYYY-MM-DD` of an ISODate or ISODateTime as written (the bank's own day, whatever its offset). */
function dayOf(value: string | null, where: string): string | null {
  if (value === null) return null;
  const match = DATE.exec(value.trim());
  if (!match) throw new StatementParseError(`${where}: ${JSON.stringify(value)} is not an ISO date or date-time`);
  const day = match[1] as string;
  if (calendarDays.has(day)) return day;
  const parsed = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day)
    throw new StatementParseError(`${where}: ${day} is not a calendar date`);
  // A file repeats the same few days on thousands of entries: each is checked once. Bounded: emptied when full.
  if (calendarDays.size >= 4096) calendarDays.clear();
  calendarDays.add(day);
  return day;
}

/** Days already found to be calendar dates (see dayOf). */
const calendarDays = new Set<string>();

function dateChoice(node: unknown, name: string, where: string): string | null {
  return dayOf(text(node, name, "Dt") ?? text(node, name, "DtTm"), where);
}

function messageVersionOf(xml: string): StatementMessageVersion {
  const head = xml.slice(0, 4096);
  const match = /xmlns(?::\w+)?\s*=\s*["']urn:iso:std:iso:20022:tech:xsd:([a-z]{4}\.\d{3}\.\d{3}\.\d{2})["']/.exec(head);
  if (!match) {
    throw new StatementParseError(
      "an XML file without an ISO 20022 namespace: expected a camt.053 or camt.052 statement (urn:iso:std:iso:20022:tech:xsd:camt.053.001.02, .08, camt.052.001.02 or .08)",
    );
  }
  const version = match[1] as string;
  if (!(SUPPORTED as readonly string[]).includes(version)) {
    const kind =
      version.startsWith("camt.053") || version.startsWith("camt.052") ? "this version of the statement" : "this message";
    throw new StatementParseError(
      `${version} is not read here (${kind}): statements are read as camt.053.001.02, camt.053.001.08, camt.052.001.02 or camt.052.001.08`,
    );
  }
  return version as StatementMessageVersion;
}

function signed(amount: number, indicator: string | null, where: string): number {
  if (indicator === "CRDT") return amount;
  if (indicator === "DBIT") return amount === 0 ? 0 : -amount;
  throw new StatementParseError(`${where}: the credit/debit indicator is ${JSON.stringify(indicator)}, expected CRDT or DBIT`);
}

interface Balance {
  readonly code: string;
  readonly minor: number;
  readonly currency: string;
  readonly date: string | null;
}

function balancesOf(statement: XmlNode, where: string): Balance[] {
  return children(statement, "Bal").map((balance, index) => {
    const at = `${where}, balance ${index + 1}`;
    const code = text(balance, "Tp", "CdOrPrtry", "Cd") ?? text(balance, "Tp", "CdOrPrtry", "Prtry") ?? "";
    const amount = text(balance, "Amt");
    const currency = attribute(balance, ["Amt"], "Ccy");
    if (amount === null || currency === null) throw new StatementParseError(`${at} (${code}): no amount or currency`);
    return {
      code,
      minor: signed(isoAmountMinor(amount, currency, `${at} (${code})`), text(balance, "CdtDbtInd"), `${at} (${code})`),
      currency,
      date: dateChoice(balance, "Dt", `${at} (${code}) date`),
    };
  });
}

function sequenceNumberOf(statement: XmlNode, where: string): number | null {
  const value = text(statement, "ElctrncSeqNb") ?? text(statement, "LglSeqNb");
  if (value === null) return null;
  if (!/^\d{1,15}$/.test(value.trim()))
    throw new StatementParseError(`${where}: the sequence number ${JSON.stringify(value)} is not a whole number`);
  return Number(value.trim());
}

/** Refs/EndToEndId, with the scheme's "not provided" placeholder read as no reference. */
function endToEndIdOf(details: XmlNode): string | null {
  const value = text(details, "Refs", "EndToEndId");
  if (value === null || value === "" || value.toUpperCase() === "NOTPROVIDED") return null;
  return value;
}

/** An ACH trace number carried as a proprietary reference whose type names a trace. */
function achTraceOf(details: XmlNode): string | null {
  const refs = child(details, "Refs");
  for (const reference of children(refs, "Prtry")) {
    const type = text(reference, "Tp");
    const value = text(reference, "Ref");
    if (type !== null && value !== null && /trace/i.test(type)) return value;
  }
  return null;
}

/**
 * Charges in minor units of `currency` (v02: repeated Chrgs/Amt; v08: Chrgs/TtlChrgsAndTaxAmt or Chrgs/Rcrd/Amt).
 * A charge in another currency (a correspondent's fee) cannot be added to the entry's: left out.
 */
function chargesOf(node: XmlNode, currency: string, where: string): number | null {
  let total: number | null = null;
  const add = (holder: XmlNode, path: string[]) => {
    const amount = text(holder, ...path);
    const ccy = attribute(holder, path, "Ccy");
    if (amount === null || ccy === null || ccy !== currency) return;
    total = (total ?? 0) + isoAmountMinor(amount, ccy, `${where} charge`);
  };
  for (const charges of children(node, "Chrgs")) {
    if (text(charges, "Amt") !== null) add(charges, ["Amt"]);
    else if (text(charges, "TtlChrgsAndTaxAmt") !== null) add(charges, ["TtlChrgsAndTaxAmt"]);
    else for (const record of children(charges, "Rcrd")) add(record, ["Amt"]);
  }
  return total;
}

function amountIn(node: XmlNode, path: string[], currency: string, where: string): number | null {
  const amount = text(node, ...path);
  const ccy = attribute(node, path, "Ccy");
  if (amount === null || ccy === null || ccy !== currency) return null;
  return isoAmountMinor(amount, ccy, where);
}

function bankTransactionCodeOf(entry: XmlNode): string | null {
  const domain = text(entry, "BkTxCd", "Domn", "Cd");
  if (domain !== null) {
    const family = text(entry, "BkTxCd", "Domn", "Fmly", "Cd");
    const subFamily = text(entry, "BkTxCd", "Domn", "Fmly", "SubFmlyCd");
    return [domain, family, subFamily].filter((part): part is string => part !== null).join("/");
  }
  return text(entry, "BkTxCd", "Prtry", "Cd");
}

function entryStatusOf(entry: XmlNode, where: string): "booked" | "pending" | "info" {
  const status = text(entry, "Sts", "Cd") ?? text(entry, "Sts", "Prtry") ?? text(entry, "Sts");
  switch (status) {
    case "BOOK":
      return "booked";
    case "PDNG":
    case "FUTR":
      return "pending";
    case "INFO":
      return "info";
    default:
      throw new StatementParseError(`${where}: the entry status is ${JSON.stringify(status)}, expected BOOK, PDNG, FUTR or INFO`);
  }
}

function detailOf(
  details: XmlNode,
  batchPaymentInformationId: string | null,
  entryCurrency: string,
  entryCharges: number | null,
  where: string,
): StatementLineDetail {
  const amountMinor =
    amountIn(details, ["Amt"], entryCurrency, `${where} amount`) ??
    amountIn(details, ["AmtDtls", "TxAmt", "Amt"], entryCurrency, `${where} amount`) ??
    amountIn(details, ["AmtDtls", "InstdAmt", "Amt"], entryCurrency, `${where} amount`);
  const returnNode = child(details, "RtrInf");
  let returnInfo: StatementLineDetail["returnInfo"] = null;
  if (returnNode) {
    const originalAmountMinor = amountIn(details, ["AmtDtls", "InstdAmt", "Amt"], entryCurrency, `${where} original amount`);
    let feeMinor = chargesOf(details, entryCurrency, where) ?? entryCharges;
    if (feeMinor === null && originalAmountMinor !== null && amountMinor !== null && originalAmountMinor > amountMinor)
      feeMinor = originalAmountMinor - amountMinor;
    returnInfo = {
      originalEndToEndId: endToEndIdOf(details),
      reasonCode: text(returnNode, "Rsn", "Cd") ?? text(returnNode, "Rsn", "Prtry"),
      originalAmountMinor,
      feeMinor,
    };
  }
  const unstructured = strings(child(details, "RmtInf")?.Ustrd);
  return {
    // A return's Refs/EndToEndId is the returned transfer's: given as returnInfo.originalEndToEndId only, so a
    // rule looking for a payout's own booking never takes its return for it.
    endToEndId: returnInfo ? null : endToEndIdOf(details),
    instructionId: text(details, "Refs", "InstrId"),
    paymentInformationId: text(details, "Refs", "PmtInfId") ?? batchPaymentInformationId,
    amountMinor,
    returnInfo,
    remittance: unstructured.length > 0 ? unstructured.join(" ") : null,
  };
}

function lineOf(entry: XmlNode, accountCurrency: string, where: string): StatementLine | null {
  const status = entryStatusOf(entry, where);
  if (status === "info") return null;
  const amount = text(entry, "Amt");
  const currency = attribute(entry, ["Amt"], "Ccy");
  if (amount === null || currency === null) throw new StatementParseError(`${where}: no amount or currency`);
  const indicator = text(entry, "CdtDbtInd");
  if (indicator !== "CRDT" && indicator !== "DBIT")
    throw new StatementParseError(`${where}: the credit/debit indicator is ${JSON.stringify(indicator)}, expected CRDT or DBIT`);
  if (currency !== accountCurrency)
    throw new StatementParseError(`${where}: an entry in ${currency} on an account in ${accountCurrency}`);
  const amountMinor = isoAmountMinor(amount, currency, `${where} amount`);
  const reversalText = text(entry, "RvslInd");
  if (
    reversalText !== null &&
    reversalText !== "true" &&
    reversalText !== "false" &&
    reversalText !== "1" &&
    reversalText !== "0"
  )
    throw new StatementParseError(`${where}: RvslInd is ${JSON.stringify(reversalText)}, expected true or false`);
  const entryDetails = children(entry, "NtryDtls");
  const batch = entryDetails.map((d) => child(d, "Btch")).find((b): b is XmlNode => b !== undefined) ?? null;
  let batchCount: number | null = null;
  let batchTotalMinor: number | null = null;
  let paymentInformationId: string | null = null;
  if (batch) {
    paymentInformationId = text(batch, "PmtInfId");
    const count = text(batch, "NbOfTxs");
    if (count !== null) {
      if (!/^\d{1,15}$/.test(count))
        throw new StatementParseError(`${where}: the batch's NbOfTxs ${JSON.stringify(count)} is not a count`);
      batchCount = Number(count);
    }
    const total = text(batch, "TtlAmt");
    const totalCurrency = attribute(batch, ["TtlAmt"], "Ccy");
    if (total !== null && totalCurrency !== null) {
      if (totalCurrency !== currency)
        throw new StatementParseError(`${where}: the batch total is in ${totalCurrency}, the entry in ${currency}`);
      batchTotalMinor = isoAmountMinor(total, totalCurrency, `${where} batch total`);
    }
  }
  const entryCharges = chargesOf(entry, currency, where);
  const details: StatementLineDetail[] = [];
  for (const group of entryDetails) {
    const groupBatchId = text(group, "Btch", "PmtInfId");
    for (const transaction of children(group, "TxDtls")) {
      details.push(
        detailOf(
          transaction,
          groupBatchId,
          currency,
          entryDetails.length === 1 && children(group, "TxDtls").length === 1 ? entryCharges : null,
          `${where}, transaction ${details.length + 1}`,
        ),
      );
    }
  }
  const transactions = entryDetails.flatMap((d) => children(d, "TxDtls"));
  const onlyTransaction = transactions.length === 1 ? (transactions[0] as XmlNode) : null;
  const remittances = details.map((d) => d.remittance).filter((r): r is string => r !== null);
  const additional = text(entry, "AddtlNtryInf") ?? (onlyTransaction ? text(onlyTransaction, "AddtlTxInf") : null);
  return {
    bankReference: text(entry, "AcctSvcrRef") ?? (onlyTransaction ? text(onlyTransaction, "Refs", "AcctSvcrRef") : null),
    status,
    bookingDate: dateChoice(entry, "BookgDt", `${where} booking date`),
    valueDate: dateChoice(entry, "ValDt", `${where} value date`),
    direction: indicator === "DBIT" ? "debit" : "credit",
    amountMinor,
    currency,
    reversal: reversalText === "true" || reversalText === "1",
    bankTransactionCode: bankTransactionCodeOf(entry),
    paymentInformationId: paymentInformationId ?? (onlyTransaction ? text(onlyTransaction, "Refs", "PmtInfId") : null),
    batchCount,
    batchTotalMinor,
    achTrace: onlyTransaction ? achTraceOf(onlyTransaction) : null,
    remittance: remittances.length > 0 ? remittances.join(" ") : additional,
    details,
  };
}

/** Reads a camt.053 or camt.052 document, version .001.02 or .001.08: one BankStatement per Stmt (or Rpt). */
export function readCamtStatements(xml: string): BankStatement[] {
  const messageVersion = messageVersionOf(xml);
  const format: StatementFormat = messageVersion.startsWith("camt.053") ? "camt.053" : "camt.052";
  let root: XmlNode;
  try {
    root = parseXml(xml);
  } catch (error) {
    if (error instanceof IsoParseError) throw new StatementParseError(error.message);
    throw error;
  }
  const document = child(root, "Document");
  const [messageName, statementName] = format === "camt.053" ? ["BkToCstmrStmt", "Stmt"] : ["BkToCstmrAcctRpt", "Rpt"];
  const message = child(document, messageName);
  if (!message)
    throw new StatementParseError(
      `not a ${format} ${format === "camt.053" ? "statement" : "account report"}: the root element is <${rootName(root)}>${document ? ` holding <${rootName(document)}>` : ""}, expected <Document> holding <${messageName}>`,
    );
  const messageId = text(message, "GrpHdr", "MsgId");
  if (!messageId) throw new StatementParseError(`the ${format} has no message id (GrpHdr/MsgId)`);
  const messageCreated = text(message, "GrpHdr", "CreDtTm");
  const statements = children(message, statementName);
  if (statements.length === 0) throw new StatementParseError(`the ${format} holds no <${statementName}>`);
  let entryCount = 0;
  return statements.map((statement, index) => {
    const statementId = text(statement, "Id");
    const where = `${statementName} ${statementId ? JSON.stringify(statementId) : index + 1}`;
    if (!statementId) throw new StatementParseError(`${statementName} ${index + 1} has no Id`);
    const iban = text(statement, "Acct", "Id", "IBAN");
    const number = iban === null ? text(statement, "Acct", "Id", "Othr", "Id") : null;
    if (iban === null && number === null) throw new StatementParseError(`${where}: no account (Acct/Id/IBAN or Acct/Id/Othr/Id)`);
    const balances = balancesOf(statement, where);
    const entries = children(statement, "Ntry");
    entryCount += entries.length;
    if (entryCount > STATEMENT_MAX_ENTRIES)
      throw new StatementParseError(`the file holds more than ${STATEMENT_MAX_ENTRIES} entries; ask the bank for smaller files`);
    const currency =
      text(statement, "Acct", "Ccy") ??
      balances.find((b) => b.code === "OPBD" || b.code === "PRCD" || b.code === "CLBD")?.currency ??
      attribute(entries[0], ["Amt"], "Ccy");
    if (currency === null)
      throw new StatementParseError(`${where}: the account's currency is named nowhere (Acct/Ccy, a balance or an entry)`);
    // A booked balance in another currency than the account's cannot be compared with it: left out (null).
    const booked = (codes: string[]) => {
      for (const code of codes) {
        const found = balances.find((b) => b.code === code);
        if (found) return found.currency === currency ? found : null;
      }
      return null;
    };
    const opening = booked(["OPBD", "PRCD"]);
    const closing = booked(["CLBD"]);
    const createdAt = text(statement, "CreDtTm") ?? messageCreated;
    if (createdAt === null) throw new StatementParseError(`${where}: no creation date-time (CreDtTm)`);
    dayOf(createdAt, `${where} creation date-time`);
    const lines: StatementLine[] = [];
    entries.forEach((entry, entryIndex) => {
      const line = lineOf(entry, currency, `${where}, entry ${entryIndex + 1}`);
      if (line) lines.push(line);
    });
    return {
      format,
      messageVersion,
      messageId,
      statementId,
      sequenceNumber: sequenceNumberOf(statement, where),
      account: { iban, number, currency },
      createdAt,
      periodFrom: dayOf(text(statement, "FrToDt", "FrDtTm") ?? text(statement, "FrToDt", "FrDt"), `${where} period start`),
      periodTo: dayOf(text(statement, "FrToDt", "ToDtTm") ?? text(statement, "FrToDt", "ToDt"), `${where} period end`),
      openingBookedMinor: opening?.minor ?? null,
      closingBookedMinor: closing?.minor ?? null,
      closingDate: closing?.date ?? null,
      lines,
    };
  });
}
