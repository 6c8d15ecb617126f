// Use cases of the bank-rail configuration (per Business, production only) and the routing check payout
// creation runs in its own transaction.
import { electronicFormatIBAN, isSEPACountry, isValidIBAN } from "ibantools";
import ssh2 from "ssh2";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { isSepaRepresentable, toSepaText } from "../../rails/bank-files/charset.js";
import { isAbaRoutingNumber, RESERVED_ENTRY_DESCRIPTIONS } from "../../rails/bank-files/nacha-writer.js";
import type { PostalAddressValue } from "../beneficiaries/index.js";
import type { DestinationRoutingFacts } from "../destinations/index.js";
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
}

/** What is stored encrypted. */
export interface BankRailSecrets {
  readonly password?: string;
  readonly privateKey?: string;
}

export interface BankRailServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  /** BANK_RAIL_LOCAL_ROOT: where local-directory delivery may write; null forbids it. */
  readonly localRoot: string | null;
  readonly destinationRoutingFacts: (tx: Tx, tenant: Tenant, destinationId: string) => Promise<DestinationRoutingFacts | null>;
  /** The Beneficiary's postal address (a SEPA file carries it structured), inside the caller's transaction. */
  readonly postalAddressOf?: (tx: Tx, tenant: Tenant, beneficiaryId: string) => Promise<PostalAddressValue | null>;
  readonly logger?: { info(object: object, message: string): void };
}

export type BankRailService = ReturnType<typeof createBankRailService>;

function invalid(field: string, message: string, code = "invalid_format"): AppError {
  return new AppError("validation_failed", { details: [{ field, code, message }] });
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
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
  const { db, clock, ids, cipher } = deps;

  function requireProduction(actor: Actor): void {
    if (actor.environment !== "production") {
      throw new AppError("forbidden", {
        message: "Bank rails are configured in production only; sandbox payouts always use the sandbox rail.",
      });
    }
  }

  function checkCommon(body: { time_zone: string; delivery: DeliveryInput }): void {
    if (!isValidTimeZone(body.time_zone)) throw invalid("time_zone", "Not an IANA time zone (for example Europe/Berlin).");
    if (body.delivery.kind === "local_directory" && deps.localRoot === null)
      throw new AppError("BANK_RAIL_LOCAL_DELIVERY_NOT_ALLOWED");
    if (body.delivery.kind === "sftp" && body.delivery.private_key !== undefined) {
      const parsed = ssh2.utils.parseKey(body.delivery.private_key);
      if (parsed instanceof Error || Array.isArray(parsed) || parsed.isPrivateKey() !== true) {
        throw invalid("delivery.private_key", "Not an unencrypted OpenSSH or PEM private key.");
      }
    }
  }

  /** The secrets to store: the ones sent, else (for the same delivery kind) the ones already stored. */
  function secretsFor(delivery: DeliveryInput, existing: BankRailConfigRow | null): BankRailSecrets | null {
    if (delivery.kind !== "sftp") return null;
    if (delivery.password !== undefined || delivery.private_key !== undefined) {
      return {
        ...(delivery.password === undefined ? {} : { password: delivery.password }),
        ...(delivery.private_key === undefined ? {} : { privateKey: delivery.private_key }),
      };
    }
    if (existing?.secretsEncrypted) return JSON.parse(cipher.decrypt(existing.secretsEncrypted)) as BankRailSecrets;
    throw invalid(
      "delivery.password",
      "SFTP delivery needs a `password` or a `private_key` (write-only; kept when omitted later).",
      "required",
    );
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
    return transaction(db, async (tx) => {
      const existing = await findConfig(tx, actor, rail);
      const secrets = secretsFor(body.delivery, existing);
      const settings: BankRailSettings & { hasPassword: boolean; hasPrivateKey: boolean } = {
        originator,
        fileFormat,
        cutoffTimes: [...body.cutoff_times].sort(),
        timeZone: body.time_zone,
        statusReportTimeoutHours: body.status_report_timeout_hours ?? DEFAULT_STATUS_REPORT_TIMEOUT_HOURS,
        delivery: deliverySettings(body.delivery),
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
      await deleteConfig(tx, actor, rail);
    });
  }

  /**
   * The routing check of payout creation, in the creating transaction: the rail a production payout will
   * use, or the AppError that refuses it. Sandbox payouts are not routed (the sandbox rail takes them all).
   */
  async function checkRoute(tx: Tx, tenant: Tenant, destinationId: string, currency: string): Promise<AppError | null> {
    if (tenant.environment !== "production") return null;
    const configured = new Set((await listConfiguredRails(tx, tenant)) as BankRailName[]);
    if (configured.size === 0) return null;
    const facts = await deps.destinationRoutingFacts(tx, tenant, destinationId);
    if (facts === null) return null; // the destination gates already refused an unknown destination
    const route = routePayout(currency, facts, configured);
    if ("refused" in route) return new AppError("NO_RAIL_FOR_DESTINATION", { message: route.reason });
    if (route.rail === "sepa") return sepaPayability(tx, tenant, facts);
    return null;
  }

  /** What a SEPA file needs of the payee: a Latin-script name and a structured address (town and country). */
  async function sepaPayability(tx: Tx, tenant: Tenant, facts: DestinationRoutingFacts): Promise<AppError | null> {
    if (!isSepaRepresentable(facts.accountHolderName)) return new AppError("SEPA_NAME_NOT_REPRESENTABLE");
    if (deps.postalAddressOf === undefined) return null;
    const address = await deps.postalAddressOf(tx, tenant, facts.beneficiaryId);
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
    const facts = await deps.destinationRoutingFacts(tx, tenant, destinationId);
    if (facts === null) return "simulator";
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
    const file = await findFile(db, actor, id);
    if (file === null) throw new AppError("not_found", { message: "No such bank file." });
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

  return { putSepa, putAch, list, get, remove, checkRoute, railFor, listFiles: listFilesOf, getFile, fileContent };
}
