// The bank's answers: BANK_POLL_JOB (a job, so only worker processes read and parse bank files) reads the rail's
// inbound directory (no transaction open while it talks to the server) and applies each new file once, by name
// and content hash, in one transaction per file:
//   pain.002   at group, block and transaction level (bank-rails.iso-answers.ts): accepted (ACCP, ACTC, ACSP,
//              ACSC, ACWC) -> payout.acknowledged; rejected (RJCT) -> failed with the ISO reason code and its
//              words; PART, PDNG move nothing by themselves; the file's status and acknowledgment time follow
//   camt.054   a booked debit of our transfer, per transaction or per batch (a payment block less its rejected
//              transactions) -> disbursed at the booking date; a booked credit with return information ->
//              returned (also after settlement: a late return); pending entries move nothing
//   NACHA      return entries (addenda 99) -> returned, or failed while the credit has not settled yet, with the
//              R-code and its words; notifications of change (addenda 98) are recorded on the entry, the file's
//              alerts, the log and a metric
// Payout moves are PAYOUT_RAIL_OUTCOME_JOBs enqueued in that transaction (the payouts module applies them, as
// for every rail), and what each payout was moved to is kept on the inbound file (`moved`). A file that cannot
// be parsed is kept with its reason in words (status `refused`), logged, counted, and changes nothing; the
// same transaction records `bank_file.refused`. An entry naming no payout of ours is kept on the inbound file
// and flagged, with one `bank_file.item_unmatched` event each. A notification of change records
// `beneficiary.bank_account.notification_of_change` and keeps the unmasked correction encrypted on the account.
// The same content under another name (the bank sent a file twice) is recorded `duplicate` and applies nothing.
// Intake before any of that: a listed file whose name, size and modification time are already recorded is
// skipped without being downloaded; a file over the size limit (BANK_RAIL_INBOUND_MAX_FILE_BYTES) is refused
// unread when its listing shows it, and while reading when it is longer than listed (at most the limit plus
// one byte is read), recorded with its name, size and the limit, logged and counted. So no more than the
// limit is ever held in memory or handed to a parser, decrypted content included.
// The same job watches: a file uploaded more than `status_report_timeout_hours` ago with no status report gets
// the `no_status_report` alert. It then schedules its next run.
import type { Tenant } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import type { IdGenerator } from "../../platform/ids.js";
import { jobHandler } from "../../platform/jobs/job-definition.js";
import { enqueueJobs, type JobStore } from "../../platform/jobs/job-store.js";
import { type JobHandlers, LeaseLostError } from "../../platform/jobs/worker.js";
import {
  type Camt054Batch,
  IsoParseError,
  type Pain001Block,
  readCamt054,
  readPain001Blocks,
  readPain002,
  refuseOtherIsoMessage,
} from "../../rails/bank-files/iso-readers.js";
import { type NachaFile, readNachaFile } from "../../rails/bank-files/nacha-reader.js";
import { BankPgpError, openInbound } from "../../rails/bank-files/openpgp.js";
import {
  achChangeText,
  achCorrectedFields,
  achCorrectionOf,
  achReturnText,
  isoReasonText,
  maskedCorrectedData,
} from "../../rails/bank-files/reason-codes.js";
import { endToEndIdOf, payoutIdOfEndToEndId } from "../../rails/bank-files/sepa-pain001.js";
import type { SerializedRailOutcome } from "../../rails/rail.js";
import { recordNotificationOfChange } from "../destinations/index.js";
import { PAYOUT_RAIL_OUTCOME_JOB } from "../payouts/index.js";
import { zonedInstant } from "./bank-rails.cutoff.js";
import { type DeliveryTarget, type InboundEntry, InboundTooLargeError, sha256Hex } from "./bank-rails.delivery.js";
import { checkBatchBooking, decideStatusReport } from "./bank-rails.iso-answers.js";
import { BANK_POLL_JOB } from "./bank-rails.jobs.js";
import { matchAchAnswer } from "./bank-rails.matching.js";
import type { InboundStatements } from "./bank-rails.ports.js";
import { refusalWords, unmatchedProblem } from "./bank-rails.problems.js";
import {
  type BankFileRow,
  type BankRailConfigRow,
  claimInbound,
  findConfig,
  findFileById,
  findFileByMessageId,
  findFiledItemsByReferences,
  findInboundWithContent,
  findItemsByReferences,
  inboundSeen,
  listInboundRecords,
  listItemReferencesOfFile,
  listUnacknowledgedFiles,
  recordInboundListing,
  setItemBankStatuses,
  updateFile,
  updateInbound,
} from "./bank-rails.repo.js";
import type { BankRailName } from "./bank-rails.schemas.js";
import type { BankRailSecrets, BankRailSettings } from "./bank-rails.service.js";

export const DEFAULT_POLL_INTERVAL_MS = 15 * 60_000;

export interface InboundDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  /** The events outbox: refused files, unmatched items and notifications of change are events. */
  readonly events: EventRecorder;
  readonly jobStore: Pick<JobStore, "enqueue">;
  readonly logger: { info(o: object, m: string): void; warn(o: object, m: string): void; error(o: object, m: string): void };
  readonly observe?: (rail: string, event: string) => void;
  /** Counts each inbound download and the bytes it read (metrics). */
  readonly observeRead?: (rail: string, bytes: number) => void;
  readonly openTarget: (config: BankRailConfigRow) => Promise<DeliveryTarget>;
  readonly pollIntervalMs?: number;
  /** The size limit of one inbound file (BANK_RAIL_INBOUND_MAX_FILE_BYTES). */
  readonly maxFileBytes: number;
  /** Bank statements (camt.053, camt.052, BAI2) go to the reconciliation module, in the file's transaction. */
  readonly statements: InboundStatements;
}

interface Applied {
  readonly kind: string;
  readonly unmatched: string[];
}

/** Minor units of a two-decimal currency as the bank prints them (`1234.50`). */
function euros(minor: number): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
}

function alertsOf(file: BankFileRow): string[] {
  return Array.isArray(file.alerts) ? (file.alerts as string[]) : [];
}

export function createBankInbound(deps: InboundDeps) {
  const { db, clock, ids, jobStore, logger } = deps;
  const interval = deps.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const maxFileBytes = deps.maxFileBytes;
  const observe = (rail: string, event: string) => deps.observe?.(rail, event);

  /** The next poll slot after `after` (slots are fixed, so chains started twice collapse into one). */
  async function schedulePoll(tx: Tx, config: { businessId: string; rail: string }, after: Date): Promise<void> {
    const runAt = new Date((Math.floor(after.getTime() / interval) + 1) * interval);
    await jobStore.enqueue(
      tx,
      BANK_POLL_JOB,
      { businessId: config.businessId, rail: config.rail },
      { runAt, dedupeKey: `bank-poll:${config.businessId}:${config.rail}:${runAt.toISOString()}` },
    );
  }

  /**
   * What applying one inbound file changes, collected while it is read and written at the end in a few
   * statements (a report of 10,000 transactions must not cost 20,000 round trips): each item's last bank
   * status, and the payout moves as PAYOUT_RAIL_OUTCOME_JOBs in the order they were found.
   */
  function createEffects(inboundId: string) {
    const statuses = new Map<string, string>();
    const outcomes: Array<{ payoutId: string; value: SerializedRailOutcome }> = [];
    // What each payout named was moved to, for the inbound file's `moved` (the first outcome asked: an ACH
    // return asks `returned`, then `failed` for a payout not disbursed yet, and reads as `returned`).
    const moved = new Map<string, string>();
    return {
      status(payoutId: string, bankStatus: string) {
        statuses.delete(payoutId); // the last one reported wins
        statuses.set(payoutId, bankStatus);
      },
      outcome(payoutId: string, value: SerializedRailOutcome) {
        outcomes.push({ payoutId, value });
        if (!moved.has(payoutId)) moved.set(payoutId, value.type);
      },
      /** A payout named without a move of its own (an ACH notification of change). */
      note(payoutId: string, what: string) {
        if (!moved.has(payoutId)) moved.set(payoutId, what);
      },
      moved(): Array<{ payout_id: string; outcome: string; bank_status: string | null }> {
        const ids = [...new Set([...moved.keys(), ...statuses.keys()])];
        return ids.map((payoutId) => ({
          payout_id: payoutId,
          outcome: moved.get(payoutId) ?? "none",
          bank_status: statuses.get(payoutId) ?? null,
        }));
      },
      async write(tx: Tx) {
        await setItemBankStatuses(
          tx,
          [...statuses].map(([payoutId, bankStatus]) => ({ payoutId, bankStatus })),
        );
        await enqueueJobs(
          tx,
          PAYOUT_RAIL_OUTCOME_JOB,
          outcomes.map(({ payoutId, value }) => ({
            payload: { payoutId, outcome: value },
            options: { dedupeKey: `bank-inbound:${inboundId}:${payoutId}:${value.type}` },
          })),
          { ids, now: clock.now() },
        );
      },
    };
  }
  type Effects = ReturnType<typeof createEffects>;

  async function flag(tx: Db, file: BankFileRow, alert: string): Promise<void> {
    const alerts = alertsOf(file);
    if (!alerts.includes(alert)) await updateFile(tx, file.id, { alerts: [...alerts, alert], updatedAt: clock.now() });
  }

  /**
   * The payment blocks of a SEPA file of ours: from the PmtInfId kept on each item; for items written before it
   * was kept, from the file as we sent it (when it was not sealed with OpenPGP: then those items are in no
   * block, and a block-level answer cannot name them).
   */
  function blocksOf(file: BankFileRow, items: Awaited<ReturnType<typeof listItemReferencesOfFile>>): Pain001Block[] {
    if (items.some((item) => item.paymentInfoId === null)) {
      try {
        return readPain001Blocks(deps.cipher.decrypt(file.contentEncrypted));
      } catch (error) {
        if (!(error instanceof IsoParseError)) throw error;
      }
    }
    const blocks = new Map<string, Array<{ endToEndId: string; amountMinor: number }>>();
    for (const item of items) {
      if (item.paymentInfoId === null || item.reference === null) continue;
      const list = blocks.get(item.paymentInfoId) ?? [];
      list.push({ endToEndId: item.reference, amountMinor: item.amountMinor });
      blocks.set(item.paymentInfoId, list);
    }
    return [...blocks].map(([paymentInfoId, transactions]) => ({ paymentInfoId, transactions }));
  }

  async function applyPain002(tx: Tx, tenant: Tenant, effects: Effects, text: string): Promise<Applied> {
    const report = readPain002(text);
    const file = await findFileByMessageId(tx, tenant, "sepa", report.originalMessageId);
    if (file === null) {
      return {
        kind: "pain.002",
        unmatched: [
          `pain.002 ${report.messageId} answers message ${report.originalMessageId}, which is none of our SEPA files; nothing was moved.`,
        ],
      };
    }
    const items = await listItemReferencesOfFile(tx, file.id);
    const decision = decideStatusReport(report, file, blocksOf(file, items), items);
    for (const [payoutId, item] of decision.items) {
      effects.status(payoutId, item.status);
      if (item.outcome === "acknowledged") effects.outcome(payoutId, { type: "acknowledged" });
      else if (item.outcome === "failed")
        effects.outcome(payoutId, { type: "failed", reason: item.reason ?? "The bank rejected the payment." });
    }
    // Any status report is the bank's answer (the `no_status_report` watch stops), PDNG included.
    const now = clock.now();
    await updateFile(tx, file.id, { status: decision.fileStatus, acknowledgedAt: file.acknowledgedAt ?? now, updatedAt: now });
    if (decision.rejected > 0) {
      await flag(tx, (await findFileById(tx, file.id)) ?? file, "rejected");
      observe("sepa", "file_rejected");
      logger.warn(
        { business_id: tenant.businessId, file_id: file.id, rejected: decision.rejected },
        "the bank rejected payouts of a SEPA file",
      );
    }
    if (decision.problems.length > 0) await flag(tx, (await findFileById(tx, file.id)) ?? file, "unmatched_entries");
    return { kind: "pain.002", unmatched: [...decision.problems] };
  }

  /**
   * When a booking happened: BookgDt/DtTm as written (its offset, else the rail's time zone), BookgDt/Dt as
   * the start of that day in the rail's time zone; never later than when the file is read (a booking cannot
   * be in the future), and the time read when the bank gives no booking date.
   */
  function bookedAt(bookingDate: string | null, timeZone: string): Date {
    const now = clock.now();
    if (bookingDate === null) return now;
    const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(
      bookingDate.trim(),
    );
    if (!match) throw new IsoParseError(`camt.054 booking date is not an ISO date or date-time: ${JSON.stringify(bookingDate)}`);
    const [, day, hh, mm, ss, fraction, offset] = match as unknown as [
      string,
      string,
      string?,
      string?,
      string?,
      string?,
      string?,
    ];
    let at: Date;
    if (hh === undefined) at = zonedInstant(day, "00:00", timeZone);
    else if (offset !== undefined) at = new Date(bookingDate.trim());
    else
      at = new Date(
        zonedInstant(day, `${hh}:${mm}`, timeZone).getTime() +
          Number(ss ?? 0) * 1000 +
          Math.floor(Number(`0.${fraction ?? 0}`) * 1000),
      );
    if (Number.isNaN(at.getTime()))
      throw new IsoParseError(`camt.054 booking date is not a valid date: ${JSON.stringify(bookingDate)}`);
    return at.getTime() > now.getTime() ? now : at;
  }

  async function applyCamt054(tx: Tx, tenant: Tenant, effects: Effects, text: string, timeZone: string): Promise<Applied> {
    const notification = readCamt054(text);
    const referenceOf = (endToEndId: string | null) => {
      const payoutId = endToEndId ? payoutIdOfEndToEndId(endToEndId) : null;
      return payoutId ? endToEndIdOf(payoutId) : null;
    };
    const items = await findItemsByReferences(
      tx,
      tenant,
      "sepa",
      notification.transactions.flatMap((entry) => referenceOf(entry.endToEndId) ?? []),
    );
    const unmatched: string[] = [];
    for (const entry of notification.transactions) {
      // Only a booked entry moves money; a pending one (PDNG) or an information (INFO) is left for its booking.
      if (entry.entryStatus !== "BOOK") continue;
      const reference = referenceOf(entry.endToEndId);
      const item = reference === null ? undefined : items.get(reference);
      if (item === undefined) {
        unmatched.push(`EndToEndId ${entry.endToEndId ?? "(none)"}`);
        continue;
      }
      // The booking moves the payout only when its amount is the transfer's; a return may come back less the
      // banks' charges (SEPA allows it), never more. Otherwise it is shown, not applied.
      const amountFits =
        entry.creditDebit === "DBIT" ? entry.amountMinor === item.amountMinor : entry.amountMinor <= item.amountMinor;
      if (entry.currency !== "EUR" || !amountFits) {
        unmatched.push(
          `camt.054 ${entry.creditDebit === "DBIT" ? "booking" : "return"} of EndToEndId ${entry.endToEndId}: we sent EUR ${euros(item.amountMinor)}, the bank booked ${entry.currency} ${euros(entry.amountMinor)}; nothing was moved.`,
        );
        const file = item.fileId ? await findFileById(tx, item.fileId) : null;
        if (file) await flag(tx, file, "unmatched_entries");
        continue;
      }
      if (entry.creditDebit === "DBIT" && entry.returnReasonCode === null) {
        effects.status(item.payoutId, "BOOK");
        effects.outcome(item.payoutId, {
          type: "disbursed",
          disbursedAt: bookedAt(entry.bookingDate, timeZone).toISOString(),
        });
      } else if (entry.creditDebit === "CRDT" && entry.returnReasonCode !== null) {
        effects.status(item.payoutId, entry.returnReasonCode);
        effects.outcome(item.payoutId, {
          type: "returned",
          reason: isoReasonText(entry.returnReasonCode, entry.returnAdditionalInfo),
        });
      }
    }
    for (const batch of notification.batches) {
      if (batch.entryStatus !== "BOOK") continue;
      const problem = await applyBatchBooking(tx, tenant, effects, notification.messageId, batch, timeZone);
      if (problem !== null) unmatched.push(problem);
    }
    return { kind: "camt.054", unmatched };
  }

  /**
   * One entry booked for a whole payment block (NtryDtls/Btch): each remaining payout of the block moves to
   * disbursed when the booking is the block less its rejected transactions; otherwise nothing moves and the
   * sentence returned says what was expected and what was booked (the file is flagged).
   */
  async function applyBatchBooking(
    tx: Tx,
    tenant: Tenant,
    effects: Effects,
    messageId: string,
    batch: Camt054Batch,
    timeZone: string,
  ): Promise<string | null> {
    const said = `camt.054 ${messageId}`;
    if (batch.creditDebit !== "DBIT") {
      return `${said}: a batch credit of ${batch.entryCurrency} ${euros(batch.entryAmountMinor)}${batch.paymentInfoId ? ` for payment block ${batch.paymentInfoId}` : ""} is not a booking of our transfers (returns come one by one with their reason); nothing was moved.`;
    }
    if (batch.paymentInfoId === null) {
      return `${said}: a batch booking of ${batch.entryCurrency} ${euros(batch.entryAmountMinor)} names no payment block (PmtInfId); nothing was moved.`;
    }
    // Our PmtInfIds are the file's MsgId and a four-digit block number (sepa-pain001.ts).
    const file = await findFileByMessageId(tx, tenant, "sepa", batch.paymentInfoId.replace(/-\d{4}$/, ""));
    const items = file === null ? [] : await listItemReferencesOfFile(tx, file.id);
    const block = file === null ? undefined : blocksOf(file, items).find((b) => b.paymentInfoId === batch.paymentInfoId);
    if (file === null || block === undefined) {
      return `${said}: a batch booking of ${batch.entryCurrency} ${euros(batch.entryAmountMinor)} names payment block ${batch.paymentInfoId}, which is none of our SEPA files' blocks; nothing was moved.`;
    }
    const check = checkBatchBooking(batch, block, file, items, messageId);
    if (!check.matched) {
      await flag(tx, file, "unmatched_entries");
      return check.problem;
    }
    const disbursedAt = bookedAt(batch.bookingDate, timeZone).toISOString();
    for (const payoutId of check.payoutIds) {
      effects.status(payoutId, "BOOK");
      effects.outcome(payoutId, { type: "disbursed", disbursedAt });
    }
    return null;
  }

  async function applyNacha(tx: Tx, tenant: Tenant, effects: Effects, parsed: NachaFile): Promise<Applied> {
    const unmatched: string[] = [];
    const entries = parsed.batches.flatMap((batch) => batch.entries);
    const candidates = await findFiledItemsByReferences(
      tx,
      tenant,
      "ach",
      entries.flatMap((entry) => (entry.returnInfo ?? entry.changeInfo)?.originalTrace ?? []),
    );
    const receivedAt = clock.now();
    const fingerprint = (accountNumber: string) => deps.cipher.fingerprint(`ach-dfi-account:${accountNumber.toUpperCase()}`);
    // Files of ours an answer named but could not be matched to, or matched with a note: flagged once each.
    const fileAlerts = new Map<string, Set<string>>();
    const alertFile = (fileId: string | null, alert: string) => {
      if (fileId !== null) fileAlerts.set(fileId, (fileAlerts.get(fileId) ?? new Set()).add(alert));
    };
    for (const entry of entries) {
      const info = entry.returnInfo ?? entry.changeInfo;
      if (info === null) continue;
      const named = candidates.get(info.originalTrace) ?? [];
      const match = matchAchAnswer(
        {
          kind: entry.returnInfo ? "return" : "notification_of_change",
          code: info.code,
          originalTrace: info.originalTrace,
          originalReceivingDfi: info.originalReceivingDfi,
          accountNumber: entry.accountNumber,
          amountMinor: entry.amountMinor,
          transactionCode: entry.transactionCode,
        },
        named,
        receivedAt,
        fingerprint,
      );
      if (match.matched === null) {
        // Shown on the inbound file and on our file the trace named; no payout moves on a guess.
        unmatched.push(match.problem);
        for (const candidate of named) alertFile(candidate.item.fileId, "unmatched_entries");
        continue;
      }
      const item = match.matched.item;
      for (const note of match.notes) {
        unmatched.push(note);
        alertFile(item.fileId, "return_code_not_for_credit");
        observe("ach", "return_code_not_for_credit");
      }
      effects.status(item.payoutId, info.code);
      if (entry.returnInfo) {
        // A return before the payout was reported disbursed fails it; after, it is a return. The payouts side
        // ignores whichever of the two its state does not allow, so both are sent in order.
        const reason = achReturnText(entry.returnInfo.code);
        effects.outcome(item.payoutId, { type: "returned", reason });
        effects.outcome(item.payoutId, { type: "failed", reason });
      } else if (entry.changeInfo) {
        const change = entry.changeInfo;
        effects.note(item.payoutId, "notification_of_change");
        // Shown to the Business on the bank account, masked; the unmasked correction is kept encrypted for
        // the Business to apply with one call (docs/decisions.md, "Inbound problems shown").
        if (item.destinationId !== null) {
          const correction = achCorrectionOf(change.code, change.correctedData);
          const notice = {
            code: change.code,
            description: achChangeText(change.code),
            corrected_fields: achCorrectedFields(change.code),
            corrected_data: maskedCorrectedData(change.code, change.correctedData),
            payout_id: item.payoutId,
            received_at: clock.now().toISOString(),
          };
          const beneficiaryId = await recordNotificationOfChange(
            tx,
            tenant,
            item.destinationId,
            {
              ...notice,
              ...(correction === null ? {} : { correction_encrypted: deps.cipher.encrypt(JSON.stringify(correction)) }),
            },
            clock.now(),
          );
          if (beneficiaryId !== null) {
            await deps.events.record(tx, {
              tenant,
              type: "beneficiary.bank_account.notification_of_change",
              subjectId: beneficiaryId,
              data: { beneficiary_id: beneficiaryId, bank_account_id: item.destinationId, ...notice },
            });
          }
        }
        alertFile(item.fileId, "notification_of_change");
        observe("ach", "notification_of_change");
        logger.warn(
          {
            business_id: tenant.businessId,
            payout_id: item.payoutId,
            code: entry.changeInfo.code,
            change: achChangeText(entry.changeInfo.code),
          },
          "ACH notification of change: correct the destination before the next payout",
        );
      }
    }
    for (const [fileId, alerts] of fileAlerts) {
      let file = await findFileById(tx, fileId);
      for (const alert of alerts) {
        if (file === null) break;
        await flag(tx, file, alert);
        file = await findFileById(tx, fileId);
      }
    }
    return { kind: "nacha_returns", unmatched };
  }

  /** Parses and applies one inbound file in one transaction; a parse failure is recorded as refused. */
  async function processInbound(
    config: BankRailConfigRow,
    entry: InboundEntry,
    content: string,
  ): Promise<"applied" | "refused" | "seen" | "duplicate"> {
    const tenant: Tenant = { businessId: config.businessId, environment: config.environment };
    const rail = config.rail as BankRailName;
    const name = entry.name;
    const sha256 = sha256Hex(content);
    const listing = { sizeBytes: entry.size, modifiedAt: entry.modifiedAt };
    // The columns every record of this file shares, whatever becomes of it (applied, duplicate or refused).
    const received = (id: string) => ({
      id,
      businessId: tenant.businessId,
      environment: tenant.environment,
      rail,
      fileName: name,
      contentSha256: sha256,
      kind: "unknown",
      contentEncrypted: deps.cipher.encrypt(content),
      ...listing,
      receivedAt: clock.now(),
    });
    if (await inboundSeen(db, tenant, rail, name, sha256)) {
      await recordInboundListing(db, tenant, rail, { fileName: name, sha256, ...listing });
      return "seen";
    }
    const inboundId = ids.newId();
    // The same bytes under another name: the bank sent the file twice. Recorded, applied nothing.
    const earlier = await findInboundWithContent(db, tenant, rail, sha256);
    if (earlier !== null) {
      const reason = `The same content as ${earlier.fileName}, received ${earlier.receivedAt.toISOString()}: the bank sent the file twice; nothing was applied again.`;
      const recorded = await transaction(db, (tx) =>
        claimInbound(tx, {
          ...received(inboundId),
          status: "duplicate",
          refusalReason: reason,
          duplicateOfId: earlier.id,
        }),
      );
      if (!recorded) return "seen";
      observe(rail, "inbound_duplicate");
      logger.warn(
        { business_id: tenant.businessId, inbound_file: name, duplicate_of: earlier.fileName },
        "inbound bank file is a copy of one already read: nothing was applied",
      );
      return "duplicate";
    }
    try {
      // With OpenPGP inbound, the file must decrypt with the Business's key and carry the bank's signature;
      // what is kept is what arrived.
      const pgp = (config.settings as BankRailSettings).openpgp ?? null;
      let text = content;
      if (pgp?.inbound === "decrypt_and_verify") {
        const secrets =
          config.secretsEncrypted === null ? null : (JSON.parse(deps.cipher.decrypt(config.secretsEncrypted)) as BankRailSecrets);
        // The configuration API refuses decrypt_and_verify without a private key; this guards older rows.
        if (secrets?.pgpPrivateKey === undefined) throw new BankPgpError("no OpenPGP private key is stored to decrypt with");
        text = await openInbound(content, {
          decryptionKey: secrets.pgpPrivateKey,
          bankPublicKey: pgp.bankPublicKey,
          maxBytes: maxFileBytes,
        });
        // The readers (fast-xml-parser, the NACHA reader) are never handed more than the limit.
        if (Buffer.byteLength(text, "utf8") > maxFileBytes)
          throw new BankPgpError(`the file decrypts to more than ${maxFileBytes} bytes`);
      }
      return await transaction(db, async (tx) => {
        const claimed = await claimInbound(tx, {
          ...received(inboundId),
          status: "applied",
        });
        if (!claimed) return "seen" as const;
        let applied: Applied;
        const effects = createEffects(inboundId);
        if (deps.statements.isStatement(text))
          applied = await deps.statements.receive(tx, tenant, text, { rail, fileName: name });
        else if (rail === "ach") applied = await applyNacha(tx, tenant, effects, readNachaFile(text));
        else if (/CstmrPmtStsRpt/.test(text)) applied = await applyPain002(tx, tenant, effects, text);
        else if (/BkToCstmrDbtCdtNtfctn/.test(text))
          applied = await applyCamt054(tx, tenant, effects, text, (config.settings as BankRailSettings).timeZone);
        else refuseOtherIsoMessage(text);
        await effects.write(tx);
        await updateInbound(tx, inboundId, { kind: applied.kind, unmatched: applied.unmatched, moved: effects.moved() });
        // Each item that moved nothing is an event, in this transaction (the one place they are recorded).
        for (const recorded of applied.unmatched) {
          const problem = unmatchedProblem(applied.kind, recorded);
          await deps.events.record(tx, {
            tenant,
            type: "bank_file.item_unmatched",
            subjectId: inboundId,
            data: { inbound_file_id: inboundId, rail, file_name: name, reference: problem.reference, reason: problem.reason },
          });
        }
        if (applied.unmatched.length > 0) {
          observe(rail, "unmatched_entry");
          logger.warn(
            { business_id: tenant.businessId, inbound_file: name, unmatched: applied.unmatched },
            "inbound bank file names entries that match no payout",
          );
        }
        return "applied" as const;
      });
    } catch (error) {
      const reason = refusalWords(rail, error).slice(0, 500);
      // Nothing of the file was applied (its transaction rolled back); it is kept, refused, with its reason.
      const refusedId = ids.newId();
      await transaction(db, async (tx) => {
        const recorded = await claimInbound(tx, {
          ...received(refusedId),
          status: "refused",
          refusalReason: reason,
        });
        if (recorded) await recordRefused(tx, tenant, rail, refusedId, name, reason);
      });
      observe(rail, "inbound_refused");
      logger.error(
        { business_id: tenant.businessId, inbound_file: name, reason },
        "inbound bank file refused: it could not be parsed, nothing was applied",
      );
      return "refused";
    }
  }

  async function recordRefused(tx: Tx, tenant: Tenant, rail: string, id: string, fileName: string, reason: string) {
    await deps.events.record(tx, {
      tenant,
      type: "bank_file.refused",
      subjectId: id,
      data: { inbound_file_id: id, rail, file_name: fileName, reason },
    });
  }

  /**
   * Records a file over the size limit, unread (no content, no hash), once per listing; logged and counted.
   * `bytesRead` is where a read stopped when the listing understated the file; null when the listing showed it.
   */
  async function refuseTooLarge(config: BankRailConfigRow, entry: InboundEntry, bytesRead: number | null): Promise<void> {
    const tenant: Tenant = { businessId: config.businessId, environment: config.environment };
    const reason =
      bytesRead === null
        ? `${entry.name} is ${entry.size} bytes, over the ${maxFileBytes}-byte limit for inbound files ` +
          "(BANK_RAIL_INBOUND_MAX_FILE_BYTES); it was not read"
        : `${entry.name} was listed at ${entry.size} bytes but holds more than the ${maxFileBytes}-byte limit for ` +
          `inbound files (BANK_RAIL_INBOUND_MAX_FILE_BYTES); reading stopped after ${bytesRead} bytes`;
    const refusedId = ids.newId();
    const recorded = await transaction(db, async (tx) => {
      const claimed = await claimInbound(tx, {
        id: refusedId,
        businessId: tenant.businessId,
        environment: tenant.environment,
        rail: config.rail,
        fileName: entry.name,
        contentSha256: null,
        kind: "unknown",
        status: "refused",
        refusalReason: reason.slice(0, 500),
        contentEncrypted: null,
        sizeBytes: entry.size,
        modifiedAt: entry.modifiedAt,
        sizeLimitBytes: maxFileBytes,
        receivedAt: clock.now(),
      });
      if (claimed) await recordRefused(tx, tenant, config.rail, refusedId, entry.name, reason);
      return claimed;
    });
    if (!recorded) return; // another poll recorded this listing first
    observe(config.rail, "inbound_too_large");
    logger.error(
      { business_id: tenant.businessId, inbound_file: entry.name, size_bytes: entry.size, max_bytes: maxFileBytes, reason },
      "inbound bank file refused: it is over the size limit, nothing was applied",
    );
  }

  /**
   * Whether a listed file was taken already: a record with its name, size and modification time, except a
   * refusal for size under a lower limit than today's (the operator raised it: the file is read now).
   */
  function takenAlready(entry: InboundEntry, records: Awaited<ReturnType<typeof listInboundRecords>>): boolean {
    return records.some(
      (record) =>
        record.fileName === entry.name &&
        record.sizeBytes === entry.size &&
        record.modifiedAt?.getTime() === entry.modifiedAt.getTime() &&
        (record.sizeLimitBytes === null || record.sizeLimitBytes >= maxFileBytes),
    );
  }

  /** Every new file of the inbound directory, downloaded (within the limit) and processed, one by one. */
  async function intake(config: BankRailConfigRow, target: DeliveryTarget): Promise<void> {
    const tenant: Tenant = { businessId: config.businessId, environment: config.environment };
    const listed = await target.listInbound();
    const records = await listInboundRecords(
      db,
      tenant,
      config.rail,
      listed.map((entry) => entry.name),
    );
    for (const entry of listed) {
      if (takenAlready(entry, records)) continue;
      if (entry.size > maxFileBytes) {
        await refuseTooLarge(config, entry, null);
        continue;
      }
      let content: Buffer;
      try {
        content = await target.readInbound(entry.name, maxFileBytes);
      } catch (error) {
        if (!(error instanceof InboundTooLargeError)) throw error;
        deps.observeRead?.(config.rail, error.bytesRead);
        await refuseTooLarge(config, entry, error.bytesRead);
        continue;
      }
      deps.observeRead?.(config.rail, content.length);
      await processInbound(config, entry, content.toString("utf8"));
    }
  }

  async function watch(config: BankRailConfigRow): Promise<void> {
    const settings = config.settings as BankRailSettings;
    const tenant: Tenant = { businessId: config.businessId, environment: config.environment };
    const before = new Date(clock.now().getTime() - settings.statusReportTimeoutHours * 3_600_000);
    const late = await listUnacknowledgedFiles(db, tenant, config.rail, before);
    for (const file of late) {
      if (alertsOf(file).includes("no_status_report")) continue;
      await flag(db, file, "no_status_report");
      observe(config.rail, "no_status_report");
      logger.warn({ business_id: config.businessId, file_id: file.id }, "no status report for a bank file past its time");
    }
  }

  const poll = jobHandler(BANK_POLL_JOB, async (p, context) => {
    const tenant: Tenant = { businessId: p.businessId, environment: "production" };
    const config = await findConfig(db, tenant, p.rail);
    if (config === null) {
      await context.completeWithin(db);
      return;
    }
    // A server that cannot be reached is logged and counted; the chain of polls goes on (it must not die
    // with the job's attempts), and files left on the server are read at the next slot.
    try {
      const target = await deps.openTarget(config);
      try {
        await intake(config, target);
      } finally {
        await target.close();
      }
    } catch (error) {
      observe(config.rail, "poll_failed");
      logger.error(
        { business_id: config.businessId, rail: config.rail },
        `bank inbound directory could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    // ACH sends no status report: only SEPA files are watched for one.
    if (config.rail === "sepa") await watch(config);
    await transaction(db, async (tx) => {
      await schedulePoll(tx, config, clock.now());
      if (!(await context.completeWithin(tx))) throw new LeaseLostError();
    });
  });

  // processInbound and intake are the poll's steps, also driven directly by the bench and the tests.
  return { schedulePoll, processInbound, intake, handlers: poll satisfies JobHandlers };
}
