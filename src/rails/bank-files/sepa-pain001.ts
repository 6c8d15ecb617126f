// The SEPA Credit Transfer initiation file (ISO 20022 pain.001), following the EPC's SCT customer-to-PSP
// implementation guidelines (EPC132-08, 2023): pain.001.001.09 by default, pain.001.001.03 as an option many
// banks still take. One message per cut-off; one payment information block (PmtInf) per requested execution
// date and debtor account; one transaction per payout, its EndToEndId tying it back to the payout. Postal
// addresses go out structured only (town and country at least): since November 2026 unstructured addresses
// are refused in SEPA, so a transfer without them is refused here, before any file exists.
import { create } from "xmlbuilder2";
import type { XMLBuilder } from "xmlbuilder2/lib/interfaces.js";
import { isSepaRepresentable, toSepaText } from "./charset.js";

export type Pain001Version = "pain.001.001.09" | "pain.001.001.03";

export interface StructuredAddress {
  readonly streetName?: string | null;
  readonly buildingNumber?: string | null;
  readonly buildingName?: string | null;
  readonly postalCode?: string | null;
  readonly townName: string;
  readonly countrySubdivision?: string | null;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
}

export interface SepaDebtor {
  readonly name: string;
  readonly iban: string;
  /** The debtor agent's BIC; without it the agent is sent as NOTPROVIDED (allowed by the EPC guidelines). */
  readonly bic: string | null;
  readonly address?: StructuredAddress | null;
}

export interface SepaTransfer {
  /** Our payout id: the EndToEndId is this UUID's 32 hex digits (UUIDs have 36 characters, the field 35). */
  readonly payoutId: string;
  readonly amountMinor: number;
  readonly creditorName: string;
  readonly creditorIban: string;
  readonly creditorBic: string | null;
  readonly creditorAddress: StructuredAddress | null;
  /** Unstructured remittance information (at most 140 characters once transliterated). */
  readonly remittance: string | null;
  /** ISO 20022 external purpose code, e.g. SALA for salaries. */
  readonly purposeCode: string | null;
  /** Requested execution date, a TARGET2 business day (YYYY-MM-DD). */
  readonly executionDate: string;
  readonly debtor: SepaDebtor;
}

export interface SepaMessage {
  readonly version: Pain001Version;
  /** Unique per file (at most 35 characters): the bank answers with it in pain.002 `OrgnlMsgId`. */
  readonly messageId: string;
  /** Creation time, `YYYY-MM-DDTHH:MM:SS` in UTC. */
  readonly createdAt: string;
  readonly initiatingParty: { readonly name: string; readonly id: string | null };
  readonly transfers: readonly SepaTransfer[];
}

/** Why a transfer cannot be carried by a SEPA file. Codes are the service's error codes. */
export type SepaTransferProblem =
  | "SEPA_NAME_NOT_REPRESENTABLE"
  | "SEPA_ADDRESS_NOT_STRUCTURED"
  | "SEPA_AMOUNT_OUT_OF_RANGE"
  | "SEPA_ACCOUNT_INVALID";

export class SepaFileError extends Error {
  constructor(
    readonly code: SepaTransferProblem | "SEPA_FILE_EMPTY",
    message: string,
    readonly payoutId: string | null = null,
  ) {
    super(message);
    this.name = "SepaFileError";
  }
}

const MAX_AMOUNT_MINOR = 99_999_999_999; // 999,999,999.99 EUR, the SEPA rulebook's ceiling
const IBAN = /^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{1,30}$/;
const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const COUNTRY = /^[A-Z]{2}$/;

/** The EndToEndId of a payout (and back). */
export function endToEndIdOf(payoutId: string): string {
  return payoutId.replaceAll("-", "").toLowerCase();
}

export function payoutIdOfEndToEndId(endToEndId: string): string | null {
  const hex = endToEndId.trim().toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Minor units of euro as the file's decimal text (`12345` -> `123.45`). */
export function formatEuroAmount(amountMinor: bigint | number): string {
  const value = BigInt(amountMinor);
  const units = value / 100n;
  const cents = value % 100n;
  return `${units}.${cents.toString().padStart(2, "0")}`;
}

/** The first problem that keeps a transfer out of a SEPA file, or null. */
export function checkSepaTransfer(transfer: Omit<SepaTransfer, "executionDate" | "debtor">): SepaTransferProblem | null {
  if (!Number.isSafeInteger(transfer.amountMinor) || transfer.amountMinor < 1 || transfer.amountMinor > MAX_AMOUNT_MINOR) {
    return "SEPA_AMOUNT_OUT_OF_RANGE";
  }
  if (!IBAN.test(transfer.creditorIban) || (transfer.creditorBic !== null && !BIC.test(transfer.creditorBic))) {
    return "SEPA_ACCOUNT_INVALID";
  }
  if (!isSepaRepresentable(transfer.creditorName)) return "SEPA_NAME_NOT_REPRESENTABLE";
  const address = transfer.creditorAddress;
  if (!address || !COUNTRY.test(address.country) || !isSepaRepresentable(address.townName)) {
    return "SEPA_ADDRESS_NOT_STRUCTURED";
  }
  return null;
}

interface PaymentBlock {
  readonly key: string;
  readonly executionDate: string;
  readonly debtor: SepaDebtor;
  readonly transfers: SepaTransfer[];
  controlSumMinor: bigint;
}

/** Groups transfers by (execution date, debtor IBAN), in that order, keeping the given order inside a block. */
function groupIntoBlocks(transfers: readonly SepaTransfer[]): PaymentBlock[] {
  const blocks = new Map<string, PaymentBlock>();
  for (const transfer of transfers) {
    const key = `${transfer.executionDate}|${transfer.debtor.iban}`;
    let block = blocks.get(key);
    if (!block) {
      block = { key, executionDate: transfer.executionDate, debtor: transfer.debtor, transfers: [], controlSumMinor: 0n };
      blocks.set(key, block);
    }
    block.transfers.push(transfer);
    block.controlSumMinor += BigInt(transfer.amountMinor);
  }
  return [...blocks.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function addAddress(parent: XMLBuilder, address: StructuredAddress, version: Pain001Version): void {
  const postal = parent.ele("PstlAdr");
  const text = (name: string, value: string | null | undefined, max: number) => {
    if (value === null || value === undefined) return;
    const clean = toSepaText(value, max);
    if (clean !== "") postal.ele(name).txt(clean);
  };
  text("StrtNm", address.streetName, 70);
  text("BldgNb", address.buildingNumber, 16);
  // pain.001.001.03's address has no building name: it is left out there.
  if (version === "pain.001.001.09") text("BldgNm", address.buildingName, 35);
  text("PstCd", address.postalCode, 16);
  text("TwnNm", address.townName, 35);
  text("CtrySubDvsn", address.countrySubdivision, 35);
  postal.ele("Ctry").txt(address.country);
}

function addAgent(parent: XMLBuilder, elementName: string, bic: string | null, version: Pain001Version): void {
  const institution = parent.ele(elementName).ele("FinInstnId");
  if (bic) institution.ele(version === "pain.001.001.09" ? "BICFI" : "BIC").txt(bic);
  else institution.ele("Othr").ele("Id").txt("NOTPROVIDED");
}

/**
 * The whole pain.001 document as UTF-8 text. Throws SepaFileError when a transfer cannot be carried (callers
 * check each transfer with checkSepaTransfer first and keep such payouts out of the file).
 */
export function buildPain001(message: SepaMessage): string {
  if (message.transfers.length === 0) throw new SepaFileError("SEPA_FILE_EMPTY", "A SEPA file needs at least one transfer.");
  for (const transfer of message.transfers) {
    const problem = checkSepaTransfer(transfer);
    if (problem)
      throw new SepaFileError(problem, `Payout ${transfer.payoutId} cannot go in a SEPA file (${problem}).`, transfer.payoutId);
  }
  const v09 = message.version === "pain.001.001.09";
  const blocks = groupIntoBlocks(message.transfers);
  const totalMinor = blocks.reduce((sum, block) => sum + block.controlSumMinor, 0n);

  const root = create({ version: "1.0", encoding: "UTF-8" }).ele(`urn:iso:std:iso:20022:tech:xsd:${message.version}`, "Document");
  const initiation = root.ele("CstmrCdtTrfInitn");
  const header = initiation.ele("GrpHdr");
  header.ele("MsgId").txt(message.messageId);
  header.ele("CreDtTm").txt(message.createdAt);
  header.ele("NbOfTxs").txt(String(message.transfers.length));
  header.ele("CtrlSum").txt(formatEuroAmount(totalMinor));
  const initiatingParty = header.ele("InitgPty");
  initiatingParty.ele("Nm").txt(toSepaText(message.initiatingParty.name, 70));
  if (message.initiatingParty.id) {
    initiatingParty.ele("Id").ele("OrgId").ele("Othr").ele("Id").txt(toSepaText(message.initiatingParty.id, 35));
  }

  blocks.forEach((block, index) => {
    const payment = initiation.ele("PmtInf");
    payment.ele("PmtInfId").txt(`${message.messageId.slice(0, 30)}-${String(index + 1).padStart(4, "0")}`);
    payment.ele("PmtMtd").txt("TRF");
    payment.ele("BtchBookg").txt("true");
    payment.ele("NbOfTxs").txt(String(block.transfers.length));
    payment.ele("CtrlSum").txt(formatEuroAmount(block.controlSumMinor));
    payment.ele("PmtTpInf").ele("SvcLvl").ele("Cd").txt("SEPA");
    if (v09) payment.ele("ReqdExctnDt").ele("Dt").txt(block.executionDate);
    else payment.ele("ReqdExctnDt").txt(block.executionDate);
    const debtor = payment.ele("Dbtr");
    debtor.ele("Nm").txt(toSepaText(block.debtor.name, 70));
    if (block.debtor.address) addAddress(debtor, block.debtor.address, message.version);
    payment.ele("DbtrAcct").ele("Id").ele("IBAN").txt(block.debtor.iban);
    addAgent(payment, "DbtrAgt", block.debtor.bic, message.version);
    payment.ele("ChrgBr").txt("SLEV");

    for (const transfer of block.transfers) {
      const tx = payment.ele("CdtTrfTxInf");
      tx.ele("PmtId").ele("EndToEndId").txt(endToEndIdOf(transfer.payoutId));
      tx.ele("Amt").ele("InstdAmt", { Ccy: "EUR" }).txt(formatEuroAmount(transfer.amountMinor));
      if (transfer.creditorBic) addAgent(tx, "CdtrAgt", transfer.creditorBic, message.version);
      const creditor = tx.ele("Cdtr");
      creditor.ele("Nm").txt(toSepaText(transfer.creditorName, 70));
      // checkSepaTransfer made sure the address is there.
      if (transfer.creditorAddress) addAddress(creditor, transfer.creditorAddress, message.version);
      tx.ele("CdtrAcct").ele("Id").ele("IBAN").txt(transfer.creditorIban);
      if (transfer.purposeCode) tx.ele("Purp").ele("Cd").txt(transfer.purposeCode);
      if (transfer.remittance) {
        const remittance = toSepaText(transfer.remittance, 140);
        if (remittance !== "") tx.ele("RmtInf").ele("Ustrd").txt(remittance);
      }
    }
  });

  return root.end({ prettyPrint: true, indent: "  ", newline: "\n" });
}
