// Use cases of the bank-rail configuration (per Business, production only) and the routing check payout
// creation runs in its own transaction.

import { electronicFormatIBAN, isSEPACountry, isValidIBAN } from "ibantools";
import ssh2 from "ssh2";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import type { RecordActorAudit, ReportWeakenedControl } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { isUniqueViolation } from "../../platform/db/errors.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import { maskTrailing } from "../../platform/masking.js";
import { canonicalHost, checkHost, type TargetPolicy, UnsafeUrlError } from "../../platform/outbound-http/url-safety.js";
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { isTimeZone } from "../../platform/time-zone.js";
import { toSepaText } from "../../rails/bank-files/charset.js";
import { isAbaRoutingNumber, RESERVED_ENTRY_DESCRIPTIONS } from "../../rails/bank-files/nacha-writer.js";
import { readBankPublicKey, unlockPrivateKey } from "../../rails/bank-files/openpgp.js";
import type { PostalAddressValue } from "../beneficiaries/index.js";
import { describeTargetChange } from "./bank-rails.alerts.js";
import { type ConnectionStep, testLocalFolders, testSftpConnection } from "./bank-rails.connection-test.js";
import { sftpSettingsOf } from "./bank-rails.delivery.js";
import { BANK_RAIL_ERRORS } from "./bank-rails.errors.js";
import type { OpenRailFundingAccount } from "./bank-rails.ports.js";
import {
  type BankFileRow,
  type BankRailConfigRow,
  DEBTOR_ACCOUNT_KEY_INDEX,
  deleteConfig,
  findConfig,
  findDebtorAccountOwner,
  findFile,
  hasWaitingItems,
  listConfigs,
  listFiles,
  listItemsOfFile,
  upsertConfig,
} from "./bank-rails.repo.js";
import { configuredRailsOf, type RoutingFactsOf, routeRequests } from "./bank-rails.route-lookup.js";
import { type FileAccountFacts, fileRefusal, refusalError, routePayout } from "./bank-rails.routing.js";
import type {
  BankFileBody,
  BankFileListQuery,
  BankRailBody,
  BankRailName,
  ConnectionTestBody,
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
  /** The outbound address rules an SFTP host is held to when it is configured (and again at every connection). */
  readonly sftpPolicy: TargetPolicy;
  /** Routing facts of destinations by id, one query for all (a bulk creation checks every row at once). */
  readonly destinationRoutingFactsOf: RoutingFactsOf;
  /** Beneficiaries' postal addresses by id (a SEPA file carries them structured), one query for all. */
  readonly postalAddressesOf: (
    tx: Tx,
    tenant: Tenant,
    beneficiaryIds: readonly string[],
  ) => Promise<ReadonlyMap<string, PostalAddressValue>>;
  readonly logger?: { info(object: object, message: string): void };
  /** The audit log (people module): rail configuration changes and reads of a file's bytes, in their transaction. */
  readonly recordAudit: RecordActorAudit;
  /** The funding module's account for the rail's debtor account (ports). */
  readonly openFundingAccount: OpenRailFundingAccount;
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

/** The fields of a delivery target a stored password or private key is bound to. */
const CREDENTIAL_BINDING = ["kind", "host", "port", "username", "host_key_fingerprint"] as const;

/** What changed in where a rail's files go (and come from) between two configurations. */
export interface DeliveryTargetChange {
  /** Every changed field (snake_case, as the API names them); empty when the target is the same. */
  readonly fields: readonly string[];
  /** A field the SFTP credentials are bound to changed: stored ones are dropped unless sent again. */
  readonly rebindsCredentials: boolean;
}

/**
 * Compares the delivery target before and after a PUT (`before` null: the rail is new). Host names are
 * compared as stored (lower-cased, canonical) and fingerprints without `=` padding. A changed target is a
 * control change: the audit entry carries these fields, and the admins' notice (reportWeakenedControl) follows `fields.length > 0`.
 */
export function deliveryTargetChange(
  before: BankRailSettings["delivery"] | null,
  after: BankRailSettings["delivery"],
): DeliveryTargetChange {
  const view = (d: BankRailSettings["delivery"] | null) => ({
    kind: d?.kind ?? null,
    host: d?.host ?? null,
    port: d?.port ?? null,
    username: d?.username ?? null,
    host_key_fingerprint: d?.hostKeyFingerprint?.replace(/=+$/, "") ?? null,
    outbound_directory: d?.outboundDirectory ?? null,
    inbound_directory: d?.inboundDirectory ?? null,
  });
  const a = view(before);
  const b = view(after);
  const fields = (Object.keys(b) as Array<keyof typeof b>).filter((field) => a[field] !== b[field]);
  return {
    fields,
    rebindsCredentials: fields.some((field) => (CREDENTIAL_BINDING as readonly string[]).includes(field)),
  };
}

/**
 * The debtor account a rail's files debit, as one key per environment: the IBAN for SEPA; for ACH the ODFI
 * routing number with the Company Identification (the originator as its bank knows it: the files of two
 * Businesses with the same pair would be the same originator's). One Business per environment may hold it.
 */
export function debtorAccountKey(rail: BankRailName, originator: Record<string, unknown>): string {
  return rail === "sepa"
    ? `sepa:${String(originator.iban)}`
    : `ach:${String(originator.odfi_routing_number)}:${String(originator.company_identification)}`;
}

export function createBankRailService(deps: BankRailServiceDeps) {
  const { db, clock, ids, cipher, recordAudit } = deps;

  function requireProduction(actor: Actor): void {
    if (actor.environment !== "production") {
      throw new AppError("forbidden", {
        message: "Bank rails are configured in production only; sandbox payouts always use the sandbox rail.",
      });
    }
  }

  function checkCommon(body: { time_zone: string; delivery: DeliveryInput }): void {
    if (!isTimeZone(body.time_zone))
      throw invalid(
        "time_zone",
        `${JSON.stringify(body.time_zone)} is not an IANA time zone: expected a name such as Europe/Berlin or America/New_York.`,
      );
    if (body.delivery.kind === "local_directory" && deps.localRoot === null)
      throw new AppError(BANK_RAIL_ERRORS.BANK_RAIL_LOCAL_DELIVERY_NOT_ALLOWED);
    if (body.delivery.kind === "sftp" && body.delivery.private_key !== undefined) {
      const parsed = ssh2.utils.parseKey(body.delivery.private_key);
      if (parsed instanceof Error || Array.isArray(parsed) || parsed.isPrivateKey() !== true) {
        throw invalid(
          "delivery.private_key",
          "Not an unencrypted OpenSSH or PEM private key: expected the whole key file, from its -----BEGIN line to its -----END line, without a passphrase.",
        );
      }
    }
  }

  /**
   * The SFTP host in canonical form (the WHATWG host parser: `0x7f.1` is `127.0.0.1`, names lower-cased),
   * held to the outbound address rules before anything is stored: a non-public literal, or a name resolving
   * to any non-public address, is refused unless the operator allows private hosts. A name that does not
   * resolve now is accepted: nothing is connected to at configuration (a test connection would send the
   * credential to a server not yet trusted and would tell open ports from closed ones), and every connection
   * checks the address again.
   */
  async function checkedSftpHost(raw: string): Promise<string> {
    let host: string;
    try {
      host = canonicalHost(raw);
    } catch (error) {
      throw invalid("delivery.host", (error as Error).message);
    }
    try {
      await checkHost(host, deps.sftpPolicy);
    } catch (error) {
      if (!(error instanceof UnsafeUrlError)) throw error;
      if (error.reason === "not_public")
        throw new AppError(BANK_RAIL_ERRORS.BANK_RAIL_HOST_NOT_PUBLIC, {
          message: `${error.message} Use the bank's public SFTP host; for a bank reached over a private link (or local development), the operator can allow private hosts by starting the service with BANK_RAIL_ALLOW_PRIVATE_HOSTS=true.`,
        });
      // unresolvable: accepted (see above).
    }
    return host;
  }

  /**
   * The SFTP secrets to store. Credentials stay bound to where they were given: the ones sent are stored;
   * else the stored ones are kept only while the target they were given for (kind, host, port, username, host
   * key) is unchanged, and dropped when it changed, so a new server never receives the old password. The
   * rail then has none (`has_password` false) and uploads stop with `missing_credentials` until they are
   * sent again. A rail that had no SFTP delivery before must be given one.
   */
  function sftpSecretsFor(
    delivery: DeliveryInput,
    stored: BankRailSecrets | null,
    previous: BankRailSettings["delivery"] | null,
    change: DeliveryTargetChange,
  ): BankRailSecrets {
    if (delivery.kind !== "sftp") return {};
    if (delivery.password !== undefined || delivery.private_key !== undefined) {
      return {
        ...(delivery.password === undefined ? {} : { password: delivery.password }),
        ...(delivery.private_key === undefined ? {} : { privateKey: delivery.private_key }),
      };
    }
    if (previous?.kind !== "sftp") {
      throw invalid(
        "delivery.password",
        "SFTP delivery needs a `password` or a `private_key` (write-only; kept when omitted later while host, port, username and host key stay the same).",
        "required",
      );
    }
    if (change.rebindsCredentials) return {};
    return {
      ...(stored?.password === undefined ? {} : { password: stored.password }),
      ...(stored?.privateKey === undefined ? {} : { privateKey: stored.privateKey }),
    };
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

  async function deliverySettings(delivery: DeliveryInput): Promise<BankRailSettings["delivery"]> {
    if (delivery.kind === "sftp") {
      return {
        kind: "sftp",
        host: await checkedSftpHost(delivery.host),
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
    // Resolves the SFTP host (DNS): before the transaction opens.
    const delivery = await deliverySettings(body.delivery);
    const debtorKey = debtorAccountKey(rail, originator);
    const saved = transaction(db, async (tx) => {
      const existing = await findConfig(tx, actor, rail, { lock: true });
      const previous = (existing?.settings as BankRailSettings | undefined)?.delivery ?? null;
      const change = deliveryTargetChange(previous, delivery);
      const stored =
        existing?.secretsEncrypted == null ? null : (JSON.parse(cipher.decrypt(existing.secretsEncrypted)) as BankRailSecrets);
      const sftp = sftpSecretsFor(body.delivery, stored, previous, change);
      const credentialsDropped =
        (stored?.password !== undefined || stored?.privateKey !== undefined) &&
        sftp.password === undefined &&
        sftp.privateKey === undefined;
      // One debtor account, one Business per environment (a unique index backs this check under a race).
      const owner = await findDebtorAccountOwner(tx, actor.environment, debtorKey);
      if (owner !== null && owner !== actor.businessId) throw new AppError(BANK_RAIL_ERRORS.BANK_RAIL_DEBTOR_ACCOUNT_TAKEN);
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
        delivery,
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
        debtorAccountKey: debtorKey,
        secretsEncrypted: secrets === null ? null : cipher.encrypt(JSON.stringify(secrets)),
        createdAt: now,
        updatedAt: now,
      });
      // The money this rail pays from: its debtor account's funding account (SEPA pays EUR, ACH USD).
      await deps.openFundingAccount(tx, actor, {
        rail,
        currency: rail === "sepa" ? "EUR" : "USD",
        accountIdentifierMasked: `****${maskTrailing(debtorKey.slice(debtorKey.indexOf(":") + 1))}`,
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
          // Where files go changed (a control change: reported to the admins below), and whether the stored
          // SFTP credentials were dropped because of it.
          delivery_target_changed: created ? [] : change.fields,
          credentials_dropped: credentialsDropped,
        },
      });
      // A configured rail's files now go elsewhere: refused to keys, recorded and e-mailed to every admin.
      if (previous !== null && change.fields.length > 0) {
        await deps.reportWeakenedControl(tx, actor, {
          control: "bank_rail_delivery_target",
          subjectType: "bank_rail",
          subjectId: row.id,
          summary: describeTargetChange(rail, previous, settings.delivery),
          details: { rail, changed: change.fields, delivery: settings.delivery, previous_delivery: previous },
        });
      }
      return { rail: presentBankRail(row), created };
    });
    try {
      return await saved;
    } catch (error) {
      // The loser of two concurrent PUTs naming one account: the check above saw nothing yet, the index did.
      if (isUniqueViolation(error, DEBTOR_ACCOUNT_KEY_INDEX)) throw new AppError(BANK_RAIL_ERRORS.BANK_RAIL_DEBTOR_ACCOUNT_TAKEN);
      throw error;
    }
  }

  async function putSepa(actor: Actor, body: PutSepaBody) {
    requireProduction(actor);
    checkCommon(body);
    const iban = electronicFormatIBAN(body.originator.iban) ?? "";
    if (!isValidIBAN(iban))
      throw invalid(
        "originator.iban",
        "Not a valid IBAN: expected the debtor account's IBAN as the bank wrote it (country code, check digits, account), e.g. DE89 3704 0044 0532 0130 00.",
      );
    if (!isSEPACountry(iban.slice(0, 2)))
      throw invalid(
        "originator.iban",
        `The debtor account must be in the SEPA zone: ${iban.slice(0, 2)} is not a SEPA country; use an IBAN of a SEPA country (e.g. DE, FR, NL).`,
      );
    if (toSepaText(body.originator.name, 70) === "")
      throw invalid(
        "originator.name",
        "The name has no character the SEPA character set can carry: expected Latin letters, digits or the punctuation / - ? : ( ) . , ' +.",
      );
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
      throw invalid(
        "originator.odfi_routing_number",
        "The routing number's check digit is wrong: expected the 9-digit ABA routing number exactly as the bank gives it.",
      );
    if (!isAbaRoutingNumber(o.immediate_destination))
      throw invalid(
        "originator.immediate_destination",
        "The routing number's check digit is wrong: expected the 9-digit ABA routing number exactly as the bank gives it.",
      );
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
      ...(o.account_number === undefined ? {} : { account_number: o.account_number }),
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
      if (await hasWaitingItems(tx, actor, rail)) throw new AppError(BANK_RAIL_ERRORS.BANK_RAIL_IN_USE);
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
   * once: per request, the AppError that refuses it, or null when a rail takes it and its file can carry it
   * (fileRefusal: name, address, BIC, amount and reference, each within its field after transliteration).
   * Sandbox payouts are not routed (the sandbox rail takes them all). At most three queries whatever the
   * number of requests: the configured rails, the destinations' routing facts, and the postal addresses of
   * SEPA-routed payees. A request without an amount (a collection submission) is checked for what the
   * account and the address must be.
   */
  async function checkRoutes(
    tx: Tx,
    tenant: Tenant,
    requests: ReadonlyArray<{
      readonly destinationId: string;
      readonly currency: string;
      readonly amountMinor?: number;
      readonly externalRef?: string | null;
    }>,
  ): Promise<Array<AppError | null>> {
    const routing = await routeRequests(tx, tenant, requests, deps.destinationRoutingFactsOf);
    if (routing === null) return requests.map(() => null);
    const sepaPayees = routing.routed.flatMap((r) =>
      r !== null && "rail" in r.route && r.route.rail === "sepa" ? [r.destination.beneficiaryId] : [],
    );
    const addresses = sepaPayees.length === 0 ? null : await deps.postalAddressesOf(tx, tenant, sepaPayees);
    return routing.routed.map((r, i) => {
      // An unknown destination: the destination gates already refused it.
      if (r === null) return null;
      if ("refused" in r.route) return refusalError(r.route);
      if (r.route.rail === "simulator") return null;
      const request = requests[i];
      return fileRefusal(r.route.rail, {
        account: r.destination,
        address: addresses === null ? undefined : (addresses.get(r.destination.beneficiaryId) ?? null),
        payout:
          request?.amountMinor === undefined
            ? undefined
            : { amountMinor: request.amountMinor, externalRef: request.externalRef ?? null },
        sepaFormat: routing.sepaFormat,
        accountField: "bank_account.",
      });
    });
  }

  /** One request's routing check (see checkRoutes). */
  async function checkRoute(tx: Tx, tenant: Tenant, destinationId: string, currency: string): Promise<AppError | null> {
    const [refusal] = await checkRoutes(tx, tenant, [{ destinationId, currency }]);
    return refusal ?? null;
  }

  /**
   * For account registration, before the account is written: what the file of the bank rail that would pay
   * it (a production payout in the account's currency) cannot carry of the account itself: the BIC SEPA needs
   * outside the EEA, the holder's name in the rail's character set and length. Null when no configured rail
   * would carry it (sandbox, no bank rail, another currency: payout creation decides those).
   */
  async function checkAccount(
    tx: Tx,
    tenant: Tenant,
    account: FileAccountFacts & { currency: string },
  ): Promise<AppError | null> {
    if (account.kind !== "bank_account") return null;
    const rails = await configuredRailsOf(tx, tenant);
    if (rails === null) return null;
    const route = routePayout(account.currency, account, rails.configured);
    if ("refused" in route || route.rail === "simulator") return null;
    return fileRefusal(route.rail, { account, sepaFormat: rails.sepaFormat });
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

  /**
   * "Test connection": the stored configuration's server, host key, login and both directories, without
   * sending, renaming or reading any file. The configuration is read without a transaction, the server is
   * contacted with none open, and the outcome (never a secret) is recorded in the audit log afterwards.
   */
  async function testConnection(actor: Actor, rail: BankRailName): Promise<ConnectionTestBody> {
    requireProduction(actor);
    const row = await findConfig(db, actor, rail);
    if (row === null) throw new AppError("not_found", { message: `No ${rail} rail is configured: save it first.` });
    const settings = row.settings as BankRailSettings;
    const delivery = settings.delivery;
    let steps: ConnectionStep[];
    if (delivery.kind === "local_directory") {
      steps = await testLocalFolders(deps.localRoot, actor, delivery.outboundDirectory, delivery.inboundDirectory);
    } else {
      const secrets =
        row.secretsEncrypted === null ? null : (JSON.parse(cipher.decrypt(row.secretsEncrypted)) as BankRailSecrets);
      steps = await testSftpConnection(sftpSettingsOf(delivery, secrets), deps.sftpPolicy);
    }
    const failed = steps.find((step) => step.status === "failed");
    const testedAt = clock.now();
    await transaction(db, async (tx) => {
      await recordAudit(tx, actor, {
        action: "bank_rail_connection_tested",
        subjectType: "bank_rail",
        subjectId: row.id,
        details: { rail, kind: delivery.kind, ok: failed === undefined, failed_step: failed?.step ?? null },
      });
    });
    return {
      rail,
      ok: failed === undefined,
      tested_at: testedAt.toISOString(),
      summary:
        failed === undefined
          ? delivery.kind === "sftp"
            ? "Connected, logged in and listed both directories. Nothing was sent."
            : "Both folders are usable. Nothing was written."
          : failed.message,
      steps,
    };
  }

  return {
    testConnection,
    putSepa,
    putAch,
    list,
    get,
    remove,
    checkRoute,
    checkRoutes,
    checkAccount,
    listFiles: listFilesOf,
    getFile,
    fileContent,
  };
}
