// The import use case: up to 500 Beneficiaries, each with a bank account and optionally the compliance
// acknowledgment, where every row succeeds or fails on its own.
//
// Shape of the work, chosen for speed (500 rows in well under a second on PostgreSQL):
//   1. every row is validated in memory: its JSON Schema, the identity checks of the create route
//      (prepareBeneficiary) and the bank-details library (prepareBankAccount); no database yet;
//   2. repeats inside the file are folded onto their first row;
//   3. ONE query finds which e-mails already belong to active Beneficiaries of the tenant;
//   4. ONE transaction inserts all new Beneficiaries, then all their bank accounts, with multi-row INSERTs.
//      `ON CONFLICT DO NOTHING` on the tenant e-mail index lets a concurrent import (or API create) win a
//      row without failing the batch; rows are inserted in e-mail order, so two imports lock index entries
//      in the same order and cannot deadlock. Skipped rows are re-read after commit and answer with the
//      winner's ids.
//   5. if that transaction fails anyway, each row is retried in its own transaction, so a row the database
//      refuses cannot take the others down.
// No `beneficiary.bank_account.registered` events are recorded for imported accounts (spec).
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import type { ErrorDetail } from "../../platform/errors.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import { compileDetailsValidator } from "../../platform/http/validation.js";
import type { IdGenerator } from "../../platform/ids.js";
import {
  type ActiveEmailMatch,
  findActiveByEmails,
  insertBeneficiariesSkippingTakenEmails,
  type NewBeneficiaryRow,
} from "../beneficiaries/beneficiaries.shared.js";
import { type BeneficiaryService, PostalAddressSchema, type PreparedBeneficiary } from "../beneficiaries/index.js";
import { insertDestinations, type NewDestinationRow } from "../destinations/destinations.shared.js";
import {
  type ApprovalFields,
  approvalFieldsUnder,
  type DestinationService,
  destinationAddedByActor,
  findDestinationPolicy,
  isPayoutUsable,
  type PreparedDestination,
} from "../destinations/index.js";
import {
  type BeneficiaryImportRow,
  BeneficiaryImportRowSchema,
  type ImportResponse,
  type ImportResult,
} from "./beneficiary-import.schemas.js";

export interface ImportLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface BeneficiaryImportServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: ImportLogger;
  /** Records `beneficiary.bank_account.review_required` for accounts that wait for approval (destination policy). */
  readonly events: EventRecorder;
  readonly prepareBeneficiary: BeneficiaryService["prepareBeneficiary"];
  readonly prepareBankAccount: DestinationService["prepareBankAccount"];
  /**
   * Queues the enrollment with the payout rail of the given Beneficiaries (acknowledged rows), in the import's own
   * transaction; the worker enrolls them after commit, so the import never waits on the rail.
   */
  readonly enqueueEnrollment?: (tx: Tx, tenant: Tenant, beneficiaryIds: readonly string[]) => Promise<void>;
  /** Queues the payee name check of the accounts written (destinations module). */
  readonly requestNameChecks?: (tx: Tx, tenant: Tenant, destinationIds: readonly string[]) => Promise<void>;
  /** The audit log: each insert transaction records the bank accounts it added (one entry, not one per row). */
  readonly recordAudit: RecordActorAudit;
  /** Sanctions screening of the inserted Beneficiaries, in the insert transaction (the importer is whose change it was). */
  readonly screenBeneficiaries?: (tx: Tx, tenant: Tenant, ids: readonly string[], by: Actor) => Promise<void>;
}

export type BeneficiaryImportService = ReturnType<typeof createBeneficiaryImportService>;

/** A row that passed validation: what it would insert. */
interface Candidate {
  readonly index: number;
  readonly beneficiary: PreparedBeneficiary;
  readonly destination: PreparedDestination;
}

type InsertOutcome =
  | { readonly kind: "created"; readonly beneficiaryId: string; readonly destinationId: string }
  /** An active Beneficiary got the e-mail first (a concurrent import or create): re-read and answer with it. */
  | { readonly kind: "taken" }
  | { readonly kind: "error"; readonly error: unknown };

const BANK_FIELD = /^bank(\.|$)/;

/** Compiled once per process rather than per service built (tens of milliseconds of CPU each): it never changes. */
const checkRowShape = compileDetailsValidator(BeneficiaryImportRowSchema, [PostalAddressSchema]);

function failedResult(index: number, details: readonly ErrorDetail[], beneficiaryId: string | null = null): ImportResult {
  const first = details[0] ?? { field: "", code: "internal_error", message: "The row could not be imported." };
  return {
    index,
    status: "failed",
    beneficiary_id: beneficiaryId,
    bank_account_id: null,
    payout_usable: false,
    error: { code: first.code, message: first.message, field: first.field, details: [...details] },
  };
}

function hasText(value: unknown): boolean {
  return typeof value === "string" && value.trim() !== "";
}

/**
 * Which kind of payee the row describes: `beneficiary_type` when given, else `person` from first and last
 * name or `business` from business_name. Records what is missing in `details`.
 */
function inferBeneficiaryType(row: BeneficiaryImportRow, details: ErrorDetail[]): "person" | "business" | null {
  const person = hasText(row.first_name) || hasText(row.last_name);
  const business = hasText(row.business_name);
  const type = row.beneficiary_type ?? (person && !business ? "person" : business && !person ? "business" : null);
  if (type === null) {
    details.push(
      person
        ? {
            field: "beneficiary_type",
            code: "required",
            message: "The row names both a person and a business: say which it is with beneficiary_type.",
          }
        : {
            field: "first_name",
            code: "required",
            message: "Give first_name and last_name (a person) or business_name (a business).",
          },
    );
    return null;
  }
  const before = details.length;
  const need = (field: "first_name" | "last_name" | "business_name") => {
    if (!hasText(row[field])) details.push({ field, code: "required", message: `A ${type} needs ${field}.` });
  };
  if (type === "person") {
    need("first_name");
    need("last_name");
  } else {
    need("business_name");
  }
  return details.length === before ? type : null;
}

export function createBeneficiaryImportService(deps: BeneficiaryImportServiceDeps) {
  const { db, clock, ids, logger, prepareBeneficiary, prepareBankAccount } = deps;

  /**
   * Every problem of one row, or what it would insert. The identity and the bank account are judged
   * separately: a part whose shape is wrong is not judged further (its semantic checks would only repeat
   * the shape errors), but the other part still is, so one pass reports as much as it can.
   */
  function validateRow(
    raw: Record<string, unknown>,
  ): { ok: true; value: Omit<Candidate, "index"> } | { ok: false; details: ErrorDetail[] } {
    const details = checkRowShape(raw);
    const bankShapeOk = !details.some((d) => BANK_FIELD.test(d.field));
    const identityShapeOk = !details.some((d) => !BANK_FIELD.test(d.field));
    // Each part is read only when its own shape check passed.
    const row = raw as BeneficiaryImportRow;
    let beneficiary: PreparedBeneficiary | undefined;
    let destination: PreparedDestination | undefined;
    if (identityShapeOk) {
      const type = inferBeneficiaryType(row, details);
      if (type !== null) {
        const { bank: _bank, acknowledged, beneficiary_type: _type, ...identity } = row;
        const prepared = prepareBeneficiary({ ...identity, beneficiary_type: type }, { acknowledged: acknowledged === true });
        if (prepared.ok) beneficiary = prepared.value;
        else details.push(...prepared.details);
      }
    }
    if (bankShapeOk) {
      const prepared = prepareBankAccount(row.bank, "bank.");
      if (prepared.ok) destination = prepared.value;
      else details.push(...prepared.details);
    }
    if (details.length > 0 || beneficiary === undefined || destination === undefined) return { ok: false, details };
    return { ok: true, value: { beneficiary, destination } };
  }

  /** The answer for a row whose e-mail an active Beneficiary holds: the same account means the row is already done. */
  function existingResult(candidate: Candidate, matches: readonly ActiveEmailMatch[]): ImportResult {
    const holder = matches[0];
    if (holder === undefined) {
      // The holder was archived between the conflict and the re-read: rare, and the row is safe to send again.
      return failedResult(candidate.index, [
        {
          field: "email",
          code: "BENEFICIARY_EMAIL_TAKEN",
          message: "Another import or request used this e-mail at the same time; send the row again.",
        },
      ]);
    }
    const same = matches.find((m) => m.destination?.fingerprint === candidate.destination.fingerprint)?.destination;
    if (same === undefined || same === null) {
      return failedResult(
        candidate.index,
        [
          {
            field: "email",
            code: "BENEFICIARY_EMAIL_TAKEN",
            message: `Beneficiary ${holder.beneficiaryId} already has this e-mail but not this bank account: register the account on it (POST /v1/beneficiaries/${holder.beneficiaryId}/bank-accounts) or archive it first.`,
          },
        ],
        holder.beneficiaryId,
      );
    }
    return {
      index: candidate.index,
      status: "already_exists",
      beneficiary_id: holder.beneficiaryId,
      bank_account_id: same.id,
      payout_usable: isPayoutUsable({ ...same, deletedAt: null }),
    };
  }

  async function lookUpExisting(tenant: Tenant, candidates: readonly Candidate[]): Promise<Map<string, ActiveEmailMatch[]>> {
    const matches = await findActiveByEmails(
      db,
      tenant,
      candidates.map((c) => c.beneficiary.emailNormalized),
      [...new Set(candidates.map((c) => c.destination.fingerprint))],
    );
    const byEmail = new Map<string, ActiveEmailMatch[]>();
    for (const match of matches) byEmail.set(match.emailNormalized, [...(byEmail.get(match.emailNormalized) ?? []), match]);
    return byEmail;
  }

  /** The rows of one candidate, with ids chosen up front (UUIDv7 in file order, so lists show the file's order). */
  function rowsOf(tenant: Tenant, candidate: Candidate, now: Date, approval: ApprovalFields) {
    const beneficiary: NewBeneficiaryRow = {
      ...candidate.beneficiary,
      id: ids.newId(),
      businessId: tenant.businessId,
      environment: tenant.environment,
      createdAt: now,
      updatedAt: now,
    };
    const destination: NewDestinationRow = {
      ...candidate.destination,
      // Under require_approval every imported account waits for a person other than the importer.
      ...approval,
      id: ids.newId(),
      businessId: tenant.businessId,
      environment: tenant.environment,
      beneficiaryId: beneficiary.id,
      createdAt: now,
      updatedAt: now,
    };
    return { beneficiary, destination };
  }

  type PlannedRows = ReturnType<typeof rowsOf>;

  /** Inserts `planned` in one transaction; the Beneficiaries whose e-mail was taken meanwhile are skipped. */
  async function insertTogether(actor: Actor, planned: readonly PlannedRows[]): Promise<Set<string>> {
    // E-mail order: concurrent imports then wait on each other's index entries in one order, never in a cycle.
    const ordered = [...planned].sort((a, b) =>
      a.beneficiary.emailNormalized < b.beneficiary.emailNormalized
        ? -1
        : a.beneficiary.emailNormalized > b.beneficiary.emailNormalized
          ? 1
          : 0,
    );
    return transaction(db, async (tx) => {
      const inserted = new Set(
        await insertBeneficiariesSkippingTakenEmails(
          tx,
          ordered.map((p) => p.beneficiary),
        ),
      );
      const added = ordered
        .filter((p) => p.beneficiary.id !== undefined && inserted.has(p.beneficiary.id))
        .map((p) => p.destination);
      await insertDestinations(tx, added);
      const firstAdded = added[0];
      if (deps.requestNameChecks !== undefined && firstAdded !== undefined) {
        await deps.requestNameChecks(
          tx,
          { businessId: firstAdded.businessId, environment: firstAdded.environment },
          added.map((d) => d.id as string),
        );
      }
      for (const d of added) {
        if (d.approvalStatus !== "pending_approval") continue;
        await deps.events.record(tx, {
          tenant: { businessId: d.businessId, environment: d.environment },
          type: "beneficiary.bank_account.review_required",
          subjectId: d.beneficiaryId,
          data: {
            beneficiary_id: d.beneficiaryId,
            bank_account_id: d.id,
            change: "added",
            last4: d.last4,
            country: d.country,
            currency: d.currency,
            added_by: { kind: d.addedByKind ?? null, id: d.addedById ?? null },
          },
        });
      }
      await deps.screenBeneficiaries?.(tx, tenantOf(actor), [...inserted], actor);
      if (added.length > 0) {
        // New places money can go, added by this import: one entry per insert transaction, masked values only.
        await deps.recordAudit(tx, actor, {
          action: "beneficiaries_imported",
          subjectType: "business",
          subjectId: actor.businessId,
          details: {
            beneficiaries: added.length,
            bank_accounts: added.map((d) => ({
              id: d.id,
              beneficiary_id: d.beneficiaryId,
              country: d.country,
              currency: d.currency,
              last4: d.last4,
            })),
          },
        });
      }
      const compliant = ordered.filter(
        (p) => p.beneficiary.id !== undefined && inserted.has(p.beneficiary.id) && p.beneficiary.complianceStatus === "compliant",
      );
      const first = compliant[0];
      if (deps.enqueueEnrollment !== undefined && first !== undefined) {
        await deps.enqueueEnrollment(
          tx,
          { businessId: first.beneficiary.businessId, environment: first.beneficiary.environment },
          compliant.map((p) => p.beneficiary.id as string),
        );
      }
      return inserted;
    });
  }

  async function insertCandidates(
    actor: Actor,
    tenant: Tenant,
    candidates: readonly Candidate[],
    approval: ApprovalFields,
  ): Promise<Map<number, InsertOutcome>> {
    const now = clock.now();
    const planned = candidates.map((candidate) => ({ candidate, rows: rowsOf(tenant, candidate, now, approval) }));
    const outcomeOf = (p: (typeof planned)[number], inserted: ReadonlySet<string>): InsertOutcome =>
      p.rows.beneficiary.id !== undefined && p.rows.destination.id !== undefined && inserted.has(p.rows.beneficiary.id)
        ? { kind: "created", beneficiaryId: p.rows.beneficiary.id, destinationId: p.rows.destination.id }
        : { kind: "taken" };
    const outcomes = new Map<number, InsertOutcome>();
    if (planned.length === 0) return outcomes;
    try {
      const inserted = await insertTogether(
        actor,
        planned.map((p) => p.rows),
      );
      for (const p of planned) outcomes.set(p.candidate.index, outcomeOf(p, inserted));
      return outcomes;
    } catch (error) {
      logger.warn({ err: error, rows: planned.length }, "beneficiary import: batch insert failed; retrying row by row");
    }
    for (const p of planned) {
      try {
        outcomes.set(p.candidate.index, outcomeOf(p, await insertTogether(actor, [p.rows])));
      } catch (error) {
        logger.error({ err: error, row_index: p.candidate.index }, "beneficiary import: row insert failed");
        outcomes.set(p.candidate.index, { kind: "error", error });
      }
    }
    const failures = [...outcomes.values()].filter((o) => o.kind === "error");
    // Nothing was stored: fail the request as a whole (503 when the database is down, else 500).
    if (failures.length === planned.length && failures[0]?.kind === "error") throw failures[0].error;
    return outcomes;
  }

  async function importRows(actor: Actor, rows: readonly Record<string, unknown>[]): Promise<ImportResponse> {
    const tenant = tenantOf(actor);
    const results: (ImportResult | undefined)[] = new Array(rows.length).fill(undefined);

    const firstByEmail = new Map<string, Candidate>();
    const repeats: Array<{ candidate: Candidate; first: Candidate }> = [];
    rows.forEach((raw, index) => {
      const validated = validateRow(raw);
      if (!validated.ok) {
        results[index] = failedResult(index, validated.details);
        return;
      }
      const candidate: Candidate = { index, ...validated.value };
      const first = firstByEmail.get(candidate.beneficiary.emailNormalized);
      if (first === undefined) firstByEmail.set(candidate.beneficiary.emailNormalized, candidate);
      else repeats.push({ candidate, first });
    });

    const uniqueCandidates = [...firstByEmail.values()];
    const existing = await lookUpExisting(tenant, uniqueCandidates);
    const toInsert: Candidate[] = [];
    for (const candidate of uniqueCandidates) {
      const matches = existing.get(candidate.beneficiary.emailNormalized);
      if (matches === undefined) toInsert.push(candidate);
      else results[candidate.index] = existingResult(candidate, matches);
    }

    // The destination policy read once for the request: every account it adds starts alike.
    const approval = approvalFieldsUnder(await findDestinationPolicy(db, tenant), destinationAddedByActor(actor), clock.now());
    const outcomes = await insertCandidates(actor, tenant, toInsert, approval);
    const taken: Candidate[] = [];
    for (const candidate of toInsert) {
      const outcome = outcomes.get(candidate.index);
      if (outcome?.kind === "created") {
        results[candidate.index] = {
          index: candidate.index,
          status: "created",
          beneficiary_id: outcome.beneficiaryId,
          bank_account_id: outcome.destinationId,
          payout_usable: isPayoutUsable({
            validationStatus: candidate.destination.validationStatus,
            status: "unverified",
            approvalStatus: approval.approvalStatus ?? "approved",
            deletedAt: null,
          }),
        };
      } else if (outcome?.kind === "taken") {
        taken.push(candidate);
      } else {
        results[candidate.index] = failedResult(candidate.index, [
          {
            field: "",
            code: "internal_error",
            message: "The row could not be stored; the other rows were not affected. Send it again.",
          },
        ]);
      }
    }
    if (taken.length > 0) {
      // Read after our commit: the concurrent winner had committed before ON CONFLICT let our insert skip it.
      const winners = await lookUpExisting(tenant, taken);
      for (const candidate of taken) {
        results[candidate.index] = existingResult(candidate, winners.get(candidate.beneficiary.emailNormalized) ?? []);
      }
    }

    for (const { candidate, first } of repeats) {
      const firstResult = results[first.index];
      if (candidate.destination.fingerprint !== first.destination.fingerprint) {
        results[candidate.index] = failedResult(
          candidate.index,
          [
            {
              field: "email",
              code: "duplicate_email",
              message: `Row ${first.index} has this e-mail with another bank account; only that row is imported.`,
            },
          ],
          firstResult?.beneficiary_id ?? null,
        );
      } else {
        results[candidate.index] = {
          index: candidate.index,
          status: "duplicate",
          beneficiary_id: firstResult?.beneficiary_id ?? null,
          bank_account_id: firstResult?.bank_account_id ?? null,
          payout_usable: firstResult?.payout_usable ?? false,
          duplicate_of: first.index,
        };
      }
    }

    const complete = results.map((result, index) => result ?? failedResult(index, []));
    const count = (status: ImportResult["status"]) => complete.filter((r) => r.status === status).length;
    return {
      results: complete,
      created_count: count("created"),
      already_exists_count: count("already_exists"),
      duplicate_count: count("duplicate"),
      failed_count: count("failed"),
    };
  }

  return { importRows };
}
