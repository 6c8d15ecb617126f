// Bank files: the queue of payouts waiting for their rail's cut-off, the cut-off that puts them into one file
// in one transaction, and the upload after commit.
//
// Queueing a payout enqueues the rail's next cut-off (one job per Business, rail and cut-off time: dedupe key),
// so a cut-off runs only when payouts wait for it.
// BANK_CUTOFF_JOB: one transaction locks the rail's
//   configuration row (two workers at the same cut-off take turns; the second finds the file and stops),
//   reads the waiting payouts, locks them, builds the file, stores it with its exact bytes, binds each payout
//   to it (an item enters a file only while unbound: at most one file per payout, ever), records
//   `payout.disbursement_submitted` for each, enqueues the upload, and completes the job. Payouts queued after
//   the cut-off instant wait for the next one (their own queueing enqueued it).
// BANK_UPLOAD_JOB (no transaction open while it talks to the server): looks for the file under its
//   deterministic name first (a crash after the upload and before its record leaves the file there: the same
//   bytes are not sent again), uploads it otherwise, then records `uploaded` and completes in one transaction.
import type { Tenant } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import type { IdGenerator } from "../../platform/ids.js";
import { jobHandler } from "../../platform/jobs/job-definition.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import { type JobHandlers, LeaseLostError, PermanentJobError } from "../../platform/jobs/worker.js";
import type { TargetPolicy } from "../../platform/outbound-http/url-safety.js";
import { nextFederalReserveBusinessDay, target2BusinessDayOnOrAfter } from "../../rails/bank-files/calendars.js";
import { isSepaRepresentable } from "../../rails/bank-files/charset.js";
import { type AchCredit, buildNachaFile, checkAchCredit } from "../../rails/bank-files/nacha-writer.js";
import { protectOutbound } from "../../rails/bank-files/openpgp.js";
import {
  buildPain001,
  checkSepaTransfer,
  endToEndIdOf,
  type Pain001Version,
  paymentInfoIdsOf,
  type SepaTransfer,
} from "../../rails/bank-files/sepa-pain001.js";
import { type BankFilePayout, PAYOUT_RAIL_OUTCOME_JOB, type PayoutBankFileHooks } from "../payouts/index.js";
import { fileBaseDate, localDateOf, nextCutoff, zonedInstant } from "./bank-rails.cutoff.js";
import {
  DeliveryError,
  type DeliveryTarget,
  describeDeliveryFailure,
  openLocalTarget,
  openSftpTarget,
  sftpSettingsOf,
  sha256Hex,
} from "./bank-rails.delivery.js";
import { createBankInbound } from "./bank-rails.inbound.js";
import { BANK_CUTOFF_JOB, BANK_UPLOAD_JOB } from "./bank-rails.jobs.js";
import type { InboundStatements } from "./bank-rails.ports.js";
import {
  advanceCounter,
  type BankRailConfigRow,
  dropItem,
  fileItem,
  findConfig,
  findFileById,
  findFileForCutoff,
  insertFile,
  listWaitingItems,
  lockConfig,
  queueItem,
  type SentEntryFacts,
  updateFile,
} from "./bank-rails.repo.js";
import { type RoutingFactsOf, routeRequests } from "./bank-rails.route-lookup.js";
import { refusalFailureReason } from "./bank-rails.routing.js";
import type { BankRailName } from "./bank-rails.schemas.js";
import type { BankRailSecrets, BankRailSettings } from "./bank-rails.service.js";

export interface BankFilesLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface BankFilesDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  /** The events outbox (inbound problems and notifications of change are events). */
  readonly events: EventRecorder;
  readonly jobStore: Pick<JobStore, "enqueue">;
  readonly logger: BankFilesLogger;
  readonly localRoot: string | null;
  /** The outbound address rules SFTP hosts are held to at connect time (as webhook URLs are). */
  readonly sftpPolicy: TargetPolicy;
  readonly payouts: PayoutBankFileHooks;
  /** Routing facts of destinations by id (the disbursement's queueing routes with the creation's rule). */
  readonly destinationRoutingFactsOf: RoutingFactsOf;
  /** Test seam: opens the delivery target (defaults to SFTP or the local folders of the configuration). */
  readonly openTarget?: (config: BankRailConfigRow, secrets: BankRailSecrets | null) => Promise<DeliveryTarget>;
  /** Counts bank-file events that need watching (metrics). */
  readonly observe?: (rail: string, event: string) => void;
  /** How often the inbound directory is read (BANK_RAIL_POLL_INTERVAL_SECONDS). */
  readonly pollIntervalMs?: number;
  /** The size limit of one inbound file (BANK_RAIL_INBOUND_MAX_FILE_BYTES). */
  readonly inboundMaxFileBytes: number;
  /** Bank statements found in an inbound folder go to the reconciliation module (issue 28). */
  readonly statements: InboundStatements;
  /** Counts each inbound download and the bytes it read (metrics). */
  readonly observeInboundRead?: (rail: string, bytes: number) => void;
  /**
   * TEST ONLY, never set by the service (main.ts has no way to): awaited after a file reached the server and
   * before its upload is recorded, so a crash test can kill the worker in exactly that window.
   */
  readonly testOnlyPauseAfterUpload?: (file: { readonly id: string; readonly fileName: string }) => Promise<void>;
}

function compact(instant: Date): string {
  return instant.toISOString().replace(/[-:]/g, "").slice(0, 13); // 20261124T1400
}

/** The file name at a cut-off: the same for every run of that cut-off, so a crashed upload finds its file. */
export function bankFileName(businessId: string, rail: BankRailName, cutoffAt: Date): string {
  return `${rail}-${businessId.replaceAll("-", "").slice(-12)}-${compact(cutoffAt)}Z.${rail === "sepa" ? "xml" : "ach"}`;
}

function settingsOf(row: BankRailConfigRow): BankRailSettings {
  return row.settings as BankRailSettings;
}

function remittanceOf(payout: BankFilePayout): string {
  return payout.externalRef ?? `Payout ${payout.payoutId}`;
}

export function createBankFiles(deps: BankFilesDeps) {
  const { db, clock, ids, cipher, jobStore, logger } = deps;
  const inbound = createBankInbound({
    statements: deps.statements,
    db,
    clock,
    ids,
    cipher,
    events: deps.events,
    jobStore,
    logger,
    ...(deps.observe === undefined ? {} : { observe: deps.observe }),
    ...(deps.pollIntervalMs === undefined ? {} : { pollIntervalMs: deps.pollIntervalMs }),
    maxFileBytes: deps.inboundMaxFileBytes,
    ...(deps.observeInboundRead === undefined ? {} : { observeRead: deps.observeInboundRead }),
    openTarget: (config) => openTarget(config),
  });

  async function scheduleNextCutoff(tx: Tx, config: BankRailConfigRow, after: Date): Promise<void> {
    const settings = settingsOf(config);
    const at = nextCutoff(after, settings.cutoffTimes, settings.timeZone);
    // One job per Business, rail and cut-off instant (the definition's dedupe key).
    await jobStore.enqueue(
      tx,
      BANK_CUTOFF_JOB,
      { businessId: config.businessId, rail: config.rail as BankRailName, cutoffAt: at.toISOString() },
      { runAt: at },
    );
  }

  /**
   * For the disbursement job: the bank rail a production payout goes to, its refusal (the failure reason of
   * the typed refusal payout creation answers with), or null (the environment's own rail).
   */
  async function route(
    tx: Tx,
    payout: { businessId: string; environment: Tenant["environment"]; destinationId: string; currency: string },
  ): Promise<{ rail: BankRailName } | { refused: string } | null> {
    const tenant: Tenant = { businessId: payout.businessId, environment: payout.environment };
    const routing = await routeRequests(tx, tenant, [payout], deps.destinationRoutingFactsOf);
    if (routing === null) return null;
    const [routed] = routing.routed;
    if (routed === null || routed === undefined) return { refused: "The payout's destination is unknown." };
    if ("refused" in routed.route) return { refused: refusalFailureReason(routed.route) };
    return routed.route.rail === "simulator" ? null : { rail: routed.route.rail };
  }

  /** For the disbursement job: the payout waits for the rail's next cut-off. */
  async function queue(
    tx: Tx,
    payout: {
      id: string;
      businessId: string;
      environment: Tenant["environment"];
      amountMinor: number;
      destinationId: string;
    },
    rail: string,
  ) {
    const tenant: Tenant = { businessId: payout.businessId, environment: payout.environment };
    const now = clock.now();
    await queueItem(tx, {
      payoutId: payout.id,
      businessId: payout.businessId,
      environment: payout.environment,
      rail,
      amountMinor: payout.amountMinor,
      destinationId: payout.destinationId,
      queuedAt: now,
    });
    const config = await lockConfig(tx, tenant, rail);
    if (config !== null) await scheduleNextCutoff(tx, config, now);
  }

  interface Built {
    /** ACH: when the credits settle (the effective entry date); they are reported disbursed then, absent a return. */
    readonly settlesAt?: Date;
    readonly content: string;
    readonly messageId: string;
    readonly format: string;
    /** Each payout's reference in the file (trace number or EndToEndId) and what its entry carried. */
    readonly entries: ReadonlyMap<string, { readonly reference: string; readonly facts: SentEntryFacts }>;
    readonly controlSumMinor: number;
    readonly currency: string;
  }

  /** A file the cut-off may not write (recorded as a `refused` file with its alert; its payouts keep waiting). */
  interface Refused {
    readonly refused: { readonly alert: string; readonly messageId: string; readonly message: string };
  }

  /** The last four characters of an account number or IBAN as written in a file. */
  const lastFour = (value: string) => value.slice(-4);

  function buildSepa(
    config: BankRailConfigRow,
    cutoffAt: Date,
    payouts: readonly BankFilePayout[],
    refuse: (id: string, reason: string) => void,
  ): Built | null {
    const settings = settingsOf(config);
    const writtenAt = clock.now();
    const o = settings.originator as {
      name: string;
      iban: string;
      bic: string | null;
      initiating_party_id: string | null;
      address: Record<string, string> | null;
    };
    // Dated for when the file is actually written (a late cut-off never asks for a day already gone).
    const executionDate = target2BusinessDayOnOrAfter(fileBaseDate(cutoffAt, writtenAt, settings.cutoffTimes, settings.timeZone));
    const debtor = {
      name: o.name,
      iban: o.iban,
      bic: o.bic,
      address: o.address
        ? {
            streetName: o.address.street_name ?? null,
            buildingNumber: o.address.building_number ?? null,
            postalCode: o.address.postal_code ?? null,
            townName: o.address.town_name ?? "",
            country: o.address.country ?? "",
          }
        : null,
    };
    const transfers: SepaTransfer[] = [];
    for (const p of payouts) {
      const address = p.postalAddress;
      const transfer: SepaTransfer = {
        payoutId: p.payoutId,
        amountMinor: p.amountMinor,
        creditorName: p.beneficiaryName,
        creditorIban: p.destination.iban ?? "",
        creditorBic: p.destination.swiftBic,
        creditorAddress:
          address && address.city.trim() !== "" && /^[A-Z]{2}$/.test(address.country)
            ? {
                streetName: address.line1,
                buildingName: address.line2 ?? null,
                postalCode: address.postal_code ?? null,
                townName: address.city,
                countrySubdivision: address.state ?? null,
                country: address.country,
              }
            : null,
        remittance: remittanceOf(p),
        purposeCode: null,
        executionDate,
        debtor,
      };
      const problem =
        p.currency !== "EUR" ? "SEPA_ACCOUNT_INVALID" : checkSepaTransfer(transfer, settings.fileFormat as Pain001Version);
      if (problem === "SEPA_ADDRESS_NOT_STRUCTURED") {
        refuse(
          p.payoutId,
          "SEPA_ADDRESS_NOT_STRUCTURED: The Beneficiary's postal address needs at least a city and a country to be sent structured, as SEPA requires since November 2026.",
        );
      } else if (problem === "SEPA_NAME_NOT_REPRESENTABLE" || !isSepaRepresentable(p.beneficiaryName)) {
        refuse(p.payoutId, "SEPA_NAME_NOT_REPRESENTABLE: The account holder's name has no character a SEPA file can carry.");
      } else if (problem !== null) {
        refuse(p.payoutId, `${problem}: The payout cannot be carried by a SEPA credit transfer.`);
      } else {
        transfers.push(transfer);
      }
    }
    if (transfers.length === 0) return null;
    const messageId = `PO${compact(cutoffAt)}Z${config.businessId.replaceAll("-", "").slice(-12)}`;
    const blockOf = paymentInfoIdsOf({ messageId, transfers });
    const content = buildPain001({
      version: settings.fileFormat as Pain001Version,
      messageId,
      createdAt: writtenAt.toISOString().slice(0, 19),
      initiatingParty: { name: o.name, id: o.initiating_party_id },
      transfers,
    });
    return {
      content,
      messageId,
      format: settings.fileFormat,
      entries: new Map(
        transfers.map((t) => {
          const iban = t.creditorIban.replaceAll(" ", "").toUpperCase();
          const facts: SentEntryFacts = {
            accountFingerprint: cipher.fingerprint(`sepa-iban:${iban}`),
            accountLast4: lastFour(iban),
            bankCode: t.creditorBic,
            transactionCode: null,
            paymentInfoId: blockOf.get(t.payoutId) ?? null,
          };
          return [t.payoutId, { reference: endToEndIdOf(t.payoutId), facts }];
        }),
      ),
      controlSumMinor: transfers.reduce((sum, t) => sum + t.amountMinor, 0),
      currency: "EUR",
    };
  }

  /**
   * The NACHA file of a cut-off. Its identity comes from the database, in the cut-off's transaction: the File
   * ID Modifier is the next free one of the creation date (A-Z then 0-9; a 37th file that day is refused, not
   * written), the trace numbers the next ones of the originator's sequence at its ODFI (never reset).
   */
  async function buildAch(
    tx: Tx,
    config: BankRailConfigRow,
    cutoffAt: Date,
    payouts: readonly BankFilePayout[],
    refuse: (id: string, reason: string) => void,
  ): Promise<Built | Refused | null> {
    const settings = settingsOf(config);
    const o = settings.originator as Record<string, string>;
    const tenant: Tenant = { businessId: config.businessId, environment: config.environment };
    const writtenAt = clock.now();
    // Dated for when the file is actually written: a late file never carries a date already gone (it would
    // read as Same Day ACH, and its payouts would be reported disbursed at once).
    const effectiveDate = nextFederalReserveBusinessDay(
      fileBaseDate(cutoffAt, writtenAt, settings.cutoffTimes, settings.timeZone),
    );
    const credits: AchCredit[] = [];
    for (const p of payouts) {
      const credit: AchCredit = {
        payoutId: p.payoutId,
        amountMinor: p.amountMinor,
        secCode: p.beneficiaryType === "business" ? "CCD" : "PPD",
        accountType: p.accountType === "savings" ? "savings" : "checking",
        routingNumber: p.destination.routingCode ?? "",
        accountNumber: p.destination.accountNumber ?? "",
        receiverName: p.beneficiaryName,
        receiverId: p.payoutId.replaceAll("-", "").slice(-15).toUpperCase(),
        entryDescription: o.entry_description ?? "PAYOUT",
        effectiveDate,
      };
      const problem = p.currency !== "USD" ? "ACH_ACCOUNT_INVALID" : checkAchCredit(credit);
      if (problem !== null) refuse(p.payoutId, `${problem}: The payout cannot be carried by an ACH credit.`);
      else credits.push(credit);
    }
    if (credits.length === 0) return null;
    const createdDate = localDateOf(writtenAt, settings.timeZone);
    const filesThatDay = await advanceCounter(tx, tenant, `ach_file_id:${createdDate}`, 1, writtenAt, FILE_ID_MODIFIERS.length);
    if (filesThatDay === null) {
      return {
        refused: {
          alert: "file_id_modifiers_exhausted",
          messageId: `${createdDate}-`,
          message: `36 ACH files already carry the creation date ${createdDate} (File ID Modifiers A-Z and 0-9 are all used); this cut-off's payouts wait for the next cut-off.`,
        },
      };
    }
    const modifier = FILE_ID_MODIFIERS[filesThatDay - 1] ?? "";
    const odfi = (o.odfi_routing_number ?? "").slice(0, 8);
    const lastTrace = await advanceCounter(tx, tenant, `ach_trace:${odfi}`, credits.length, writtenAt);
    if (lastTrace === null) throw new Error("internal: the trace counter did not advance");
    const createdLocal = timeOf(writtenAt, settings.timeZone);
    const built = buildNachaFile({
      originator: {
        odfiRoutingNumber: o.odfi_routing_number ?? "",
        immediateDestination: o.immediate_destination ?? "",
        immediateDestinationName: o.immediate_destination_name ?? "",
        immediateOrigin: o.immediate_origin ?? "",
        immediateOriginName: o.immediate_origin_name ?? "",
        companyName: o.company_name ?? "",
        companyIdentification: o.company_identification ?? "",
      },
      createdDate,
      createdTime: createdLocal,
      fileIdModifier: modifier,
      firstTraceSequence: lastTrace - credits.length + 1,
      credits,
    });
    const creditOf = new Map(credits.map((c) => [c.payoutId, c]));
    return {
      settlesAt: zonedInstant(effectiveDate, "17:00", settings.timeZone),
      content: built.content,
      messageId: `${createdDate}-${modifier}`,
      format: "nacha",
      entries: new Map(
        built.traces.map((t) => {
          const credit = creditOf.get(t.payoutId);
          const account = (credit?.accountNumber ?? "").toUpperCase();
          const facts: SentEntryFacts = {
            accountFingerprint: cipher.fingerprint(`ach-dfi-account:${account}`),
            accountLast4: lastFour(account),
            bankCode: credit?.routingNumber ?? null,
            transactionCode: credit?.accountType === "savings" ? "32" : "22",
            // The batch's reference (in its Company Discretionary Data): a line booking the batch as one names it.
            paymentInfoId: t.batchReference,
          };
          return [t.payoutId, { reference: t.traceNumber, facts }];
        }),
      ),
      controlSumMinor: built.totalCreditMinor,
      currency: "USD",
    };
  }

  const cutoff = jobHandler(BANK_CUTOFF_JOB, async ({ businessId, rail, cutoffAt: cutoffIso }, context) => {
    const cutoffAt = new Date(cutoffIso);
    if (Number.isNaN(cutoffAt.getTime())) throw new PermanentJobError(`bank cut-off at an invalid instant: ${cutoffIso}`);
    const tenant: Tenant = { businessId, environment: "production" };
    await transaction(db, async (tx) => {
      const config = await lockConfig(tx, tenant, rail);
      if (config === null) {
        logger.info({ business_id: businessId, rail }, "bank cut-off for a rail no longer configured");
      } else if ((await findFileForCutoff(tx, tenant, rail, cutoffAt)) !== null) {
        logger.info({ business_id: businessId, rail, cutoff_at: cutoffIso }, "bank file of this cut-off already built");
      } else {
        const waiting = await listWaitingItems(tx, tenant, rail, cutoffAt);
        const payouts = await deps.payouts.lockWaiting(
          tx,
          waiting.map((item) => item.payoutId),
        );
        const ready = new Set(payouts.map((p) => p.payoutId));
        for (const item of waiting) if (!ready.has(item.payoutId)) await dropItem(tx, item.payoutId);
        const refused: Array<{ id: string; reason: string }> = [];
        const refuse = (id: string, reason: string) => refused.push({ id, reason });
        const built =
          payouts.length === 0
            ? null
            : rail === "sepa"
              ? buildSepa(config, cutoffAt, payouts, refuse)
              : await buildAch(tx, config, cutoffAt, payouts, refuse);
        for (const { id, reason } of refused) {
          await deps.payouts.failBeforeSubmission(tx, id, reason);
          await dropItem(tx, id);
        }
        if (built !== null && "refused" in built) {
          // Kept as a file of this cut-off with nothing in it, so the refusal is seen where files are listed
          // and a repeated run of this cut-off does not try again; the payouts stay queued (unbound) for the
          // next cut-off, which is scheduled here since no new payout may come to schedule it.
          const now = clock.now();
          const file = await insertFile(tx, {
            id: ids.newId(),
            businessId,
            environment: "production",
            rail,
            cutoffAt,
            fileName: bankFileName(businessId, rail, cutoffAt),
            messageId: built.refused.messageId,
            format: "nacha",
            contentEncrypted: cipher.encrypt(""),
            contentSha256: sha256Hex(""),
            entryCount: 0,
            controlSumMinor: 0,
            currency: "USD",
            status: "refused",
            lastUploadError: built.refused.message,
            alerts: [built.refused.alert],
            createdAt: now,
            updatedAt: now,
          });
          await scheduleNextCutoff(tx, config, now);
          deps.observe?.(rail, built.refused.alert);
          logger.error({ business_id: businessId, rail, file_id: file.id }, `bank file refused: ${built.refused.message}`);
        } else if (built !== null) {
          const now = clock.now();
          // With OpenPGP, the bytes kept and sent are the encrypted (and signed) file: encrypted once, here, so
          // a repeated upload finds the same bytes on the server (a second encryption would differ).
          const pgp = settingsOf(config).openpgp ?? null;
          const content =
            pgp === null
              ? built.content
              : await protectOutbound(built.content, {
                  bankPublicKey: pgp.bankPublicKey,
                  signingKey: secretsOf(config)?.pgpPrivateKey ?? null,
                });
          const fileName = `${bankFileName(businessId, rail, cutoffAt)}${pgp === null ? "" : ".pgp"}`;
          const file = await insertFile(tx, {
            id: ids.newId(),
            businessId,
            environment: "production",
            rail,
            cutoffAt,
            fileName,
            messageId: built.messageId,
            format: built.format,
            contentEncrypted: cipher.encrypt(content),
            contentSha256: sha256Hex(content),
            entryCount: built.entries.size,
            controlSumMinor: built.controlSumMinor,
            currency: built.currency,
            status: "built",
            createdAt: now,
            updatedAt: now,
          });
          for (const [payoutId, { reference, facts }] of built.entries) {
            if (!(await fileItem(tx, payoutId, file.id, reference, facts))) throw new Error("a payout entered two bank files");
            await deps.payouts.recordSubmission(tx, payoutId, `${file.fileName}#${reference}`);
            if (built.settlesAt !== undefined) {
              await jobStore.enqueue(
                tx,
                PAYOUT_RAIL_OUTCOME_JOB,
                { payoutId, outcome: { type: "disbursed" } },
                { runAt: built.settlesAt, dedupeKey: `bank-ach-settles:${payoutId}` },
              );
            }
          }
          await jobStore.enqueue(tx, BANK_UPLOAD_JOB, { fileId: file.id });
          logger.info({ business_id: businessId, rail, file_id: file.id, entries: file.entryCount }, "bank file built");
        }
      }
      if (!(await context.completeWithin(tx))) throw new LeaseLostError();
    });
  });

  function secretsOf(config: BankRailConfigRow): BankRailSecrets | null {
    return config.secretsEncrypted === null ? null : (JSON.parse(cipher.decrypt(config.secretsEncrypted)) as BankRailSecrets);
  }

  async function openTarget(config: BankRailConfigRow): Promise<DeliveryTarget> {
    const secrets = secretsOf(config);
    if (deps.openTarget) return deps.openTarget(config, secrets);
    const delivery = settingsOf(config).delivery;
    if (delivery.kind === "local_directory") {
      if (deps.localRoot === null)
        throw new DeliveryError("local-directory delivery is not allowed (BANK_RAIL_LOCAL_ROOT unset)", "io");
      return openLocalTarget(
        deps.localRoot,
        { businessId: config.businessId, environment: config.environment },
        delivery.outboundDirectory,
        delivery.inboundDirectory,
      );
    }
    return openSftpTarget(sftpSettingsOf(delivery, secrets), deps.sftpPolicy);
  }

  const upload = jobHandler(BANK_UPLOAD_JOB, async ({ fileId }, context) => {
    const file = await findFileById(db, fileId);
    if (file === null) throw new PermanentJobError("bank file not found");
    if (file.status !== "built") {
      await context.completeWithin(db);
      return;
    }
    const tenant: Tenant = { businessId: file.businessId, environment: file.environment };
    // A plain read: no transaction is held while the server is contacted.
    const config = await findConfig(db, tenant, file.rail);
    let alreadyThere = false;
    try {
      if (config === null) throw new DeliveryError("the rail is no longer configured", "io");
      const target = await openTarget(config);
      try {
        const existing = await target.existing(file.fileName);
        if (existing === file.contentSha256) alreadyThere = true;
        else if (existing !== null) throw new DeliveryError(`another file named ${file.fileName} is on the server`, "io");
        else await target.put(file.fileName, cipher.decrypt(file.contentEncrypted));
      } finally {
        await target.close();
      }
    } catch (error) {
      // The Business reads `last_upload_error`: it gets the safe sentence, the log gets the cause.
      const failure = describeDeliveryFailure(error);
      await updateFile(db, file.id, {
        uploadAttempts: file.uploadAttempts + 1,
        lastUploadError: failure.shown,
        updatedAt: clock.now(),
      });
      logger.error(
        { business_id: file.businessId, file_id: file.id, kind: failure.kind },
        `bank file upload failed: ${failure.logged}`,
      );
      throw error;
    }
    if (deps.testOnlyPauseAfterUpload) await deps.testOnlyPauseAfterUpload({ id: file.id, fileName: file.fileName });
    await transaction(db, async (tx) => {
      const now = clock.now();
      await updateFile(tx, file.id, {
        status: "uploaded",
        uploadedAt: now,
        uploadAttempts: file.uploadAttempts + 1,
        lastUploadError: null,
        updatedAt: now,
      });
      // The bank answers in the inbound directory: reading it starts (or continues) with the next poll slot.
      await inbound.schedulePoll(tx, config, now);
      if (!(await context.completeWithin(tx))) throw new LeaseLostError();
    });
    logger.info({ business_id: file.businessId, file_id: file.id, already_there: alreadyThere }, "bank file uploaded");
  });

  return {
    scheduleNextCutoff,
    queue: { route, queue },
    handlers: { ...cutoff, ...upload, ...inbound.handlers } satisfies JobHandlers,
  };
}

/** File ID Modifiers in the order a day's files take them (NACHA: upper-case A-Z, then 0-9). */
const FILE_ID_MODIFIERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

function timeOf(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    hour: "2-digit",
    minute: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return `${get("hour")}:${get("minute")}`;
}
