// What the destinations module offers other modules over its table: named queries that run in the caller's
// transaction (or on the database handle for reads). Other modules import this file (or index.ts), never
// destinations.schema.ts.
import { and, asc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { type Db, namedQueryRows, preparedQuery, type Tx } from "../../platform/db/client.js";
import { insertFromJson } from "../../platform/db/insert-from-json.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { destinationPolicies, destinations, type NotificationOfChange } from "./destinations.schema.js";

/** Routing details usable (validated or verified by the rail) and not refused by the rail, approval aside. */
export function hasUsableDetails(row: Pick<DestinationRow, "validationStatus" | "status" | "deletedAt">): boolean {
  return (
    row.deletedAt === null && (row.validationStatus === "validated" || row.status === "verified") && row.status !== "rejected"
  );
}

/** Who adds or changes bank details: a person (through a key or a session), or a collection link (no person). */
export type DestinationAddedBy =
  | { readonly kind: "api_key" | "session"; readonly actor: Pick<Actor, "apiKeyId" | "membershipId" | "userId"> }
  | { readonly kind: "collection_link"; readonly collectionRequestId: string };

export function destinationAddedByActor(actor: Pick<Actor, "apiKeyId" | "membershipId" | "userId">): DestinationAddedBy {
  return { kind: actor.apiKeyId === null ? "session" : "api_key", actor };
}

/** The approval columns of bank details added or changed now by `by`, under the tenant's destination policy. */
export type ApprovalFields = Pick<
  NewDestinationRow,
  | "approvalStatus"
  | "addedByKind"
  | "addedById"
  | "addedByApiKeyId"
  | "addedByMembershipId"
  | "addedByUserId"
  | "detailsChangedAt"
  | "approvedBy"
  | "approvedAt"
  | "rejectionReason"
  | "usableFrom"
>;

/**
 * What bank details added or changed at `now` start with: `pending_approval` (no usable_from yet) under
 * `require_approval`, else approved with usable_from = now + cooling_off_hours; and who added them. Every path
 * that adds or changes a destination (API, dashboard, import, collection link, notification of change) uses it.
 */
export async function approvalFieldsFor(db: Db, tenant: Tenant, by: DestinationAddedBy, now: Date): Promise<ApprovalFields> {
  const policy = await findDestinationPolicy(db, tenant);
  return approvalFieldsUnder(policy, by, now);
}

/** approvalFieldsFor with the policy already read (the import reads it once for all its rows). */
export function approvalFieldsUnder(policy: DestinationPolicy, by: DestinationAddedBy, now: Date): ApprovalFields {
  const person = by.kind === "collection_link" ? null : by.actor;
  return {
    approvalStatus: policy.requireApproval ? "pending_approval" : "approved",
    addedByKind: by.kind,
    addedById:
      by.kind === "collection_link" ? by.collectionRequestId : by.kind === "api_key" ? by.actor.apiKeyId : by.actor.membershipId,
    addedByApiKeyId: person?.apiKeyId ?? null,
    addedByMembershipId: person?.membershipId ?? null,
    addedByUserId: person?.userId ?? null,
    detailsChangedAt: now,
    approvedBy: null,
    approvedAt: null,
    rejectionReason: null,
    usableFrom: policy.requireApproval ? null : new Date(now.getTime() + policy.coolingOffHours * 3_600_000),
  };
}

// The destination policy as plain values, and what weakens it (pure). ---------------------------------------

export type NameCheckMode = "off" | "warn" | "block";
export type ScreeningMode = "off" | "on";

export interface DestinationPolicy {
  readonly requireApproval: boolean;
  /** 0..720. */
  readonly coolingOffHours: number;
  readonly nameCheck: NameCheckMode;
  readonly screening: ScreeningMode;
  /** Null while the defaults apply (no row). */
  readonly updatedAt: Date | null;
  readonly updatedBy: string | null;
}

/** What applies when a Business never set a policy: every control off, as before the policy existed. */
export const DEFAULT_DESTINATION_POLICY: DestinationPolicy = {
  requireApproval: false,
  coolingOffHours: 0,
  nameCheck: "off",
  screening: "off",
  updatedAt: null,
  updatedBy: null,
};

export const MAX_COOLING_OFF_HOURS = 720;

const NAME_CHECK_STRENGTH: Readonly<Record<NameCheckMode, number>> = { off: 0, warn: 1, block: 2 };

export type DestinationPolicyControls = Pick<
  DestinationPolicy,
  "requireApproval" | "coolingOffHours" | "nameCheck" | "screening"
>;

/**
 * The fields whose change from `before` to `after` weakens the policy (lets money go somewhere sooner or with
 * fewer checks): approval no longer required, a shorter cooling-off, a laxer name check (block > warn > off),
 * screening turned off. Empty when nothing weakens (tightening, or no change). Four eyes on weakening a
 * control (control-changes module) hands such a change to a second admin.
 */
export function destinationPolicyWeakens(before: DestinationPolicyControls, after: DestinationPolicyControls): string[] {
  const weakened: string[] = [];
  if (before.requireApproval && !after.requireApproval) weakened.push("require_approval");
  if (after.coolingOffHours < before.coolingOffHours) weakened.push("cooling_off_hours");
  if (NAME_CHECK_STRENGTH[after.nameCheck] < NAME_CHECK_STRENGTH[before.nameCheck]) weakened.push("name_check");
  if (before.screening === "on" && after.screening === "off") weakened.push("screening");
  return weakened;
}

/**
 * The destination policy of the tenant (require_approval, cooling_off_hours, name_check, screening), or the
 * defaults (everything off) when the Business never set one. Runs on the handle given (a transaction or the
 * database); the one way other modules read the policy (issue 29: name check and screening read their modes).
 */
export async function findDestinationPolicy(db: Db, tenant: Tenant): Promise<DestinationPolicy> {
  const [row] = await db.select().from(destinationPolicies).where(ownedBy(destinationPolicies, tenant)).limit(1);
  if (row === undefined) return DEFAULT_DESTINATION_POLICY;
  return {
    requireApproval: row.requireApproval,
    coolingOffHours: row.coolingOffHours,
    nameCheck: row.nameCheck,
    screening: row.screening,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
}

export type DestinationRow = typeof destinations.$inferSelect;
export type EnrollmentDestinationRow = DestinationRow;

const ofBeneficiary = (tenant: Tenant, beneficiaryId: string) =>
  and(ownedBy(destinations, tenant), eq(destinations.beneficiaryId, beneficiaryId));

/** Live destinations of the Beneficiary whose verification status is one of `statuses`, oldest first. */
export async function listEnrollableDestinations(
  tx: Tx,
  tenant: Tenant,
  beneficiaryId: string,
  statuses: ReadonlyArray<"unverified" | "rejected">,
): Promise<EnrollmentDestinationRow[]> {
  return tx
    .select()
    .from(destinations)
    .where(and(ofBeneficiary(tenant, beneficiaryId), isNull(destinations.deletedAt), inArray(destinations.status, [...statuses])))
    .orderBy(destinations.id);
}

export async function setRailRejectionReason(
  tx: Tx,
  tenant: Tenant,
  beneficiaryId: string,
  destinationId: string,
  reason: string | null,
  at: Date,
): Promise<void> {
  await tx
    .update(destinations)
    .set({ railRejectionReason: reason, updatedAt: at })
    .where(and(ofBeneficiary(tenant, beneficiaryId), eq(destinations.id, destinationId)));
}

/**
 * Records an ACH notification of change on one of the tenant's destinations (deleted ones too: the
 * Business may have replaced the account already), replacing an earlier one. The account data is not
 * changed: the Business applies the correction (`…/notification-of-change/apply`) or registers the account
 * again. Returns the destination's Beneficiary, or null when the destination is not the tenant's.
 */
export async function recordNotificationOfChange(
  tx: Tx,
  tenant: Tenant,
  destinationId: string,
  notice: NotificationOfChange,
  at: Date,
): Promise<string | null> {
  const [updated] = await tx
    .update(destinations)
    .set({ notificationOfChange: notice, updatedAt: at })
    .where(and(ownedBy(destinations, tenant), eq(destinations.id, destinationId)))
    .returning({ beneficiaryId: destinations.beneficiaryId });
  return updated?.beneficiaryId ?? null;
}

/** The rail verified these destinations (deleted ones are left alone). */
export async function markDestinationsVerified(
  tx: Tx,
  tenant: Tenant,
  beneficiaryId: string,
  destinationIds: readonly string[],
  at: Date,
): Promise<void> {
  if (destinationIds.length === 0) return;
  await tx
    .update(destinations)
    .set({ status: "verified", railRejectionReason: null, updatedAt: at })
    .where(
      and(ofBeneficiary(tenant, beneficiaryId), inArray(destinations.id, [...destinationIds]), isNull(destinations.deletedAt)),
    );
}

/** The rail refused this destination; returns false when it is not a destination of the Beneficiary. */
export async function markDestinationRejected(
  tx: Tx,
  tenant: Tenant,
  beneficiaryId: string,
  destinationId: string,
  reason: string,
  at: Date,
): Promise<boolean> {
  const updated = await tx
    .update(destinations)
    .set({ status: "rejected", railRejectionReason: reason, updatedAt: at })
    .where(and(ofBeneficiary(tenant, beneficiaryId), eq(destinations.id, destinationId)))
    .returning({ id: destinations.id });
  return updated.length > 0;
}

/**
 * A destinations row a payout may be sent to: not deleted, routing validated (or verified by the rail), not
 * refused by the rail; the SQL twin of isPayoutUsable (destinations.service.ts). Columns are named with
 * their table: Drizzle renders columns unqualified in a single-table select, where a bare name could bind
 * to the outer query's table.
 */
const payoutUsableDestination = sql.raw(
  `"destinations"."deleted_at" is null and ("destinations"."validation_status" = 'validated' or "destinations"."status" = 'verified') and "destinations"."status" <> 'rejected' and "destinations"."approval_status" = 'approved'`,
);

/**
 * The number of payout-usable destinations of a Beneficiary, as a correlated subquery of the caller's query:
 * `beneficiaryId` names the outer row's id, qualified with its table (`"beneficiaries"."id"`).
 */
export function payoutUsableDestinationCount(beneficiaryId: SQL): SQL<number> {
  return sql<number>`(
  select count(*)::int from ${destinations}
  where "destinations"."beneficiary_id" = ${beneficiaryId} and ${payoutUsableDestination})`;
}

/** Payout-usable destinations per Beneficiary id (absent ids have none), for a page of rows. */
export async function countPayoutUsableDestinations(db: Db, beneficiaryIds: readonly string[]): Promise<Map<string, number>> {
  if (beneficiaryIds.length === 0) return new Map();
  const query = preparedQuery(db, "destinations_usable_counts", (d) =>
    d
      .select({ beneficiaryId: destinations.beneficiaryId, count: sql<number>`count(*)::int` })
      .from(destinations)
      .where(and(sql`${destinations.beneficiaryId} = any(${sql.placeholder("ids")}::uuid[])`, payoutUsableDestination))
      .groupBy(destinations.beneficiaryId),
  );
  const rows = await query.execute({ ids: `{${beneficiaryIds.join(",")}}` });
  return new Map(rows.map((row) => [row.beneficiaryId, row.count]));
}

const maskedDestinationColumns = {
  id: destinations.id,
  beneficiaryId: destinations.beneficiaryId,
  kind: destinations.kind,
  country: destinations.country,
  currency: destinations.currency,
  last4: destinations.last4,
  validationStatus: destinations.validationStatus,
  status: destinations.status,
  approvalStatus: destinations.approvalStatus,
  deletedAt: destinations.deletedAt,
};

export interface MaskedDestinationRow {
  readonly id: string;
  readonly beneficiaryId: string;
  readonly kind: "bank_account" | "card";
  readonly country: string;
  readonly currency: string;
  readonly last4: string;
  readonly validationStatus: "validated" | "unvalidated";
  readonly status: "unverified" | "verified" | "rejected";
  readonly approvalStatus: "approved" | "pending_approval" | "rejected";
  readonly deletedAt: Date | null;
}

/**
 * Live destinations of the given Beneficiaries of the tenant, grouped by Beneficiary, oldest first (the
 * Beneficiary export). Only masked columns: the encrypted account data is never even selected.
 */
export async function listLiveMaskedDestinationsOf(
  tx: Tx,
  tenant: Tenant,
  beneficiaryIds: readonly string[],
): Promise<MaskedDestinationRow[]> {
  if (beneficiaryIds.length === 0) return [];
  return tx
    .select(maskedDestinationColumns)
    .from(destinations)
    .where(
      and(
        ownedBy(destinations, tenant),
        inArray(destinations.beneficiaryId, [...beneficiaryIds]),
        isNull(destinations.deletedAt),
      ),
    )
    .orderBy(asc(destinations.beneficiaryId), asc(destinations.id));
}

/** Live destinations of the Beneficiaries (deleted ones cannot receive new payouts). */
/** What the creation gates read of a destination. */
export type GateDestination = Pick<
  DestinationRow,
  | "id"
  | "beneficiaryId"
  | "status"
  | "validationStatus"
  | "deletedAt"
  | "currency"
  | "last4"
  | "approvalStatus"
  | "usableFrom"
  | "detailsChangedAt"
  | "createdAt"
  | "nameCheckResult"
>;

/**
 * Live destinations of the Beneficiaries (deleted ones cannot receive new payouts), as the gates need them.
 * Plain SQL as a named statement on purpose: this runs in every creation's transaction, where a Drizzle
 * query (prepared or not) would be rebuilt each time, and building it cost more CPU than the database
 * spends answering it.
 */
export async function listLiveDestinationsForGates(
  tx: Tx,
  tenant: Tenant,
  beneficiaryIds: readonly string[],
): Promise<GateDestination[]> {
  if (beneficiaryIds.length === 0) return [];
  const rows = await namedQueryRows<{
    id: string;
    beneficiary_id: string;
    status: DestinationRow["status"];
    validation_status: DestinationRow["validationStatus"];
    currency: string;
    last4: string;
    approval_status: DestinationRow["approvalStatus"];
    usable_from: string | Date | null;
    details_changed_at: string | Date | null;
    created_at: string | Date;
    name_check_result: DestinationRow["nameCheckResult"];
  }>(
    tx,
    "payouts_live_destinations_for_gates",
    sql`select id, beneficiary_id, status, validation_status, currency, last4, approval_status, usable_from,
        details_changed_at, created_at, name_check_result from destinations
      where beneficiary_id = any(${toPgArray(beneficiaryIds)}::uuid[]) and business_id = ${tenant.businessId}::uuid
        and environment = ${tenant.environment}::environment and deleted_at is null
      order by id`,
  );
  return rows.map((row) => ({
    id: row.id,
    beneficiaryId: row.beneficiary_id,
    status: row.status,
    validationStatus: row.validation_status,
    deletedAt: null,
    currency: row.currency,
    last4: row.last4,
    nameCheckResult: row.name_check_result,
    approvalStatus: row.approval_status,
    usableFrom: asDate(row.usable_from),
    detailsChangedAt: asDate(row.details_changed_at),
    createdAt: asDate(row.created_at) ?? new Date(0),
  }));
}

/** A timestamp column read through plain SQL: a Date from node-postgres, a string or Date from PGlite. */
function asDate(value: string | Date | null): Date | null {
  if (value === null) return null;
  return value instanceof Date ? value : new Date(value);
}

/** A destination by id, deleted or not (an approved payout is still sent after deletion). */
export async function findDestinationById(db: Db, id: string): Promise<DestinationRow | null> {
  const [row] = await db.select().from(destinations).where(eq(destinations.id, id)).limit(1);
  return row ?? null;
}

/** A PostgreSQL array literal of text values (quoted and escaped), bound as one parameter. */
function toPgArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}

export type NewDestinationRow = typeof destinations.$inferInsert;

export async function insertDestinations(tx: Tx, rows: readonly NewDestinationRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(insertFromJson(destinations, rows));
}

/**
 * A read-only left join of a Beneficiary's live destinations whose fingerprint is one of `fingerprints` (the
 * import's duplicate check): `beneficiaryId` is the caller's Beneficiary id column. Columns are flat
 * (`destinationId`, `fingerprint`, `validationStatus`, `status`) and null when none matched.
 */
export function liveDestinationsWithFingerprintJoin(beneficiaryId: AnyPgColumn, fingerprints: readonly string[]) {
  return {
    table: destinations,
    on: and(
      eq(destinations.beneficiaryId, beneficiaryId),
      isNull(destinations.deletedAt),
      fingerprints.length === 0 ? sql`false` : inArray(destinations.fingerprint, [...fingerprints]),
    ),
    columns: {
      destinationId: destinations.id,
      fingerprint: destinations.fingerprint,
      validationStatus: destinations.validationStatus,
      status: destinations.status,
      approvalStatus: destinations.approvalStatus,
    },
  };
}

/** What a payout shows of its destination (the payouts module's `payee.destination`): masked values only. */
export interface DestinationSummary {
  readonly kind: "bank_account" | "card";
  readonly scheme: string;
  readonly country: string;
  readonly currency: string;
  readonly last4: string;
  readonly deleted: boolean;
  readonly approvalStatus: "approved" | "pending_approval" | "rejected";
  /** When its details were set: creation, or their last change. */
  readonly detailsChangedAt: Date;
  /** The latest payee name check's answer, and the bank's name with a close match (null until checked). */
  readonly nameCheckResult: DestinationRow["nameCheckResult"];
  readonly nameCheckBankName: string | null;
}

/**
 * The masked summaries of the tenant's destinations with these ids (deleted ones included: a payout keeps
 * naming where it went), in one query for a whole page of payouts. The encrypted account data is never selected.
 */
export async function findDestinationSummaries(
  db: Db,
  tenant: Tenant,
  ids: readonly string[],
): Promise<Map<string, DestinationSummary>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({
      id: destinations.id,
      kind: destinations.kind,
      scheme: destinations.scheme,
      country: destinations.country,
      currency: destinations.currency,
      last4: destinations.last4,
      deletedAt: destinations.deletedAt,
      approvalStatus: destinations.approvalStatus,
      detailsChangedAt: destinations.detailsChangedAt,
      createdAt: destinations.createdAt,
      nameCheckResult: destinations.nameCheckResult,
      nameCheckBankName: destinations.nameCheckBankName,
    })
    .from(destinations)
    .where(and(ownedBy(destinations, tenant), inArray(destinations.id, unique)));
  return new Map(
    rows.map(
      ({ id, deletedAt, detailsChangedAt, createdAt, ...row }) =>
        [id, { ...row, deleted: deletedAt !== null, detailsChangedAt: detailsChangedAt ?? createdAt }] as const,
    ),
  );
}
