// Use cases of destinations: register a bank account or a card, list, delete, and set the declared
// destination. Each owns its transaction; events and e-mails are written in that same transaction (a change of
// the declared destination goes through the beneficiaries module's changeDeclaredDestination, which also
// records who made it and queues the Beneficiary's notice).

import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { ControlChangeApplier, GuardWeakening, PendingControlChange, RecordActorAudit } from "../../platform/auth/audit.js";
import { isSameMaker } from "../../platform/auth/maker-checker.js";
import { canonicalJson } from "../../platform/canonical-json.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { isUniqueViolation } from "../../platform/db/errors.js";
import { AppError, type ErrorDetail } from "../../platform/errors.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import type { IdGenerator } from "../../platform/ids.js";
import { MASK_VERSION } from "../../platform/masking.js";
import { BENEFICIARY_ERRORS } from "../beneficiaries/beneficiaries.errors.js";
import { findBeneficiary, lockBeneficiary } from "../beneficiaries/beneficiaries.shared.js";
import type { BeneficiaryBody, BeneficiaryRow, BeneficiaryService } from "../beneficiaries/index.js";
import { DESTINATION_ERRORS } from "./destinations.errors.js";
import type { NameCheckRequests } from "./destinations.name-check.js";
import {
  anyDestinationToRemask,
  correctDestination,
  type DestinationPolicyRow,
  type DestinationRow,
  decideDestinationApproval,
  findDestination,
  findLiveByFingerprint,
  insertDestination,
  listLiveDestinations,
  listPendingApproval,
  lockDestinationPolicy,
  lockDestinationsToRemask,
  lockLiveDestination,
  markDestinationDeleted,
  type NewDestinationRow,
  restartDestinationCoolingOff,
  saveRemaskedDestinations,
  upsertDestinationPolicy,
} from "./destinations.repo.js";
import { bicMatchesIbanCountry } from "./destinations.routing.js";
import type { NotificationOfChange } from "./destinations.schema.js";
import type {
  DeclaredDestinationBody,
  DestinationBody,
  DestinationDecisionBody,
  DestinationPolicyBody,
  PutDestinationPolicyBody,
  RegisterBankAccountBody,
  RegisterCardBody,
} from "./destinations.schemas.js";
import {
  approvalFieldsFor,
  DEFAULT_DESTINATION_POLICY,
  type DestinationAddedBy,
  type DestinationPolicy,
  destinationAddedByActor,
  destinationPolicyWeakens,
  findDestinationPolicy,
  hasUsableDetails,
} from "./destinations.shared.js";
import { isSepaCountry } from "./validation/iban-bic.js";
import {
  type BankDetailsInput,
  maskStoredDestination,
  type PixKeyType,
  type StoredSensitiveValues,
  validateBankDetails,
  validateCard,
} from "./validation/index.js";

export interface DestinationServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  readonly events: EventRecorder;
  readonly presentBeneficiary: (found: { row: BeneficiaryRow; payoutUsableDestinations: number }) => BeneficiaryBody;
  /** The one path that sets, changes or clears a declared destination (and tells the Beneficiary). */
  readonly changeDeclaredDestination: BeneficiaryService["changeDeclaredDestination"];
  /** Enrolls the Beneficiary with the payout rail after a destination registration committed. */
  readonly enrollAfterCommit?: (tenant: Tenant, beneficiaryId: string) => Promise<void>;
  /**
   * Injected from the bank-rails module: what the file of the Business's bank rail that would pay this account
   * cannot carry of it (the BIC SEPA needs outside the EEA, the holder's name in the file's character set and
   * length), checked before the account is written. Null: nothing refuses it here.
   */
  readonly checkBankRailAccount: (tx: Tx, tenant: Tenant, account: BankRailAccountFacts) => Promise<AppError | null>;
  /** Injected by the payouts module (spec: Rules tied to states 2): a pending payout blocks deletion. */
  readonly pendingPayoutHeadsTo: (tx: Tx, tenant: Tenant, destinationId: string) => Promise<boolean>;
  /** The audit log (people module, a port passed in src/composition.ts): every account added or removed is recorded with its actor. */
  readonly recordAudit: RecordActorAudit;
  /** Queues the payee name check of destinations written in the transaction (destinations.name-check.ts). */
  readonly nameChecks: NameCheckRequests;
  /**
   * Control-changes module: a relaxed destination policy waits for a second admin when maker-checker is on;
   * otherwise it is refused to API keys, audited and e-mailed to every admin, and applied.
   */
  readonly guardWeakening: GuardWeakening;
  /** The policy's `screening` went from off to on in this transaction: the Business's Beneficiaries are screened (a job). */
  readonly screenAfterEnabled: (tx: Tx, tenant: Tenant) => Promise<string | null>;
}

/** What the audit log keeps of a destination: where it is and its masked last four, never the number. */
export function auditedDestination(row: DestinationRow): Record<string, unknown> {
  return {
    beneficiary_id: row.beneficiaryId,
    kind: row.kind,
    country: row.country,
    currency: row.currency,
    last4: row.last4,
  };
}

export type DestinationService = ReturnType<typeof createDestinationService>;

/** What the bank-rails check needs of an account about to be registered. */
export interface BankRailAccountFacts {
  readonly kind: "bank_account" | "card";
  readonly scheme: string;
  readonly country: string;
  readonly currency: string;
  readonly sepaZone: boolean;
  readonly accountHolderName: string;
  readonly swiftBic: string | null;
  readonly bicMatchesIban: boolean;
}

function bankRailFactsOf(prepared: PreparedDestination): BankRailAccountFacts {
  const swiftBic = prepared.swiftBic ?? null;
  return {
    kind: prepared.kind,
    scheme: prepared.scheme,
    country: prepared.country,
    currency: prepared.currency,
    sepaZone: isSepaCountry(prepared.country),
    accountHolderName: prepared.accountHolderName,
    swiftBic,
    bicMatchesIban: bicMatchesIbanCountry(prepared.scheme, prepared.country, swiftBic),
  };
}

/**
 * Validated or verified by the rail, not refused by the rail, and its bank details approved (destination
 * policy). Cooling-off is not part of it (a matter of time: see usable_from). SQL twin: payoutUsableDestination
 * (destinations.shared.ts).
 */
export function isPayoutUsable(
  row: Pick<DestinationRow, "validationStatus" | "status" | "deletedAt" | "approvalStatus">,
): boolean {
  return hasUsableDetails(row) && row.approvalStatus === "approved";
}

export function presentDestination(row: DestinationRow): DestinationBody {
  return {
    id: row.id,
    kind: row.kind,
    beneficiary_id: row.beneficiaryId,
    account_holder_name: row.accountHolderName,
    currency: row.currency,
    country: row.country,
    status: row.status,
    validation_status: row.validationStatus,
    payout_usable: isPayoutUsable(row),
    last4: row.last4,
    account_type: row.accountType as DestinationBody["account_type"],
    scheme: row.scheme,
    bank_name: row.bankName,
    swift_bic: row.swiftBic,
    pix_key_type: row.pixKeyType,
    card_network: row.cardNetwork,
    card_expiry_month: row.cardExpiryMonth,
    card_expiry_year: row.cardExpiryYear,
    rail_rejection_reason: row.railRejectionReason,
    notification_of_change: presentNotification(row.notificationOfChange ?? null),
    name_check_result: row.nameCheckResult ?? null,
    name_check_bank_name: row.nameCheckBankName ?? null,
    name_check_source: row.nameCheckSource ?? null,
    name_check_at: row.nameCheckAt?.toISOString() ?? null,
    approval_status: row.approvalStatus,
    approved_by: row.approvedBy,
    approved_at: row.approvedAt?.toISOString() ?? null,
    added_by: { kind: row.addedByKind, id: row.addedById },
    details_changed_at: (row.detailsChangedAt ?? row.createdAt).toISOString(),
    usable_from: row.usableFrom?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export function presentDestinationPolicy(environment: Tenant["environment"], policy: DestinationPolicy): DestinationPolicyBody {
  return {
    environment,
    require_approval: policy.requireApproval,
    cooling_off_hours: policy.coolingOffHours,
    name_check: policy.nameCheck,
    screening: policy.screening,
    updated_at: policy.updatedAt?.toISOString() ?? null,
    updated_by: policy.updatedBy,
  };
}

function policyOfRow(row: DestinationPolicyRow | null): DestinationPolicy {
  if (row === null) return DEFAULT_DESTINATION_POLICY;
  return {
    requireApproval: row.requireApproval,
    coolingOffHours: row.coolingOffHours,
    nameCheck: row.nameCheck,
    screening: row.screening,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
}

/** A notification of change as shown: masked data only, never the encrypted correction. */
function presentNotification(notice: NotificationOfChange | null): DestinationBody["notification_of_change"] {
  if (notice === null) return null;
  return {
    code: notice.code,
    description: notice.description,
    corrected_data: notice.corrected_data,
    corrected_fields: [...(notice.corrected_fields ?? [])],
    payout_id: notice.payout_id,
    received_at: notice.received_at,
    can_apply: notice.correction_encrypted !== undefined && notice.applied_at === undefined,
    applied_at: notice.applied_at ?? null,
  };
}

/** The unmasked correction of a notification of change, as the bank-rails module encrypts it. */
interface StoredCorrection {
  readonly routingNumber?: string;
  readonly accountNumber?: string;
  readonly accountType?: "checking" | "savings";
}

/** What a validated destination contributes to its row; ids, tenant and timestamps are added on insert. */
export type PreparedDestination = Omit<
  NewDestinationRow,
  "id" | "businessId" | "environment" | "beneficiaryId" | "createdAt" | "updatedAt"
>;

const HOUR_MS = 3_600_000;

/** The control-changes kind of a pending relaxation of the destination policy (its applier: applyApprovedPolicyChange). */
export const DESTINATION_POLICY_CONTROL = "destination_policy";

/** Schemes validated only by shape (a generic SWIFT corridor) are `unvalidated` until the rail verifies them. */
const SHAPE_ONLY_SCHEMES = new Set(["swift"]);

export function createDestinationService(deps: DestinationServiceDeps) {
  const { db, clock, ids, cipher, events, presentBeneficiary } = deps;

  /** Validates bank details; the failures name the request's fields (`prefix` for nested ones, e.g. `rows[3].bank`). */
  function prepareBankAccount(
    input: BankDetailsInput & { account_type?: string | undefined },
    prefix = "",
  ): { ok: true; value: PreparedDestination } | { ok: false; details: ErrorDetail[] } {
    const result = validateBankDetails(input);
    if (!result.ok) {
      return {
        ok: false,
        details: result.failures.map((f) => ({ field: `${prefix}${f.field}`, code: f.code, message: f.message })),
      };
    }
    const v = result.value;
    const sensitive: Record<string, string> = {};
    if ("iban" in v) sensitive.iban = v.iban;
    if ("account_number" in v && v.account_number !== undefined) sensitive.account_number = v.account_number;
    if ("clabe" in v) sensitive.clabe = v.clabe;
    if ("pix_key" in v) sensitive.pix_key = v.pix_key;
    return {
      ok: true,
      value: {
        kind: "bank_account",
        scheme: v.scheme,
        accountHolderName: v.account_holder_name,
        country: v.country,
        currency: v.currency,
        accountType: input.account_type ?? "checking",
        bankName: v.bank_name ?? null,
        routingCode: "routing_code" in v ? (v.routing_code ?? null) : null,
        swiftBic: v.swift_bic ?? null,
        sensitiveEncrypted: cipher.encrypt(JSON.stringify(sensitive)),
        fingerprint: cipher.fingerprint(v.fingerprint_input),
        last4: v.last4,
        maskVersion: MASK_VERSION,
        pixKeyType: "pix_key_type" in v ? v.pix_key_type : null,
        validationStatus: SHAPE_ONLY_SCHEMES.has(v.scheme) ? "unvalidated" : "validated",
      },
    };
  }

  function prepareCard(body: RegisterCardBody): { ok: true; value: PreparedDestination } | { ok: false; details: ErrorDetail[] } {
    const result = validateCard(body, clock.now());
    if (!result.ok)
      return { ok: false, details: result.failures.map((f) => ({ field: f.field, code: f.code, message: f.message })) };
    const v = result.value;
    return {
      ok: true,
      value: {
        kind: "card",
        scheme: "card",
        accountHolderName: v.cardholder_name,
        country: v.country,
        currency: v.currency,
        accountType: "card",
        sensitiveEncrypted: cipher.encrypt(JSON.stringify({ card_number: v.card_number })),
        fingerprint: cipher.fingerprint(`card:${v.fingerprint_input}`),
        last4: v.last4,
        maskVersion: MASK_VERSION,
        cardNetwork: v.network,
        cardExpiryMonth: v.expiry_month,
        cardExpiryYear: v.expiry_year,
        validationStatus: "validated",
      },
    };
  }

  /**
   * Inserts a prepared destination for a locked, active Beneficiary. The same account registered again
   * (same keyed fingerprint) returns the existing destination instead of a duplicate. `announce` records
   * `beneficiary.bank_account.registered` (every channel except import). Under the destination policy's
   * `require_approval` the new destination starts `pending_approval` (`beneficiary.bank_account.review_required`);
   * `by` is who added it (the maker a second person is compared with).
   */
  async function insertPrepared(
    tx: Tx,
    tenant: Tenant,
    beneficiaryId: string,
    prepared: PreparedDestination,
    announce: boolean,
    by: DestinationAddedBy,
  ): Promise<{ row: DestinationRow; created: boolean }> {
    const existing = await findLiveByFingerprint(tx, tenant, beneficiaryId, prepared.fingerprint);
    if (existing !== null) return { row: existing, created: false };
    const now = clock.now();
    const row = await insertDestination(tx, {
      ...prepared,
      ...(await approvalFieldsFor(tx, tenant, by, now)),
      id: ids.newId(),
      businessId: tenant.businessId,
      environment: tenant.environment,
      beneficiaryId,
      createdAt: now,
      updatedAt: now,
    });
    // Every new destination, whatever the path (API, dashboard, collection link), gets its payee name checked.
    await deps.nameChecks.ofDestinations(tx, tenant, [row.id]);
    if (row.approvalStatus === "pending_approval") await announceReviewRequired(tx, tenant, row, "added");
    if (announce) {
      // The stored ids, not the path's spelling: a path id in capitals must not make a second subject.
      await events.record(tx, {
        tenant,
        type: "beneficiary.bank_account.registered",
        subjectId: row.beneficiaryId,
        data: {
          bank_account_id: row.id,
          beneficiary_id: row.beneficiaryId,
          last4: row.last4,
          country: row.country,
          currency: row.currency,
        },
      });
    }
    return { row, created: true };
  }

  async function lockActive(tx: Tx, tenant: Tenant, beneficiaryId: string): Promise<BeneficiaryRow> {
    const beneficiary = await lockBeneficiary(tx, tenant, beneficiaryId);
    if (beneficiary === null) throw new AppError("not_found", { message: "No such Beneficiary." });
    if (beneficiary.archivedAt !== null) throw new AppError(BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED);
    return beneficiary;
  }

  async function register(
    actor: Actor,
    beneficiaryId: string,
    prepared: { ok: true; value: PreparedDestination } | { ok: false; details: ErrorDetail[] },
  ) {
    if (!prepared.ok) throw new AppError("validation_failed", { details: prepared.details });
    const tenant = tenantOf(actor);
    try {
      const registered = await transaction(db, async (tx) => {
        const beneficiary = await lockActive(tx, tenant, beneficiaryId);
        const refusal = await deps.checkBankRailAccount(tx, tenant, bankRailFactsOf(prepared.value));
        if (refusal !== null) throw refusal;
        const { row, created } = await insertPrepared(
          tx,
          tenant,
          beneficiaryId,
          prepared.value,
          true,
          destinationAddedByActor(actor),
        );
        if (created) {
          await deps.recordAudit(tx, actor, {
            action: "bank_account_added",
            subjectType: "bank_account",
            subjectId: row.id,
            details: auditedDestination(row),
          });
        }
        return { row, created, compliant: beneficiary.complianceStatus === "compliant" && !beneficiary.reacknowledgmentRequired };
      });
      if (!registered.created || !registered.compliant || deps.enrollAfterCommit === undefined) {
        return { destination: presentDestination(registered.row), created: registered.created };
      }
      // A new destination of a compliant Beneficiary: enroll it with the rail now that it is committed.
      await deps.enrollAfterCommit(tenant, registered.row.beneficiaryId);
      const fresh = await findDestination(db, tenant, registered.row.beneficiaryId, registered.row.id);
      return { destination: presentDestination(fresh ?? registered.row), created: true };
    } catch (error) {
      // Two identical registrations racing: the partial unique index decides; answer with the winner's row.
      if (isUniqueViolation(error, "destinations_beneficiary_fingerprint_key")) {
        const existing = await findLiveByFingerprint(db, tenant, beneficiaryId, prepared.value.fingerprint);
        if (existing !== null) return { destination: presentDestination(existing), created: false };
      }
      throw error;
    }
  }

  async function registerBankAccount(actor: Actor, beneficiaryId: string, body: RegisterBankAccountBody) {
    return register(actor, beneficiaryId, prepareBankAccount(body));
  }

  async function registerCard(actor: Actor, beneficiaryId: string, body: RegisterCardBody) {
    return register(actor, beneficiaryId, prepareCard(body));
  }

  async function list(actor: Actor, beneficiaryId: string): Promise<{ bank_accounts: DestinationBody[] }> {
    const tenant = tenantOf(actor);
    if ((await findBeneficiary(db, tenant, beneficiaryId)) === null)
      throw new AppError("not_found", { message: "No such Beneficiary." });
    return { bank_accounts: (await listLiveDestinations(db, tenant, beneficiaryId)).map(presentDestination) };
  }

  /**
   * Idempotent: deleting a deleted destination succeeds. Clears the declared destination when it was this
   * one, and tells the Beneficiary. (Refusal while a payout awaiting approval heads to it comes with payouts.)
   */
  async function remove(actor: Actor, beneficiaryId: string, accountId: string): Promise<void> {
    const tenant = tenantOf(actor);
    await transaction(db, async (tx) => {
      const beneficiary = await lockActive(tx, tenant, beneficiaryId);
      const destination = await findDestination(tx, tenant, beneficiaryId, accountId);
      if (destination === null) throw new AppError(DESTINATION_ERRORS.BANK_ACCOUNT_NOT_FOUND);
      if (destination.deletedAt !== null) return;
      // The Beneficiary is locked for update above; payout creation share-locks it, so no new pending
      // payout can appear between this check and the deletion.
      if (await deps.pendingPayoutHeadsTo(tx, tenant, destination.id))
        throw new AppError(DESTINATION_ERRORS.DESTINATION_HAS_PENDING_PAYOUT);
      const now = clock.now();
      await markDestinationDeleted(tx, tenant, beneficiaryId, accountId, now);
      await deps.recordAudit(tx, actor, {
        action: "bank_account_removed",
        subjectType: "bank_account",
        subjectId: destination.id,
        details: auditedDestination(destination),
      });
      // Compare the stored id: the path's UUID may be spelt in capitals, which PostgreSQL matches but === does not.
      if (beneficiary.declaredDestinationId === destination.id) {
        await deps.changeDeclaredDestination(tx, tenant, beneficiary, {
          destination: null,
          by: { kind: "business", actor },
          reason: "destination_deleted",
        });
      }
    });
  }

  /**
   * Sets the declared destination (spec), announced to the Beneficiary by e-mail. Naming the current one
   * changes nothing and sends nothing.
   */
  async function declare(actor: Actor, beneficiaryId: string, body: DeclaredDestinationBody): Promise<BeneficiaryBody> {
    const tenant = tenantOf(actor);
    return transaction(db, async (tx) => {
      const beneficiary = await lockActive(tx, tenant, beneficiaryId);
      const destination = await findDestination(tx, tenant, beneficiaryId, body.destination_id);
      if (destination === null || destination.deletedAt !== null) throw new AppError(DESTINATION_ERRORS.BANK_ACCOUNT_NOT_FOUND);
      if (destination.status === "rejected") throw new AppError(DESTINATION_ERRORS.BANK_ACCOUNT_REJECTED);
      if (!hasUsableDetails(destination)) throw new AppError(DESTINATION_ERRORS.BANK_ACCOUNT_NOT_VALIDATED);
      // Bank details waiting for approval may be declared (payouts still wait for the approval); rejected ones not.
      if (destination.approvalStatus === "rejected") throw new AppError(DESTINATION_ERRORS.DESTINATION_NOT_APPROVED);
      const changed = beneficiary.declaredDestinationId !== destination.id;
      await deps.changeDeclaredDestination(tx, tenant, beneficiary, {
        destination,
        by: { kind: "business", actor },
        reason: "declared",
      });
      if (changed) await restartCoolingOff(tx, tenant, destination);
      const found = await findBeneficiary(tx, tenant, beneficiaryId);
      if (found === null) throw new Error("beneficiary vanished inside its own transaction");
      return presentBeneficiary(found);
    });
  }

  /** Live destinations of a Beneficiary, for another module's use case (the hosted collection pages). */
  async function liveDestinations(db: Db, tenant: Tenant, beneficiaryId: string): Promise<DestinationRow[]> {
    return listLiveDestinations(db, tenant, beneficiaryId);
  }

  /** One destination of a Beneficiary by id, deleted ones included (null when it is not theirs). */
  async function findOne(tx: Tx, tenant: Tenant, beneficiaryId: string, id: string): Promise<DestinationRow | null> {
    return findDestination(tx, tenant, beneficiaryId, id);
  }

  /**
   * Applies the ACH notification of change recorded on a bank account: the bank's corrected routing number,
   * account number or account type replace the account's, in place (same id: payouts not yet in a bank file
   * go to the corrected account, as Nacha asks before the next entry; payouts already in a file keep what
   * their entry carried, which is what the bank's answers are matched on). The result goes through the same
   * validation and rail check as a registration; audited, and `beneficiary.bank_account.corrected` recorded.
   */
  async function applyNotificationOfChange(actor: Actor, beneficiaryId: string, accountId: string): Promise<DestinationBody> {
    const tenant = tenantOf(actor);
    try {
      return await transaction(db, async (tx) => {
        await lockActive(tx, tenant, beneficiaryId);
        const destination = await lockLiveDestination(tx, tenant, beneficiaryId, accountId);
        if (destination === null || destination.kind !== "bank_account")
          throw new AppError(DESTINATION_ERRORS.BANK_ACCOUNT_NOT_FOUND);
        const notice = destination.notificationOfChange ?? null;
        if (notice?.correction_encrypted === undefined || notice.applied_at !== undefined || destination.scheme !== "us_aba")
          throw new AppError(DESTINATION_ERRORS.NOTIFICATION_OF_CHANGE_NOT_APPLICABLE);
        const correction = JSON.parse(cipher.decrypt(notice.correction_encrypted)) as StoredCorrection;
        const current = JSON.parse(cipher.decrypt(destination.sensitiveEncrypted)) as StoredSensitiveValues;
        const prepared = prepareBankAccount({
          account_holder_name: destination.accountHolderName,
          country: destination.country,
          currency: destination.currency,
          bank_name: destination.bankName,
          swift_bic: destination.swiftBic,
          routing_code: correction.routingNumber ?? destination.routingCode,
          account_number: correction.accountNumber ?? current.account_number ?? null,
          account_type: correction.accountType ?? destination.accountType,
        });
        // The bank's correction must itself be a valid account (a wrong check digit is the bank's error).
        if (!prepared.ok) throw new AppError("validation_failed", { details: prepared.details });
        const refusal = await deps.checkBankRailAccount(tx, tenant, bankRailFactsOf(prepared.value));
        if (refusal !== null) throw refusal;
        if (prepared.value.fingerprint !== destination.fingerprint) {
          const other = await findLiveByFingerprint(tx, tenant, beneficiaryId, prepared.value.fingerprint);
          if (other !== null) throw new AppError(DESTINATION_ERRORS.BANK_ACCOUNT_CORRECTION_EXISTS);
        }
        const now = clock.now();
        const { correction_encrypted: _applied, ...kept } = notice;
        // Changed bank details are new bank details: approved again (under require_approval), cooling-off restarted.
        const approval = await approvalFieldsFor(tx, tenant, destinationAddedByActor(actor), now);
        const row = await correctDestination(tx, tenant, beneficiaryId, destination.id, {
          ...approval,
          routingCode: prepared.value.routingCode ?? null,
          accountType: prepared.value.accountType ?? destination.accountType,
          sensitiveEncrypted: prepared.value.sensitiveEncrypted,
          fingerprint: prepared.value.fingerprint,
          last4: prepared.value.last4,
          maskVersion: prepared.value.maskVersion ?? MASK_VERSION,
          bankName: prepared.value.bankName ?? destination.bankName,
          notificationOfChange: { ...kept, applied_at: now.toISOString() },
          updatedAt: now,
        });
        // The account changed: its name check is asked again (the bank that answers may be another).
        if (row.fingerprint !== destination.fingerprint) await deps.nameChecks.ofDestinations(tx, tenant, [row.id]);
        const fields = [...(notice.corrected_fields ?? [])];
        await deps.recordAudit(tx, actor, {
          action: "bank_account_corrected",
          subjectType: "bank_account",
          subjectId: row.id,
          details: { ...auditedDestination(row), previous_last4: destination.last4, code: notice.code, corrected_fields: fields },
        });
        await events.record(tx, {
          tenant,
          type: "beneficiary.bank_account.corrected",
          subjectId: row.beneficiaryId,
          data: {
            beneficiary_id: row.beneficiaryId,
            bank_account_id: row.id,
            code: notice.code,
            corrected_fields: fields,
            last4: row.last4,
            previous_last4: destination.last4,
          },
        });
        if (row.approvalStatus === "pending_approval") await announceReviewRequired(tx, tenant, row, "changed");
        return presentDestination(row);
      });
    } catch (error) {
      // Registered by another request between the check and the update: the partial unique index decides.
      if (isUniqueViolation(error, "destinations_beneficiary_fingerprint_key"))
        throw new AppError(DESTINATION_ERRORS.BANK_ACCOUNT_CORRECTION_EXISTS);
      throw error;
    }
  }

  /** `beneficiary.bank_account.review_required`: new or changed bank details wait for a second person. */
  async function announceReviewRequired(tx: Tx, tenant: Tenant, row: DestinationRow, change: "added" | "changed") {
    await events.record(tx, {
      tenant,
      type: "beneficiary.bank_account.review_required",
      subjectId: row.beneficiaryId,
      data: {
        beneficiary_id: row.beneficiaryId,
        bank_account_id: row.id,
        change,
        last4: row.last4,
        country: row.country,
        currency: row.currency,
        added_by: { kind: row.addedByKind, id: row.addedById },
      },
    });
  }

  /**
   * The destination became the declared destination: its cooling-off starts again from now (approved ones;
   * pending ones start theirs at approval). With no cooling-off this changes nothing that matters.
   */
  async function restartCoolingOff(tx: Tx, tenant: Tenant, destination: DestinationRow): Promise<void> {
    if (destination.approvalStatus !== "approved") return;
    const policy = await findDestinationPolicy(tx, tenant);
    if (policy.coolingOffHours === 0) return;
    const now = clock.now();
    await restartDestinationCoolingOff(
      tx,
      tenant,
      destination.id,
      new Date(now.getTime() + policy.coolingOffHours * HOUR_MS),
      now,
    );
  }

  async function getPolicy(actor: Actor): Promise<DestinationPolicyBody> {
    const tenant = tenantOf(actor);
    return presentDestinationPolicy(tenant.environment, await findDestinationPolicy(db, tenant));
  }

  /** What a pending control change of the policy records as its base: the four controls (not who or when). */
  function controlsOf(p: DestinationPolicy) {
    return {
      require_approval: p.requireApproval,
      cooling_off_hours: p.coolingOffHours,
      name_check: p.nameCheck,
      screening: p.screening,
    };
  }

  /** The change's write and audit, on the locked policy (the request's and an approved control change's alike). */
  async function writePolicy(
    tx: Tx,
    actor: Actor,
    tenant: Tenant,
    before: DestinationPolicy,
    body: PutDestinationPolicyBody,
  ): Promise<DestinationPolicy> {
    const row = await upsertDestinationPolicy(tx, {
      businessId: tenant.businessId,
      environment: tenant.environment,
      ...mergedControls(before, body),
      updatedAt: clock.now(),
      updatedBy: actor.membershipId,
    });
    const after = policyOfRow(row);
    // Nothing was screened while screening was off: turning it on screens the Business's Beneficiaries, by a
    // durable job enqueued in this transaction (the request's and an approved control change's alike).
    if (before.screening === "off" && after.screening === "on") await deps.screenAfterEnabled(tx, tenant);
    await deps.recordAudit(tx, actor, {
      action: "destination_policy_changed",
      subjectType: "destination_policy",
      subjectId: tenant.environment,
      details: { before: controlsOf(before), after: controlsOf(after) },
    });
    return after;
  }

  function mergedControls(before: DestinationPolicy, body: PutDestinationPolicyBody) {
    return {
      requireApproval: body.require_approval ?? before.requireApproval,
      coolingOffHours: body.cooling_off_hours ?? before.coolingOffHours,
      nameCheck: body.name_check ?? before.nameCheck,
      screening: body.screening ?? before.screening,
    };
  }

  /**
   * Changes the fields given. Weakening (approval no longer required, a shorter cooling-off, a laxer name check,
   * screening off) goes through the control-changes guard: with maker-checker on, the whole change waits for a
   * second admin (answered as a pending control change, nothing applied); otherwise it is refused to API keys,
   * recorded as `control_weakened`, e-mailed to every admin and applied. Tightening applies at once. Every applied
   * change is audited (`destination_policy_changed`). Applies to destinations added or changed afterwards (and to
   * payouts created afterwards); destinations already approved stay approved.
   */
  async function putPolicy(
    actor: Actor,
    body: PutDestinationPolicyBody,
  ): Promise<{ kind: "applied"; policy: DestinationPolicyBody } | { kind: "pending"; change: PendingControlChange }> {
    const tenant = tenantOf(actor);
    return transaction(db, async (tx) => {
      // Locked, so two concurrent changes each compare against what the other left.
      const before = policyOfRow(await lockDestinationPolicy(tx, tenant));
      const proposed = mergedControls(before, body);
      const weakened = destinationPolicyWeakens(before, proposed);
      if (weakened.length > 0) {
        const pending = await deps.guardWeakening(tx, actor, {
          kind: DESTINATION_POLICY_CONTROL,
          control: "destination_policy",
          subjectType: "destination_policy",
          subjectId: tenant.environment,
          summary: `The destination policy is relaxed (${weakened.join(", ")}): new or changed bank details can be paid sooner or with fewer checks.`,
          details: {
            weakened,
            before: controlsOf(before),
            after: controlsOf({ ...before, ...proposed }),
          },
          base: controlsOf(before),
          proposed: body,
        });
        if (pending !== null) return { kind: "pending" as const, change: pending };
      }
      const after = await writePolicy(tx, actor, tenant, before, body);
      return { kind: "applied" as const, policy: presentDestinationPolicy(tenant.environment, after) };
    });
  }

  /**
   * The applier of an approved `destination_policy` change (control-changes), in the approval's transaction, as
   * the approving admin: applied only while the policy is still what it was when proposed.
   */
  const applyApprovedPolicyChange: ControlChangeApplier = async (tx, actor, change) => {
    const tenant = tenantOf(actor);
    const before = policyOfRow(await lockDestinationPolicy(tx, tenant));
    if (canonicalJson(controlsOf(before)) !== canonicalJson(change.base)) return "stale";
    await writePolicy(tx, actor, tenant, before, change.proposed as PutDestinationPolicyBody);
    return "applied";
  };

  /** Bank details waiting for approval, newest first, with their Beneficiaries' names (the dashboard's queue). */
  async function listPending(actor: Actor): Promise<{ bank_accounts: DestinationBody[] }> {
    const rows = await listPendingApproval(db, tenantOf(actor), 500);
    return { bank_accounts: rows.map(presentDestination) };
  }

  /**
   * A person decides on pending bank details: never the one who added them (compared by key, membership and
   * user); a collection-link submission has no person behind it, so any approver may. Approval starts the
   * cooling-off (usable_from = now + cooling_off_hours). Audited; `beneficiary.bank_account.approved|rejected`.
   */
  async function decide(
    actor: Actor,
    beneficiaryId: string,
    accountId: string,
    outcome: "approved" | "rejected",
    body: DestinationDecisionBody,
  ): Promise<DestinationBody> {
    const tenant = tenantOf(actor);
    return transaction(db, async (tx) => {
      await lockActive(tx, tenant, beneficiaryId);
      const destination = await lockLiveDestination(tx, tenant, beneficiaryId, accountId);
      if (destination === null) throw new AppError(DESTINATION_ERRORS.BANK_ACCOUNT_NOT_FOUND);
      if (destination.approvalStatus !== "pending_approval")
        throw new AppError(DESTINATION_ERRORS.DESTINATION_NOT_PENDING_APPROVAL);
      const maker = {
        apiKeyId: destination.addedByApiKeyId,
        membershipId: destination.addedByMembershipId,
        userId: destination.addedByUserId,
      };
      if (isSameMaker(maker, actor)) throw new AppError(DESTINATION_ERRORS.DESTINATION_MAKER_CHECKER_VIOLATION);
      const now = clock.now();
      const policy = await findDestinationPolicy(tx, tenant);
      const reason = body?.reason ?? null;
      const row = await decideDestinationApproval(tx, tenant, beneficiaryId, destination.id, {
        approvalStatus: outcome,
        approvedBy: actor.membershipId,
        approvedAt: now,
        usableFrom: outcome === "approved" ? new Date(now.getTime() + policy.coolingOffHours * HOUR_MS) : null,
        rejectionReason: outcome === "rejected" ? reason : null,
        updatedAt: now,
      });
      if (row === null) throw new AppError(DESTINATION_ERRORS.DESTINATION_NOT_PENDING_APPROVAL);
      await deps.recordAudit(tx, actor, {
        action: outcome === "approved" ? "bank_account_approved" : "bank_account_rejected",
        subjectType: "bank_account",
        subjectId: row.id,
        details: { ...auditedDestination(row), ...(reason === null ? {} : { reason }) },
      });
      await events.record(tx, {
        tenant,
        type: outcome === "approved" ? "beneficiary.bank_account.approved" : "beneficiary.bank_account.rejected",
        subjectId: row.beneficiaryId,
        data: {
          beneficiary_id: row.beneficiaryId,
          bank_account_id: row.id,
          last4: row.last4,
          decided_by: actor.membershipId,
          usable_from: row.usableFrom?.toISOString() ?? null,
          ...(reason === null ? {} : { reason }),
        },
      });
      return presentDestination(row);
    });
  }

  /** Queues the payee name check of the Beneficiary's live accounts in `tx` (its legal name changed there). */
  async function requestNameChecksOf(tx: Tx, tenant: Tenant, beneficiaryId: string): Promise<void> {
    await deps.nameChecks.ofBeneficiary(tx, tenant, beneficiaryId);
  }

  return {
    requestNameChecksOf,
    getPolicy,
    putPolicy,
    applyApprovedPolicyChange,
    listPending,
    approve: (actor: Actor, beneficiaryId: string, accountId: string, body: DestinationDecisionBody) =>
      decide(actor, beneficiaryId, accountId, "approved", body),
    reject: (actor: Actor, beneficiaryId: string, accountId: string, body: DestinationDecisionBody) =>
      decide(actor, beneficiaryId, accountId, "rejected", body),
    restartCoolingOff,
    prepareBankAccount,
    prepareCard,
    applyNotificationOfChange,
    insertPrepared,
    registerBankAccount,
    registerCard,
    list,
    remove,
    declare,
    liveDestinations,
    findOne,
  };
}

/** A destination whose masked value the backfill changed (payouts keep copies of the old one). */
export interface RemaskedDestination {
  readonly destinationId: string;
  readonly from: string;
  readonly to: string;
}

/**
 * Re-masks up to `limit` destinations stored under an older masking rule (deleted ones too: payouts keep
 * showing them), from their decrypted identifiers, in the caller's transaction; `onRemasked` updates the
 * copies other modules keep, in the same transaction. Rows another transaction holds are skipped for a later
 * batch. Returns how many rows it visited (0: none left that it could lock).
 */
export async function remaskStoredDestinations(
  tx: Tx,
  cipher: Pick<FieldCipher, "decrypt">,
  limit: number,
  onRemasked: (tx: Tx, changes: readonly RemaskedDestination[]) => Promise<void>,
): Promise<number> {
  const rows = await lockDestinationsToRemask(tx, MASK_VERSION, limit);
  const saved: Array<{ id: string; last4: string }> = [];
  const changes: RemaskedDestination[] = [];
  for (const row of rows) {
    const values = JSON.parse(cipher.decrypt(row.sensitiveEncrypted)) as StoredSensitiveValues;
    // A row with nothing to mask (never written by this service) keeps its value and is marked visited.
    const last4 = maskStoredDestination(values, row.pixKeyType as PixKeyType | null) ?? row.last4;
    saved.push({ id: row.id, last4 });
    if (last4 !== row.last4) changes.push({ destinationId: row.id, from: row.last4, to: last4 });
  }
  await saveRemaskedDestinations(tx, MASK_VERSION, saved);
  await onRemasked(tx, changes);
  return rows.length;
}

/** Whether destinations masked under an older rule remain. */
export async function destinationsLeftToRemask(db: Db): Promise<boolean> {
  return anyDestinationToRemask(db, MASK_VERSION);
}
