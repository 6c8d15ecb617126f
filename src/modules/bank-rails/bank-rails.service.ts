// Use cases of the bank-rail configuration (per Business, production only) and the routing check payout
// creation runs in its own transaction.

import { electronicFormatIBAN, isSEPACountry, isValidIBAN } from "ibantools";
import ssh2 from "ssh2";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { noAudit, type RecordActorAudit, type ReportWeakenedControl } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { isTimeZone } from "../../platform/time-zone.js";
import { isSepaRepresentable, toSepaText } from "../../rails/bank-files/charset.js";
import { isAbaRoutingNumber, RESERVED_ENTRY_DESCRIPTIONS } from "../../rails/bank-files/nacha-writer.js";
import { readBankPublicKey, unlockPrivateKey } from "../../rails/bank-files/openpgp.js";
import type { PostalAddressValue } from "../beneficiaries/index.js";
import type { DestinationRoutingFacts } from "../destinations/index.js";
import { changedDeliveryTarget, describeTargetChange } from "./bank-rails.alerts.js";
import {
  type BankFileRow,
  type BankRailConfigRow,
  deleteConfig,
  findConfig,
  findFile,
  hasWaitingItems,
  listConfigs,
  listConfiguredRails,
  listFiles,
  listItemsOfFile,
  upsertConfig,
} from "./bank-rails.repo.js";
import { routePayout } from "./bank-rails.routing.js";
import type {
  BankFileBody,
  BankFileListQuery,
  BankRailBody,
  BankRailName,
  DeliveryInput,
  OpenPgpInput,
  PutAchBody,
  PutSepaBody,
} from "./bank-rails.schemas.js";

export const DEFAULT_STATUS_REPORT_TIMEOUT_HOURS = 24;
export const DEFAULT_ACH_ENTRY_DESCRIPTION = "PAYOUT";

/** What is stored in `settings` (nothing secret). */
export interface BankRailSettings {
  readonly originator: Record<string, unknown>;
  readonly fileFormat: "pain.001.001.09" | "pain.001.001.03" | "nacha";
  readonly cutoffTimes: readonly string[];
  readonly timeZone: string;
  readonly statusReportTimeoutHours: number;
  readonly delivery: {
    readonly kind: "sftp" | "local_directory";
    readonly host: string | null;
    readonly port: number | null;
    readonly username: string | null;
    readonly hostKeyFingerprint: string | null;
    readonly outboundDirectory: string;
    readonly inboundDirectory: string;
  };
  /** Absent or null: files travel unencrypted. */
  readonly openpgp?: BankRailPgpSettings | null;
}

/** What is stored encrypted. */
export interface BankRailSecrets {
  readonly password?: string;
  readonly privateKey?: string;
  /** The Business's OpenPGP private key, unlocked, armored. */
  readonly pgpPrivateKey?: string;
}

/** OpenPGP settings of a rail (public material only; the private key lives in the secrets). */
export interface BankRailPgpSettings {
  readonly bankPublicKey: string;
  readonly bankKeyFingerprint: string;
  readonly privateKeyFingerprint: string | null;
  readonly inbound: "plain" | "decrypt_and_verify";
}

export interface BankRailServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  /** BANK_RAIL_LOCAL_ROOT: where local-directory delivery may write; null forbids it. */
  readonly localRoot: string | null;
  /** Routing facts of destinations by id, one query for all (a bulk creation checks every row at once). */
  readonly destinationRoutingFactsOf: (
    tx: Tx,
    tenant: Tenant,
    destinationIds: readonly string[],
  ) => Promise<ReadonlyMap<string, DestinationRoutingFacts>>;
  /** Beneficiaries' postal addresses by id (a SEPA file carries them structured), one query for all. */
  readonly postalAddressesOf?: (
    tx: Tx,
    tenant: Tenant,
    beneficiaryIds: readonly string[],
  ) => Promise<ReadonlyMap<string, PostalAddressValue>>;
  readonly logger?: { info(object: object, message: string): void };
  /** The audit log (people module): rail configuration changes and reads of a file's bytes, in their transaction. */
  readonly recordAudit?: RecordActorAudit;
  /** A configured rail's delivery target changed: refused to keys, recorded, e-mailed to every admin (people module). */
  readonly reportWeakenedControl: ReportWeakenedControl;
}

export type BankRailService = ReturnType<typeof createBankRailService>;

function invalid(field: string, message: string, code = "invalid_format"): AppError {
  return new AppError("validation_failed", { details: [{ field, code, message }] });
}

export function presentBankRail(row: BankRailConfigRow): BankRailBody {
  const settings = row.settings as BankRailSettings & { hasPassword?: boolean; hasPrivateKey?: boolean };
  return {
    rail: row.rail as BankRailName,
    originator: settings.originator,
    file_format: settings.fileFormat,
    cutoff_times: [...settings.cutoffTimes],
    time_zone: settings.timeZone,
    status_report_timeout_hours: settings.statusReportTimeoutHours,
    delivery: {
      kind: settings.delivery.kind,
      host: settings.delivery.host,
      port: settings.delivery.port,
      username: settings.delivery.username,
      host_key_fingerprint: settings.delivery.hostKeyFingerprint,
      // Whether a secret is stored is known from markers kept in settings, so reads never decrypt.
      has_password: row.secretsEncrypted !== null && settings.hasPassword === true,
      has_private_key: row.secretsEncrypted !== null && settings.hasPrivateKey === true,
      outbound_directory: settings.delivery.outboundDirectory,
      inbound_directory: settings.delivery.inboundDirectory,
    },
    openpgp: settings.openpgp
      ? {
          bank_key_fingerprint: settings.openpgp.bankKeyFingerprint,
          has_private_key: settings.openpgp.privateKeyFingerprint !== null,
          private_key_fingerprint: settings.openpgp.privateKeyFingerprint,
          inbound: settings.openpgp.inbound,
        }
      : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentBankFile(row: BankFileRow): BankFileBody {
  return {
    id: row.id,
    rail: row.rail as BankRailName,
    file_name: row.fileName,
    message_id: row.messageId,
    format: row.format,
    cutoff_at: row.cutoffAt.toISOString(),
    entry_count: row.entryCount,
    control_sum_minor: row.controlSumMinor,
    currency: row.currency,
    status: row.status as BankFileBody["status"],
    created_at: row.createdAt.toISOString(),
    uploaded_at: row.uploadedAt?.toISOString() ?? null,
    acknowledged_at: row.acknowledgedAt?.toISOString() ?? null,
    upload_attempts: row.uploadAttempts,
    last_upload_error: row.lastUploadError,
    alerts: (row.alerts as string[] | null) ?? [],
  };
}

export function createBankRailService(deps: BankRailServiceDeps) {
  const recordAudit = deps.recordAudit ?? noAudit;
  const { db, clock, ids, cipher } = deps;

  function requireProduction(actor: Actor): void {
    if (actor.environment !== "production") {
      throw new AppError("forbidden", {
        message: "Bank rails are configured in production only; sandbox payouts always use the sandbox rail.",
      });
    }
  }

  function checkCommon(body: { time_zone: string; delivery: DeliveryInput }): void {
    if (!isTimeZone(body.time_zone)) throw invalid("time_zone", "Not an IANA time zone (for example Europe/Berlin).");
    if (body.delivery.kind === "local_directory" && deps.localRoot === null)
      throw new AppError("BANK_RAIL_LOCAL_DELIVERY_NOT_ALLOWED");
    if (body.delivery.kind === "sftp" && body.delivery.private_key !== undefined) {
      const parsed = ssh2.utils.parseKey(body.delivery.private_key);
      if (parsed instanceof Error || Array.isArray(parsed) || parsed.isPrivateKey() !== true) {
        throw invalid("delivery.private_key", "Not an unencrypted OpenSSH or PEM private key.");
      }
    }
  }

  /** The SFTP secrets to store: the ones sent, else (for the same delivery kind) the ones already stored. */
  function sftpSecretsFor(delivery: DeliveryInput, stored: BankRailSecrets | null): BankRailSecrets {
    if (delivery.kind !== "sftp") return {};
    if (delivery.password !== undefined || delivery.private_key !== undefined) {
      return {
        ...(delivery.password === undefined ? {} : { password: delivery.password }),
        ...(delivery.private_key === undefined ? {} : { privateKey: delivery.private_key }),
      };
    }
    if (stored?.password !== undefined || stored?.privateKey !== undefined) {
      return {
        ...(stored.password === undefined ? {} : { password: stored.password }),
        ...(stored.privateKey === undefined ? {} : { privateKey: stored.privateKey }),
      };
    }
    throw invalid(
      "delivery.password",
      "SFTP delivery needs a `password` or a `private_key` (write-only; kept when omitted later).",
      "required",
    );
  }

  /**
   * The OpenPGP settings and private key to store: keys are checked (and a protected private key unlocked)
   * before the transaction opens; a private key omitted later is kept.
   */
  async function pgpFor(
    input: OpenPgpInput | null | undefined,
  ): Promise<{ settings: BankRailPgpSettings | null; sentPrivateKey: { armored: string; fingerprint: string } | null }> {
    if (input === undefined || input === null) return { settings: null, sentPrivateKey: null };
    const bank = await readBankPublicKey(input.bank_public_key).catch((error: unknown) => {
      throw invalid("openpgp.bank_public_key", `Not usable: ${(error as Error).message}.`);
    });
    const sentPrivateKey =
      input.private_key === undefined
        ? null
        : await unlockPrivateKey(input.private_key, input.private_key_passphrase).catch((error: unknown) => {
            throw invalid("openpgp.private_key", `Not usable: ${(error as Error).message}.`);
          });
    return {
      settings: {
        bankPublicKey: input.bank_public_key,
        bankKeyFingerprint: bank.fingerprint,
        privateKeyFingerprint: sentPrivateKey?.fingerprint ?? null,
        inbound: input.inbound ?? "plain",
      },
      sentPrivateKey,
    };
  }

  function deliverySettings(delivery: DeliveryInput): BankRailSettings["delivery"] {
    if (delivery.kind === "sftp") {
      return {
        kind: "sftp",
        host: delivery.host,
        port: delivery.port ?? 22,
        username: delivery.username,
        hostKeyFingerprint: delivery.host_key_fingerprint,
        outboundDirectory: delivery.outbound_directory,
        inboundDirectory: delivery.inbound_directory,
      };
    }
    return {
      kind: "local_directory",
      host: null,
      port: null,
      username: null,
      hostKeyFingerprint: null,
      outboundDirectory: delivery.outbound_directory,
      inboundDirectory: delivery.inbound_directory,
    };
  }

  async function save(
    actor: Actor,
    rail: BankRailName,
    body: PutSepaBody | PutAchBody,
    originator: Record<string, unknown>,
    fileFormat: BankRailSettings["fileFormat"],
  ): Promise<{ rail: BankRailBody; created: boolean }> {
    const pgp = await pgpFor(body.openpgp);
    return transaction(db, async (tx) => {
      const existing = await findConfig(tx, actor, rail);
      const stored =
        existing?.secretsEncrypted == null ? null : (JSON.parse(cipher.decrypt(existing.secretsEncrypted)) as BankRailSecrets);
      const sftp = sftpSecretsFor(body.delivery, stored);
      // The private key: the one sent, else the one stored (while OpenPGP stays configured).
      const previousPgp = (existing?.settings as BankRailSettings | undefined)?.openpgp ?? null;
      const pgpPrivateKey =
        pgp.settings === null ? undefined : (pgp.sentPrivateKey?.armored ?? stored?.pgpPrivateKey ?? undefined);
      const pgpSettings =
        pgp.settings === null
          ? null
          : {
              ...pgp.settings,
              privateKeyFingerprint:
                pgp.sentPrivateKey?.fingerprint ??
                (pgpPrivateKey === undefined ? null : (previousPgp?.privateKeyFingerprint ?? null)),
            };
      if (pgpSettings?.inbound === "decrypt_and_verify" && pgpPrivateKey === undefined) {
        throw invalid("openpgp.private_key", "Decrypting the bank's files needs the Business's private key.", "required");
      }
      const secrets: BankRailSecrets | null =
        Object.keys(sftp).length === 0 && pgpPrivateKey === undefined
          ? null
          : { ...sftp, ...(pgpPrivateKey === undefined ? {} : { pgpPrivateKey }) };
      const settings: BankRailSettings & { hasPassword: boolean; hasPrivateKey: boolean } = {
        originator,
        fileFormat,
        cutoffTimes: [...body.cutoff_times].sort(),
        timeZone: body.time_zone,
        statusReportTimeoutHours: body.status_report_timeout_hours ?? DEFAULT_STATUS_REPORT_TIMEOUT_HOURS,
        delivery: deliverySettings(body.delivery),
        openpgp: pgpSettings,
        hasPassword: secrets?.password !== undefined,
        hasPrivateKey: secrets?.privateKey !== undefined,
      };
      const now = clock.now();
      const { row, created } = await upsertConfig(tx, {
        id: ids.newId(),
        businessId: actor.businessId,
        environment: actor.environment,
        rail,
        settings,
        secretsEncrypted: secrets === null ? null : cipher.encrypt(JSON.stringify(secrets)),
        createdAt: now,
        updatedAt: now,
      });
      await recordAudit(tx, actor, {
        action: "bank_rail_configured",
        subjectType: "bank_rail",
        subjectId: row.id,
        // Where payment files go (no secrets: only whether a password or key is held).
        details: {
          rail,
          created,
          file_format: fileFormat,
          delivery: settings.delivery,
          has_password: settings.hasPassword,
          has_private_key: settings.hasPrivateKey,
          cutoff_times: settings.cutoffTimes,
          time_zone: settings.timeZone,
        },
      });
      const previousTarget = (existing?.settings as BankRailSettings | undefined)?.delivery;
      const targetChanged = changedDeliveryTarget(previousTarget, settings.delivery);
      if (previousTarget !== undefined && targetChanged.length > 0) {
        await deps.reportWeakenedControl(tx, actor, {
          control: "bank_rail_delivery_target",
          subjectType: "bank_rail",
          subjectId: row.id,
          summary: describeTargetChange(rail, previousTarget, settings.delivery),
          details: { rail, changed: targetChanged, delivery: settings.delivery, previous_delivery: previousTarget },
        });
      }
      return { rail: presentBankRail(row), created };
    });
  }

  async function putSepa(actor: Actor, body: PutSepaBody) {
    requireProduction(actor);
    checkCommon(body);
    const iban = electronicFormatIBAN(body.originator.iban) ?? "";
    if (!isValidIBAN(iban)) throw invalid("originator.iban", "Not a valid IBAN.");
    if (!isSEPACountry(iban.slice(0, 2))) throw invalid("originator.iban", "The debtor account must be in the SEPA zone.");
    if (toSepaText(body.originator.name, 70) === "")
      throw invalid("originator.name", "The name has no character the SEPA character set can carry.");
    const originator = {
      name: body.originator.name,
      iban,
      bic: body.originator.bic ?? null,
      initiating_party_id: body.originator.initiating_party_id ?? null,
      address: body.originator.address ?? null,
    };
    return save(actor, "sepa", body, originator, body.file_format ?? "pain.001.001.09");
  }

  async function putAch(actor: Actor, body: PutAchBody) {
    requireProduction(actor);
    checkCommon(body);
    const o = body.originator;
    if (!isAbaRoutingNumber(o.odfi_routing_number))
      throw invalid("originator.odfi_routing_number", "The routing number's check digit is wrong.");
    if (!isAbaRoutingNumber(o.immediate_destination))
      throw invalid("originator.immediate_destination", "The routing number's check digit is wrong.");
    const description = (o.entry_description ?? DEFAULT_ACH_ENTRY_DESCRIPTION).trim();
    if ((RESERVED_ENTRY_DESCRIPTIONS as readonly string[]).includes(description)) {
      throw invalid(
        "originator.entry_description",
        `${description} is reserved by NACHA for its own use; set payout_purpose to payroll for wage payments.`,
      );
    }
    const originator = {
      odfi_routing_number: o.odfi_routing_number,
      immediate_destination: o.immediate_destination,
      immediate_destination_name: o.immediate_destination_name,
      immediate_origin: o.immediate_origin,
      immediate_origin_name: o.immediate_origin_name,
      company_name: o.company_name,
      company_identification: o.company_identification,
      payout_purpose: o.payout_purpose ?? "other",
      entry_description: (o.payout_purpose ?? "other") === "payroll" ? "PAYROLL" : description,
    };
    return save(actor, "ach", body, originator, "nacha");
  }

  async function list(actor: Actor): Promise<{ bank_rails: BankRailBody[] }> {
    const rows = await listConfigs(db, actor);
    return { bank_rails: rows.map(presentBankRail) };
  }

  async function get(actor: Actor, rail: BankRailName): Promise<BankRailBody> {
    const row = await findConfig(db, actor, rail);
    if (row === null) throw new AppError("not_found", { message: `No ${rail} rail is configured.` });
    return presentBankRail(row);
  }

  async function remove(actor: Actor, rail: BankRailName): Promise<void> {
    requireProduction(actor);
    await transaction(db, async (tx) => {
      if (await hasWaitingItems(tx, actor, rail)) throw new AppError("BANK_RAIL_IN_USE");
      const removed = await findConfig(tx, actor, rail);
      if (await deleteConfig(tx, actor, rail)) {
        await recordAudit(tx, actor, {
          action: "bank_rail_removed",
          subjectType: "bank_rail",
          subjectId: removed?.id ?? rail,
          details: { rail },
        });
      }
    });
  }

  /**
   * The routing check of payout creation, in the creating transaction, for every request of a creation at
   * once: per request, the AppError that refuses it, or null when a rail takes it. Sandbox payouts are not
   * routed (the sandbox rail takes them all). At most three queries whatever the number of requests: the
   * configured rails, the destinations' routing facts, and the postal addresses of SEPA-routed payees.
   */
  async function checkRoutes(
    tx: Tx,
    tenant: Tenant,
    requests: ReadonlyArray<{ readonly destinationId: string; readonly currency: string }>,
  ): Promise<Array<AppError | null>> {
    const none = () => requests.map(() => null);
    if (tenant.environment !== "production" || requests.length === 0) return none();
    const configured = new Set((await listConfiguredRails(tx, tenant)) as BankRailName[]);
    if (configured.size === 0) return none();
    const facts = await deps.destinationRoutingFactsOf(
      tx,
      tenant,
      requests.map((r) => r.destinationId),
    );
    const routes = requests.map(({ destinationId, currency }) => {
      const fact = facts.get(destinationId);
      // An unknown destination: the destination gates already refused it.
      return fact === undefined ? null : { fact, route: routePayout(currency, fact, configured) };
    });
    const sepaPayees = routes.flatMap((r) =>
      r !== null && "rail" in r.route && r.route.rail === "sepa" ? [r.fact.beneficiaryId] : [],
    );
    const addresses =
      sepaPayees.length === 0 || deps.postalAddressesOf === undefined
        ? null
        : await deps.postalAddressesOf(tx, tenant, sepaPayees);
    return routes.map((r) => {
      if (r === null) return null;
      if ("refused" in r.route) return new AppError("NO_RAIL_FOR_DESTINATION", { message: r.route.reason });
      if (r.route.rail === "sepa")
        return sepaPayability(r.fact, addresses === null ? undefined : (addresses.get(r.fact.beneficiaryId) ?? null));
      return null;
    });
  }

  /** One request's routing check (see checkRoutes). */
  async function checkRoute(tx: Tx, tenant: Tenant, destinationId: string, currency: string): Promise<AppError | null> {
    const [refusal] = await checkRoutes(tx, tenant, [{ destinationId, currency }]);
    return refusal ?? null;
  }

  /**
   * What a SEPA file needs of the payee: a Latin-script name and a structured address (town and country).
   * `address` undefined: addresses are not checked (no reader wired in).
   */
  function sepaPayability(facts: DestinationRoutingFacts, address: PostalAddressValue | null | undefined): AppError | null {
    if (!isSepaRepresentable(facts.accountHolderName)) return new AppError("SEPA_NAME_NOT_REPRESENTABLE");
    if (address === undefined) return null;
    const missing: string[] = [];
    if (!address || !isSepaRepresentable(address.city ?? "")) missing.push("postal_address.city");
    if (!address || !/^[A-Z]{2}$/.test(address.country ?? "")) missing.push("postal_address.country");
    if (missing.length === 0) return null;
    return new AppError("SEPA_ADDRESS_NOT_STRUCTURED", {
      message: `SEPA payments need the Beneficiary's address structured; missing: ${missing.join(", ")}. Complete the Beneficiary (PUT /v1/beneficiaries/{id}, or a collection link) and create the payout again.`,
      details: missing.map((field) => ({
        field,
        code: "required",
        message: `${field} is needed to pay this Beneficiary by SEPA.`,
      })),
    });
  }

  /** The rail a production payout goes to (`simulator` when none of the Business's bank rails takes it). */
  async function railFor(tx: Tx, tenant: Tenant, destinationId: string, currency: string): Promise<BankRailName | "simulator"> {
    if (tenant.environment !== "production") return "simulator";
    const configured = new Set((await listConfiguredRails(tx, tenant)) as BankRailName[]);
    if (configured.size === 0) return "simulator";
    const facts = (await deps.destinationRoutingFactsOf(tx, tenant, [destinationId])).get(destinationId);
    if (facts === undefined) return "simulator";
    const route = routePayout(currency, facts, configured);
    return "refused" in route ? "simulator" : route.rail;
  }

  async function listFilesOf(
    actor: Actor,
    query: BankFileListQuery,
  ): Promise<{ bank_files: BankFileBody[]; next_cursor: string | null }> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await listFiles(db, actor, limit + 1, decodeCursor(query.cursor));
    const page = toPage(rows, limit);
    return { bank_files: page.items.map(presentBankFile), next_cursor: page.nextCursor };
  }

  async function getFile(actor: Actor, id: string) {
    const file = await findFile(db, actor, id);
    if (file === null) throw new AppError("not_found", { message: "No such bank file." });
    const items = await listItemsOfFile(db, file.id);
    return {
      bank_file: presentBankFile(file),
      payouts: items.map((item) => ({
        payout_id: item.payoutId,
        amount_minor: item.amountMinor,
        reference: item.reference,
        bank_status: item.bankStatus,
      })),
    };
  }

  /** The exact bytes sent to the bank (admin only; logged with the key or session that read them). */
  async function fileContent(actor: Actor, id: string): Promise<{ fileName: string; contentType: string; content: string }> {
    // The read itself is recorded (who, when, from where), in a transaction of its own with the lookup.
    const file = await transaction(db, async (tx) => {
      const found = await findFile(tx, actor, id);
      if (found === null) throw new AppError("not_found", { message: "No such bank file." });
      await recordAudit(tx, actor, {
        action: "bank_file_content_read",
        subjectType: "bank_file",
        subjectId: found.id,
        details: { rail: found.rail, file_name: found.fileName },
      });
      return found;
    });
    deps.logger?.info(
      {
        business_id: actor.businessId,
        api_key_id: actor.apiKeyId,
        session_id: actor.sessionId,
        membership_id: actor.membershipId,
        bank_file_id: file.id,
      },
      "bank file content read",
    );
    return {
      fileName: file.fileName,
      contentType: file.rail === "sepa" ? "application/xml" : "text/plain",
      content: cipher.decrypt(file.contentEncrypted),
    };
  }

  return { putSepa, putAch, list, get, remove, checkRoute, checkRoutes, railFor, listFiles: listFilesOf, getFile, fileContent };
}
