// What the beneficiaries module offers other modules over its tables: named queries that run in the caller's
// transaction (or on the database handle for reads). Other modules import this file (or index.ts), never
// beneficiaries.schema.ts.
import { and, asc, desc, eq, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import { type Db, queryRows, type Tx } from "../../platform/db/client.js";
import { insertFromJson } from "../../platform/db/insert-from-json.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { liveDestinationsWithFingerprintJoin } from "../destinations/destinations.shared.js";
import { type BeneficiaryPatch, type BeneficiaryRow, updateBeneficiary } from "./beneficiaries.repo.js";
import {
  beneficiaries,
  type enrollmentStatusEnum,
  type PostalAddressValue,
  type ScreeningMatchValue,
  type ScreeningStatus,
  type TaxDocumentSummaryValue,
} from "./beneficiaries.schema.js";

export type { BeneficiaryRow, BeneficiaryWithCounts } from "./beneficiaries.repo.js";
/** A Beneficiary of the tenant with its derived-status inputs (usable destinations, open request), or null. */
/** Locks a Beneficiary of the tenant for the rest of the transaction (concurrent changes of one Beneficiary take turns). */
export { findBeneficiary, lockBeneficiary } from "./beneficiaries.repo.js";
export type {
  PostalAddressValue,
  ScreeningMatchValue,
  ScreeningStatus,
  TaxDocumentSummaryValue,
} from "./beneficiaries.schema.js";
/** The screening states a Beneficiary can be in (the payouts' `payee` object shows the same values). */
export { SCREENING_STATUSES } from "./beneficiaries.schema.js";

export type EnrollmentStatus = (typeof enrollmentStatusEnum.enumValues)[number];

/** Starts an attempt: `pending`, no failure fields (spec: null while a retry is in flight), this attempt current. */
export async function markEnrollmentPending(
  tx: Tx,
  tenant: Tenant,
  beneficiaryId: string,
  attemptId: string,
  at: Date,
): Promise<void> {
  await tx
    .update(beneficiaries)
    .set({
      enrollmentStatus: "pending",
      enrollmentFailureDetail: null,
      enrollmentFailureBankAccountId: null,
      enrollmentAttemptId: attemptId,
      enrollmentAttemptStartedAt: at,
      updatedAt: at,
    })
    .where(and(eq(beneficiaries.id, beneficiaryId), ownedBy(beneficiaries, tenant)));
}

/**
 * Writes an attempt's result, only while it is still the current attempt and pending (conditional update):
 * a newer attempt that started meanwhile wins, and the older result is dropped. Returns whether it applied.
 */
export async function finishEnrollment(
  tx: Tx,
  tenant: Tenant,
  beneficiaryId: string,
  attemptId: string,
  result: { status: EnrollmentStatus | null; detail: string | null; bankAccountId: string | null },
  at: Date,
): Promise<boolean> {
  const updated = await tx
    .update(beneficiaries)
    .set({
      enrollmentStatus: result.status,
      enrollmentFailureDetail: result.detail,
      enrollmentFailureBankAccountId: result.bankAccountId,
      enrollmentAttemptId: null,
      enrollmentAttemptStartedAt: null,
      updatedAt: at,
    })
    .where(
      and(
        eq(beneficiaries.id, beneficiaryId),
        ownedBy(beneficiaries, tenant),
        eq(beneficiaries.enrollmentAttemptId, attemptId),
        eq(beneficiaries.enrollmentStatus, "pending"),
      ),
    )
    .returning({ id: beneficiaries.id });
  return updated.length > 0;
}

/** The refusal named an id that is not a destination of this Beneficiary: it names none. */
export async function clearEnrollmentFailureAccount(tx: Tx, tenant: Tenant, beneficiaryId: string): Promise<void> {
  await tx
    .update(beneficiaries)
    .set({ enrollmentFailureBankAccountId: null })
    .where(and(eq(beneficiaries.id, beneficiaryId), ownedBy(beneficiaries, tenant)));
}

/** A `full_onboarding` collection link was made for a Beneficiary not yet invited: it is now `invited`. */
export async function markCollectionInvited(tx: Tx, tenant: Tenant, id: string, at: Date): Promise<void> {
  await updateBeneficiary(tx, tenant, id, { collectionStatus: "invited", updatedAt: at });
}

/** A tax form was submitted through a collection link: its masked summary is what the Beneficiary shows. */
export async function recordTaxDocumentSummary(
  tx: Tx,
  tenant: Tenant,
  id: string,
  summary: TaxDocumentSummaryValue,
  at: Date,
): Promise<void> {
  await updateBeneficiary(tx, tenant, id, { taxDocument: summary, updatedAt: at });
}

/**
 * A collection link's onboarding form was submitted: the identity fields it changed (from the beneficiaries
 * service's identityUpdatePatch) and `details_submitted`.
 */
export async function recordDetailsSubmitted(
  tx: Tx,
  tenant: Tenant,
  id: string,
  identity: BeneficiaryPatch,
  at: Date,
): Promise<void> {
  await updateBeneficiary(tx, tenant, id, {
    ...identity,
    collectionStatus: "details_submitted",
    detailsSubmittedAt: at,
    updatedAt: at,
  });
}

/**
 * A `payout_destination` link that also collected the postal address a SEPA account needs: the address
 * patch (from `identityUpdatePatch`) without touching `collection_status`, which only identity links move.
 */
export async function recordAddressFromLink(
  tx: Tx,
  tenant: Tenant,
  id: string,
  patch: BeneficiaryPatch,
  at: Date,
): Promise<void> {
  await updateBeneficiary(tx, tenant, id, { ...patch, updatedAt: at });
}

/**
 * Active (not archived) Beneficiaries of the tenant, newest first, strictly before `beforeId` (null: from the
 * newest). Served by the partial index beneficiaries_tenant_list_idx (business, environment, id).
 */
export async function listActiveBeneficiaryPage(
  tx: Tx,
  tenant: Tenant,
  beforeId: string | null,
  limit: number,
): Promise<BeneficiaryRow[]> {
  return tx
    .select()
    .from(beneficiaries)
    .where(
      and(
        ownedBy(beneficiaries, tenant),
        isNull(beneficiaries.archivedAt),
        beforeId === null ? undefined : lt(beneficiaries.id, beforeId),
      ),
    )
    .orderBy(desc(beneficiaries.id))
    .limit(limit);
}

/** What the creation gates and the approval policy read of a Beneficiary. */
export type GateBeneficiary = Pick<
  BeneficiaryRow,
  | "id"
  | "archivedAt"
  | "complianceStatus"
  | "reacknowledgmentRequired"
  | "enrollmentStatus"
  | "declaredDestinationId"
  | "createdAt"
  | "screeningStatus"
>;

/** Share-locks several Beneficiaries in id order (bulk; a fixed order so two uploads cannot deadlock). */
export async function lockBeneficiariesShared(tx: Tx, tenant: Tenant, ids: readonly string[]): Promise<BeneficiaryRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(beneficiaries)
    .where(and(inArray(beneficiaries.id, [...ids]), ownedBy(beneficiaries, tenant)))
    .orderBy(asc(beneficiaries.id))
    .for("share");
}

/**
 * The body of a CTE that share-locks the Beneficiary a payout is created for and reads what the creation
 * gates need (GateBeneficiary, as JSON column names): archiving it, or deleting one of its destinations
 * (which lock it for update), waits for the creating transaction, and the other way round. Only values are
 * interpolated, so the text is fixed and the caller's statement may be a named one.
 */
export function shareLockedGateBeneficiary(tenant: Tenant, beneficiaryId: string): SQL {
  return sql`select id, archived_at, compliance_status, reacknowledgment_required, enrollment_status, declared_destination_id, created_at,
          screening_status
        from beneficiaries
        where id = ${beneficiaryId}::uuid and business_id = ${tenant.businessId}::uuid
          and environment = ${tenant.environment}::environment
        for share`;
}

/** A Beneficiary by id, whatever its tenant (job-side reads: the job carries the id). */
export async function findBeneficiaryById(db: Db, id: string): Promise<BeneficiaryRow | null> {
  const [row] = await db.select().from(beneficiaries).where(eq(beneficiaries.id, id)).limit(1);
  return row ?? null;
}

/** Postal addresses of many Beneficiaries of the tenant in one query, by id (absent: none, or unknown). */
export async function findPostalAddresses(
  db: Db,
  tenant: Tenant,
  beneficiaryIds: readonly string[],
): Promise<Map<string, PostalAddressValue>> {
  if (beneficiaryIds.length === 0) return new Map();
  const rows = await db
    .select({ id: beneficiaries.id, postalAddress: beneficiaries.postalAddress })
    .from(beneficiaries)
    .where(and(ownedBy(beneficiaries, tenant), inArray(beneficiaries.id, [...new Set(beneficiaryIds)])));
  const found = new Map<string, PostalAddressValue>();
  for (const row of rows) if (row.postalAddress) found.set(row.id, row.postalAddress);
  return found;
}

export type NewBeneficiaryRow = typeof beneficiaries.$inferInsert;

export interface ActiveEmailMatch {
  readonly beneficiaryId: string;
  readonly emailNormalized: string;
  /** A live destination of that Beneficiary whose fingerprint is one of those asked about; null when none. */
  readonly destination: {
    readonly id: string;
    readonly fingerprint: string;
    readonly validationStatus: "validated" | "unvalidated";
    readonly status: "unverified" | "verified" | "rejected";
    readonly approvalStatus: "approved" | "pending_approval" | "rejected";
  } | null;
}

/**
 * The tenant's active Beneficiaries holding any of `emails` (normalised), each joined with its live
 * destinations among `fingerprints`: one row per (Beneficiary, matching destination), or one row with a
 * null destination. One query, served by the tenant e-mail and destination fingerprint indexes.
 */
export async function findActiveByEmails(
  db: Db,
  tenant: Tenant,
  emails: readonly string[],
  fingerprints: readonly string[],
): Promise<ActiveEmailMatch[]> {
  if (emails.length === 0) return [];
  const match = liveDestinationsWithFingerprintJoin(beneficiaries.id, fingerprints);
  const rows = await db
    .select({ beneficiaryId: beneficiaries.id, emailNormalized: beneficiaries.emailNormalized, ...match.columns })
    .from(beneficiaries)
    .leftJoin(match.table, match.on)
    .where(
      and(ownedBy(beneficiaries, tenant), isNull(beneficiaries.archivedAt), inArray(beneficiaries.emailNormalized, [...emails])),
    );
  return rows.map((row) => ({
    beneficiaryId: row.beneficiaryId,
    emailNormalized: row.emailNormalized,
    destination:
      row.destinationId === null ||
      row.fingerprint === null ||
      row.validationStatus === null ||
      row.status === null ||
      row.approvalStatus === null
        ? null
        : {
            id: row.destinationId,
            fingerprint: row.fingerprint,
            validationStatus: row.validationStatus,
            status: row.status,
            approvalStatus: row.approvalStatus,
          },
  }));
}

/**
 * Inserts the Beneficiaries in one statement, in the order given. A row whose e-mail an active Beneficiary
 * of the tenant already holds is skipped, not an error (the partial unique index
 * `beneficiaries_tenant_email_key` decides, also against a concurrent import); returns the ids inserted.
 */
/** The columns of `beneficiaries_tenant_email_key` (partial: archived_at is null). */
const emailKeyColumns = sql.join(
  [beneficiaries.businessId, beneficiaries.environment, beneficiaries.emailNormalized].map((c) => sql.identifier(c.name)),
  sql`, `,
);

export async function insertBeneficiariesSkippingTakenEmails(tx: Tx, rows: readonly NewBeneficiaryRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await queryRows<{ id: string }>(
    tx,
    sql`${insertFromJson(beneficiaries, rows)}
      on conflict (${emailKeyColumns}) where ${sql.identifier(beneficiaries.archivedAt.name)} is null do nothing
      returning ${sql.identifier(beneficiaries.id.name)} as id`,
  );
  return inserted.map((row) => row.id);
}

/** How a payout names its payee (the payouts module's `payee` summary): the name, the country and the screening state. */
export interface PayeeName {
  /** The nickname when set, else the legal name (the Beneficiary's `display_name`). */
  readonly displayName: string;
  /** Country of residence (individual) or of incorporation (business); null while not given. */
  readonly country: string | null;
  /** Its sanctions screening state now (shown to whoever decides or reviews a payout to it). */
  readonly screeningStatus: ScreeningStatus;
}

/**
 * The names and countries of the tenant's Beneficiaries with these ids (archived ones included: a payout keeps
 * naming its payee), in one query for a whole page of payouts. Ids of another tenant are simply absent.
 */
export async function findPayeeNames(db: Db, tenant: Tenant, ids: readonly string[]): Promise<Map<string, PayeeName>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({
      id: beneficiaries.id,
      displayName: sql<string>`coalesce(${beneficiaries.nickname}, ${beneficiaries.name})`,
      country: sql<string | null>`coalesce(${beneficiaries.countryOfResidence}, ${beneficiaries.countryOfIncorporation})`,
      screeningStatus: beneficiaries.screeningStatus,
    })
    .from(beneficiaries)
    .where(and(ownedBy(beneficiaries, tenant), inArray(beneficiaries.id, unique)));
  return new Map(
    rows.map((row) => [row.id, { displayName: row.displayName, country: row.country, screeningStatus: row.screeningStatus }]),
  );
}

/**
 * The ids of the tenant's Beneficiaries whose name (or nickname) contains `text`, case-insensitively, as a
 * subquery for the caller's `beneficiary_id in (…)` (the payouts list's payee search). Tenant-filtered here, so
 * another Business's payee never matches; the outer query is filtered by its own tenant index as well.
 */
export function beneficiaryIdsNamedLike(tenant: Tenant, text: string): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`select ${beneficiaries.id} from ${beneficiaries}
    where ${ownedBy(beneficiaries, tenant)}
      and (${beneficiaries.name} ilike ${pattern} or ${beneficiaries.nickname} ilike ${pattern})`;
}

// Sanctions screening (the screening module) ------------------------------------------------------------------

/** What screening reads of a Beneficiary: every name it goes by and its country. */
export interface ScreenedBeneficiary {
  readonly id: string;
  readonly businessId: string;
  readonly environment: BeneficiaryRow["environment"];
  /** The name, and the legal name when it differs (first and last name, or the business name). */
  readonly names: readonly string[];
  /** Residence or incorporation, else the postal address's country. */
  readonly country: string | null;
  readonly screeningStatus: ScreeningStatus;
}

const screenedColumns = {
  id: beneficiaries.id,
  businessId: beneficiaries.businessId,
  environment: beneficiaries.environment,
  name: beneficiaries.name,
  firstName: beneficiaries.firstName,
  lastName: beneficiaries.lastName,
  businessName: beneficiaries.businessName,
  countryOfResidence: beneficiaries.countryOfResidence,
  countryOfIncorporation: beneficiaries.countryOfIncorporation,
  postalAddress: beneficiaries.postalAddress,
  screeningStatus: beneficiaries.screeningStatus,
};

function toScreened(row: {
  id: string;
  businessId: string;
  environment: BeneficiaryRow["environment"];
  name: string;
  firstName: string | null;
  lastName: string | null;
  businessName: string | null;
  countryOfResidence: string | null;
  countryOfIncorporation: string | null;
  postalAddress: PostalAddressValue | null;
  screeningStatus: ScreeningStatus;
}): ScreenedBeneficiary {
  const legal = [row.firstName, row.lastName].filter((part) => part !== null && part !== "").join(" ");
  const names = [...new Set([row.name, legal, row.businessName ?? ""].map((name) => name.trim()).filter((name) => name !== ""))];
  return {
    id: row.id,
    businessId: row.businessId,
    environment: row.environment,
    names,
    country: row.countryOfResidence ?? row.countryOfIncorporation ?? row.postalAddress?.country ?? null,
    screeningStatus: row.screeningStatus,
  };
}

/** The tenant's Beneficiaries by id (archived ones too), in the caller's transaction. */
export async function findBeneficiariesToScreen(db: Db, tenant: Tenant, ids: readonly string[]): Promise<ScreenedBeneficiary[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(screenedColumns)
    .from(beneficiaries)
    .where(and(ownedBy(beneficiaries, tenant), inArray(beneficiaries.id, [...ids])));
  return rows.map(toScreened);
}

/**
 * Every tenant's active Beneficiaries in id order after `afterId` (the rescreen run's batches), locked: a change
 * of one of them (screened in its own transaction) waits, so the batch never writes a verdict on an old name.
 */
export async function listBeneficiariesToScreen(tx: Tx, afterId: string | null, limit: number): Promise<ScreenedBeneficiary[]> {
  const rows = await tx
    .select(screenedColumns)
    .from(beneficiaries)
    .where(and(isNull(beneficiaries.archivedAt), afterId === null ? undefined : sql`${beneficiaries.id} > ${afterId}::uuid`))
    .orderBy(asc(beneficiaries.id))
    .limit(limit)
    .for("update");
  return rows.map(toScreened);
}

export interface ScreeningOutcome {
  readonly id: string;
  readonly status: ScreeningStatus;
  readonly match: ScreeningMatchValue | null;
}

/** Writes screening outcomes (one statement for a whole batch); `updated_at` is left alone: the Business changed nothing. */
export async function recordScreeningOutcomes(tx: Tx, outcomes: readonly ScreeningOutcome[], at: Date): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = JSON.stringify(outcomes.map((o) => ({ id: o.id, status: o.status, match: o.match })));
  await tx.execute(sql`update beneficiaries b
    set screening_status = v.status::screening_status, screening_match = v.match, screened_at = ${at.toISOString()}::timestamptz
    from jsonb_to_recordset(${rows}::jsonb) as v(id uuid, status text, match jsonb)
    where b.id = v.id`);
}
