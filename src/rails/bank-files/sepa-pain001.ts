// The SEPA Credit Transfer initiation file (ISO 20022 pain.001), following the EPC's SCT customer-to-PSP
// implementation guidelines (EPC132-08, 2023): pain.001.001.09 by default, pain.001.001.03 as an option many
// banks still take. One message per cut-off; one payment information block (PmtInf) per requested execution
// date and debtor account; one transaction per payout, its EndToEndId tying it back to the payout. Postal
// addresses go out structured only (town and country at least): since November 2026 unstructured addresses
// are refused in SEPA, so a transfer without them is refused here, before any file exists.
import { isSepaRepresentable, toSepaText } from "./charset.js";
import { SEPA_MAX_AMOUNT_MINOR, SEPA_TEXT_LIMITS, sepaNeedsCreditorBic, sepaTextProblems, streetNameOf } from "./limits.js";

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
  /** Carried in CdtrAgt when present; required where the creditor's IBAN is outside the EEA (sepaNeedsCreditorBic). */
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
  | "SEPA_ACCOUNT_INVALID"
  | "SEPA_BIC_REQUIRED"
  | "SEPA_FIELD_TOO_LONG";

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

/**
 * The first problem that keeps a transfer out of a SEPA file, or null. Payout creation refuses all of these
 * first (bank-rails routing check); here they guard payouts created before a rule existed: such a payout
 * fails at the cut-off with the code, it never leaves with a cut text or without the BIC its country needs.
 */
export function checkSepaTransfer(
  transfer: Omit<SepaTransfer, "executionDate" | "debtor">,
  version: Pain001Version = "pain.001.001.09",
): SepaTransferProblem | null {
  if (!Number.isSafeInteger(transfer.amountMinor) || transfer.amountMinor < 1 || transfer.amountMinor > SEPA_MAX_AMOUNT_MINOR) {
    return "SEPA_AMOUNT_OUT_OF_RANGE";
  }
  if (!IBAN.test(transfer.creditorIban) || (transfer.creditorBic !== null && !BIC.test(transfer.creditorBic))) {
    return "SEPA_ACCOUNT_INVALID";
  }
  // The IBAN's country: a payee in a territory (GG, JE, IM) carries its parent's (GB) prefix.
  if (transfer.creditorBic === null && sepaNeedsCreditorBic(transfer.creditorIban.slice(0, 2))) return "SEPA_BIC_REQUIRED";
  if (!isSepaRepresentable(transfer.creditorName)) return "SEPA_NAME_NOT_REPRESENTABLE";
  const address = transfer.creditorAddress;
  if (!address || !COUNTRY.test(address.country) || !isSepaRepresentable(address.townName)) {
    return "SEPA_ADDRESS_NOT_STRUCTURED";
  }
  const tooLong = sepaTextProblems(
    {
      name: transfer.creditorName,
      remittance: transfer.remittance,
      address: {
        line1: address.streetName,
        line2: address.buildingName,
        city: address.townName,
        state: address.countrySubdivision,
        postal_code: address.postalCode,
      },
    },
    version,
  );
  return tooLong.length > 0 ? "SEPA_FIELD_TOO_LONG" : null;
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

/** The PmtInfId of a file's `index`-th payment block (0-based): its MsgId and the block's number. */
function paymentInfoIdOf(messageId: string, index: number): string {
  return `${messageId.slice(0, 30)}-${String(index + 1).padStart(4, "0")}`;
}

/**
 * Which payment block (PmtInfId) each transfer of the message goes in, as writePain001 writes it: kept with
 * each item, so a status report or a batch booking naming a block is checked against what we sent.
 */
export function paymentInfoIdsOf(message: Pick<SepaMessage, "messageId" | "transfers">): Map<string, string> {
  const out = new Map<string, string>();
  groupIntoBlocks(message.transfers).forEach((block, index) => {
    for (const transfer of block.transfers) out.set(transfer.payoutId, paymentInfoIdOf(message.messageId, index));
  });
  return out;
}

/** Text content or attribute value escaped for XML (the SEPA character set has none of these, but ids may). */
export function escapeXml(value: string): string {
  return value.replace(/[&<>"]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&quot;"));
}

/**
 * A minimal pretty-printing XML writer: elements two spaces deep per level, a leaf's text on its line, LF line
 * ends, the layout xmlbuilder2's `prettyPrint` gave (the golden files are byte-identical). It keeps only the
 * stack of open element names, so its memory does not grow with the document; every chunk goes to `write`.
 */
class XmlWriter {
  private readonly open: string[] = [];
  constructor(private readonly write: (chunk: string) => void) {}

  private indent(): string {
    return "  ".repeat(this.open.length);
  }

  start(name: string, attributes = ""): void {
    this.write(`${this.indent()}<${name}${attributes}>\n`);
    this.open.push(name);
  }

  /** Closes the innermost element; the document's last line has no line end (as xmlbuilder2 wrote it). */
  end(): void {
    const name = this.open.pop();
    this.write(`${this.indent()}</${name}>${this.open.length === 0 ? "" : "\n"}`);
  }

  leaf(name: string, text: string, attributes = ""): void {
    this.write(`${this.indent()}<${name}${attributes}>${escapeXml(text)}</${name}>\n`);
  }

  /** `<a><b>…<leaf>text</leaf>…</b></a>`, each on its own line. */
  path(names: readonly string[], text: string): void {
    const last = names.length - 1;
    for (let i = 0; i < last; i++) this.start(names[i] as string);
    this.leaf(names[last] as string, text);
    for (let i = 0; i < last; i++) this.end();
  }
}

function writeAddress(w: XmlWriter, address: StructuredAddress, version: Pain001Version): void {
  w.start("PstlAdr");
  const text = (name: string, value: string | null | undefined, max: number) => {
    if (value === null || value === undefined) return;
    const clean = toSepaText(value, max);
    if (clean !== "") w.leaf(name, clean);
  };
  // pain.001.001.03's address has no building name: it travels in the street name, after the street.
  const v09 = version === "pain.001.001.09";
  text("StrtNm", v09 ? address.streetName : streetNameOf(address.streetName, address.buildingName), SEPA_TEXT_LIMITS.streetName);
  text("BldgNb", address.buildingNumber, 16);
  if (v09) text("BldgNm", address.buildingName, SEPA_TEXT_LIMITS.buildingName);
  text("PstCd", address.postalCode, SEPA_TEXT_LIMITS.postalCode);
  text("TwnNm", address.townName, SEPA_TEXT_LIMITS.townName);
  text("CtrySubDvsn", address.countrySubdivision, SEPA_TEXT_LIMITS.countrySubdivision);
  w.leaf("Ctry", address.country);
  w.end();
}

function writeAgent(w: XmlWriter, elementName: string, bic: string | null, version: Pain001Version): void {
  if (bic) w.path([elementName, "FinInstnId", version === "pain.001.001.09" ? "BICFI" : "BIC"], bic);
  else w.path([elementName, "FinInstnId", "Othr", "Id"], "NOTPROVIDED");
}

/**
 * Writes the pain.001 document, chunk by chunk, to `write` (UTF-8 text). Throws SepaFileError before writing
 * anything when a transfer cannot be carried (callers check each transfer with checkSepaTransfer first and keep
 * such payouts out of the file). Memory beyond the chunks is the grouping of the transfers into blocks (an
 * array of references, not of text).
 */
export function writePain001(message: SepaMessage, write: (chunk: string) => void): void {
  if (message.transfers.length === 0) throw new SepaFileError("SEPA_FILE_EMPTY", "A SEPA file needs at least one transfer.");
  for (const transfer of message.transfers) {
    const problem = checkSepaTransfer(transfer, message.version);
    if (problem)
      throw new SepaFileError(problem, `Payout ${transfer.payoutId} cannot go in a SEPA file (${problem}).`, transfer.payoutId);
  }
  const v09 = message.version === "pain.001.001.09";
  const blocks = groupIntoBlocks(message.transfers);
  const totalMinor = blocks.reduce((sum, block) => sum + block.controlSumMinor, 0n);
  const w = new XmlWriter(write);

  write('<?xml version="1.0" encoding="UTF-8"?>\n');
  w.start("Document", ` xmlns="${escapeXml(`urn:iso:std:iso:20022:tech:xsd:${message.version}`)}"`);
  w.start("CstmrCdtTrfInitn");
  w.start("GrpHdr");
  w.leaf("MsgId", message.messageId);
  w.leaf("CreDtTm", message.createdAt);
  w.leaf("NbOfTxs", String(message.transfers.length));
  w.leaf("CtrlSum", formatEuroAmount(totalMinor));
  w.start("InitgPty");
  w.leaf("Nm", toSepaText(message.initiatingParty.name, 70));
  if (message.initiatingParty.id) w.path(["Id", "OrgId", "Othr", "Id"], toSepaText(message.initiatingParty.id, 35));
  w.end();
  w.end();

  blocks.forEach((block, index) => {
    w.start("PmtInf");
    w.leaf("PmtInfId", paymentInfoIdOf(message.messageId, index));
    w.leaf("PmtMtd", "TRF");
    w.leaf("BtchBookg", "true");
    w.leaf("NbOfTxs", String(block.transfers.length));
    w.leaf("CtrlSum", formatEuroAmount(block.controlSumMinor));
    w.path(["PmtTpInf", "SvcLvl", "Cd"], "SEPA");
    if (v09) w.path(["ReqdExctnDt", "Dt"], block.executionDate);
    else w.leaf("ReqdExctnDt", block.executionDate);
    w.start("Dbtr");
    w.leaf("Nm", toSepaText(block.debtor.name, 70));
    if (block.debtor.address) writeAddress(w, block.debtor.address, message.version);
    w.end();
    w.path(["DbtrAcct", "Id", "IBAN"], block.debtor.iban);
    writeAgent(w, "DbtrAgt", block.debtor.bic, message.version);
    w.leaf("ChrgBr", "SLEV");

    for (const transfer of block.transfers) {
      w.start("CdtTrfTxInf");
      w.path(["PmtId", "EndToEndId"], endToEndIdOf(transfer.payoutId));
      w.start("Amt");
      w.leaf("InstdAmt", formatEuroAmount(transfer.amountMinor), ' Ccy="EUR"');
      w.end();
      if (transfer.creditorBic) writeAgent(w, "CdtrAgt", transfer.creditorBic, message.version);
      w.start("Cdtr");
      w.leaf("Nm", toSepaText(transfer.creditorName, SEPA_TEXT_LIMITS.name));
      // checkSepaTransfer made sure the address is there.
      if (transfer.creditorAddress) writeAddress(w, transfer.creditorAddress, message.version);
      w.end();
      w.path(["CdtrAcct", "Id", "IBAN"], transfer.creditorIban);
      if (transfer.purposeCode) w.path(["Purp", "Cd"], transfer.purposeCode);
      if (transfer.remittance) {
        const remittance = toSepaText(transfer.remittance, SEPA_TEXT_LIMITS.remittance);
        if (remittance !== "") w.path(["RmtInf", "Ustrd"], remittance);
      }
      w.end();
    }
    w.end();
  });

  w.end();
  w.end();
}

/** The whole pain.001 document as UTF-8 text (see writePain001). */
export function buildPain001(message: SepaMessage): string {
  // Chunks are joined in blocks: one flat string per block and one at the end, so what is held is about the
  // file's bytes (a string grown chunk by chunk would hold a tree of every chunk until it is flattened).
  const blocks: string[] = [];
  let pending: string[] = [];
  writePain001(message, (chunk) => {
    pending.push(chunk);
    if (pending.length === 4_096) {
      blocks.push(pending.join(""));
      pending = [];
    }
  });
  blocks.push(pending.join(""));
  return blocks.join("");
}
