// Drizzle queries for payouts, their idempotency keys, Decisions, attempts and the approval policy.
// Every tenant read filters on (business, environment); job-side reads go by payout id (the job carries it).
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import { type Db, namedQueryRows, preparedQuery, queryRows, type Tx } from "../../platform/db/client.js";
import { ownedBy, ownedByPlaceholders } from "../../platform/db/tenant-scope.js";
import {
  type BeneficiaryRow,
  beneficiaryIdsNamedLike,
  type GateBeneficiary,
  shareLockedGateBeneficiary,
} from "../beneficiaries/beneficiaries.shared.js";
import { approvalPolicies, payoutAttempts, payoutDecisions, payoutIdempotencyKeys, payouts } from "./payouts.schema.js";
import type { PayoutStatus } from "./payouts.state.js";

export type PayoutRow = typeof payouts.$inferSelect;
export type NewPayoutRow = typeof payouts.$inferInsert;
export type PayoutPatch = Partial<Omit<NewPayoutRow, "id" | "businessId" | "environment" | "createdAt">>;
export type DecisionRow = typeof payoutDecisions.$inferSelect;
export type NewDecisionRow = typeof payoutDecisions.$inferInsert;
export type AttemptRow = typeof payoutAttempts.$inferSelect;
export type PolicyRow = typeof approvalPolicies.$inferSelect;
export {
  type BeneficiaryRow,
  findBeneficiaryById,
  type GateBeneficiary,
  lockBeneficiariesShared,
} from "../beneficiaries/beneficiaries.shared.js";
export {
  type DestinationRow,
  findDestinationById,
  type GateDestination,
  listLiveDestinationsForGates as listLiveDestinationsOf,
} from "../destinations/destinations.shared.js";

// Idempotency ---------------------------------------------------------------------------------------------

/**
 * The first statement of a single creation, in one round trip:
 *  - the key's advisory try-lock (held to the end of the transaction) and, when it is ours, the claim of the
 *    key: inserted, or taken over when the existing claim is older than `windowStart` (expired). `locked`
 *    false: another transaction holds the key right now (in flight); `claimed` false with `locked` true: a
 *    live claim exists (a replay);
 *  - the Beneficiary, share-locked: archiving it or deleting one of its destinations (which lock it for
 *    update) waits for this creation to commit, and the other way round;
 *  - the tenant's approval policy.
 * The destinations are read by the next statement, after the share lock is held, so a deletion that
 * committed while this one waited for the lock is seen.
 */
export async function claimKeyAndReadGates(
  tx: Tx,
  claim: {
    tenant: Tenant;
    key: string;
    payoutId: string;
    fingerprint: string;
    now: Date;
    windowStart: Date;
    beneficiaryId: string;
  },
): Promise<{ locked: boolean; claimed: boolean; beneficiary: GateBeneficiary | null; policy: PolicyRow | null }> {
  const { tenant, key } = claim;
  const lockName = `payout-key:${tenant.businessId}:${tenant.environment}:${key}`;
  const [row] = await namedQueryRows<{
    locked: boolean;
    claimed: string | null;
    beneficiary: {
      id: string;
      archived_at: string | null;
      compliance_status: BeneficiaryRow["complianceStatus"];
      reacknowledgment_required: boolean;
      enrollment_status: BeneficiaryRow["enrollmentStatus"];
      declared_destination_id: string | null;
      created_at: string;
      screening_status: BeneficiaryRow["screeningStatus"];
    } | null;
    policy: { rules: unknown; maker_checker: boolean; updated_at: string } | null;
  }>(
    tx,
    "payouts_claim_key_and_read_gates",
    sql`with lock as (select pg_try_advisory_xact_lock(hashtextextended(${lockName}, 0)) as ok),
      ins as (
        insert into payout_idempotency_keys (business_id, environment, idempotency_key, payout_id, request_fingerprint, created_at)
        select ${tenant.businessId}::uuid, ${tenant.environment}::environment, ${key}, ${claim.payoutId}::uuid,
               ${claim.fingerprint}, ${claim.now.toISOString()}::timestamptz
        from lock where lock.ok
        on conflict (business_id, environment, idempotency_key) do update
          set payout_id = excluded.payout_id, request_fingerprint = excluded.request_fingerprint, created_at = excluded.created_at
          where payout_idempotency_keys.created_at <= ${claim.windowStart.toISOString()}::timestamptz
        returning payout_id),
      ben as (
${shareLockedGateBeneficiary(tenant, claim.beneficiaryId)})
      select (select ok from lock) as locked, (select payout_id from ins) as claimed,
        (select row_to_json(ben) from ben) as beneficiary,
        (select json_build_object('rules', rules, 'maker_checker', maker_checker, 'updated_at', updated_at)
           from approval_policies
           where business_id = ${tenant.businessId}::uuid and environment = ${tenant.environment}::environment) as policy`,
  );
  const b = row?.beneficiary ?? null;
  const p = row?.policy ?? null;
  return {
    locked: row?.locked === true,
    claimed: row?.claimed != null,
    beneficiary:
      b === null
        ? null
        : {
            id: b.id,
            archivedAt: b.archived_at === null ? null : new Date(b.archived_at),
            complianceStatus: b.compliance_status,
            reacknowledgmentRequired: b.reacknowledgment_required,
            enrollmentStatus: b.enrollment_status,
            declaredDestinationId: b.declared_destination_id,
            createdAt: new Date(b.created_at),
            screeningStatus: b.screening_status,
          },
    policy:
      p === null
        ? null
        : {
            businessId: tenant.businessId,
            environment: tenant.environment,
            rules: p.rules,
            makerChecker: p.maker_checker,
            updatedAt: new Date(p.updated_at),
          },
  };
}

export async function findKey(
  tx: Tx,
  tenant: Tenant,
  key: string,
): Promise<{ payoutId: string; requestFingerprint: string; createdAt: Date } | null> {
  const [row] = await tx
    .select({
      payoutId: payoutIdempotencyKeys.payoutId,
      requestFingerprint: payoutIdempotencyKeys.requestFingerprint,
      createdAt: payoutIdempotencyKeys.createdAt,
    })
    .from(payoutIdempotencyKeys)
    .where(and(ownedBy(payoutIdempotencyKeys, tenant), eq(payoutIdempotencyKeys.idempotencyKey, key)))
    .limit(1);
  return row ?? null;
}

/** Many keys at once (bulk): claims the ones free or expired, returns which were claimed. */
export async function claimKeys(
  tx: Tx,
  tenant: Tenant,
  claims: ReadonlyArray<{ key: string; payoutId: string; fingerprint: string }>,
  now: Date,
  windowStart: Date,
): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const rows = await queryRows<{ idempotency_key: string }>(
    tx,
    sql`insert into payout_idempotency_keys (business_id, environment, idempotency_key, payout_id, request_fingerprint, created_at)
      select ${tenant.businessId}::uuid, ${tenant.environment}::environment, k, p, f, ${now.toISOString()}::timestamptz
      from unnest(${toPgArray(claims.map((c) => c.key))}::text[], ${toPgArray(claims.map((c) => c.payoutId))}::uuid[],
                  ${toPgArray(claims.map((c) => c.fingerprint))}::text[]) as t(k, p, f)
      order by k
      on conflict (business_id, environment, idempotency_key) do update
        set payout_id = excluded.payout_id, request_fingerprint = excluded.request_fingerprint, created_at = excluded.created_at
        where payout_idempotency_keys.created_at <= ${windowStart.toISOString()}::timestamptz
      returning idempotency_key`,
  );
  return new Set(rows.map((row) => row.idempotency_key));
}

export async function releaseKeys(tx: Tx, tenant: Tenant, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await tx
    .delete(payoutIdempotencyKeys)
    .where(and(ownedBy(payoutIdempotencyKeys, tenant), inArray(payoutIdempotencyKeys.idempotencyKey, [...keys])));
}

export async function findKeys(
  tx: Tx,
  tenant: Tenant,
  keys: readonly string[],
): Promise<Map<string, { payoutId: string; requestFingerprint: string }>> {
  if (keys.length === 0) return new Map();
  const rows = await tx
    .select({
      key: payoutIdempotencyKeys.idempotencyKey,
      payoutId: payoutIdempotencyKeys.payoutId,
      requestFingerprint: payoutIdempotencyKeys.requestFingerprint,
    })
    .from(payoutIdempotencyKeys)
    .where(and(ownedBy(payoutIdempotencyKeys, tenant), inArray(payoutIdempotencyKeys.idempotencyKey, [...keys])));
  return new Map(rows.map((row) => [row.key, { payoutId: row.payoutId, requestFingerprint: row.requestFingerprint }]));
}

/** Session-free try-lock for a whole bulk upload (held to the end of the transaction). */
export async function tryLockUpload(tx: Tx, tenant: Tenant, uploadId: string): Promise<boolean> {
  const name = `payout-upload:${tenant.businessId}:${tenant.environment}:${uploadId}`;
  const [row] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(hashtextextended(${name}, 0)) as ok`);
  return row?.ok === true;
}

export function toPgArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}

// Beneficiaries and destinations as payouts see them -------------------------------------------------------

// Payouts -------------------------------------------------------------------------------------------------

/** The columns a new payout sets (newPayoutRow in payouts.creation.ts gives exactly these). */
const INSERTED_COLUMNS = [
  "id",
  "businessId",
  "environment",
  "beneficiaryId",
  "destinationId",
  "destinationLast4",
  "amountMinor",
  "currency",
  "externalRef",
  "idempotencyKey",
  "channel",
  "uploadId",
  "replacesPayoutId",
  "status",
  "createdByApiKeyId",
  "createdByMembershipId",
  "createdByUserId",
  "createdAt",
  "updatedAt",
] as const satisfies ReadonlyArray<keyof NewPayoutRow>;

/** A named prepared INSERT (one per transaction handle; the server plans it once per connection). */
export async function insertPayout(tx: Tx, row: NewPayoutRow): Promise<PayoutRow> {
  const statement = preparedQuery(tx, "payouts_insert_one", (d) =>
    d
      .insert(payouts)
      .values(Object.fromEntries(INSERTED_COLUMNS.map((column) => [column, sql.placeholder(column)])) as unknown as NewPayoutRow)
      .returning(),
  );
  const values: Record<string, unknown> = {};
  for (const column of INSERTED_COLUMNS) values[column] = row[column] ?? null;
  const [inserted] = await statement.execute(values);
  if (inserted === undefined) throw new Error("insert returned no row");
  return inserted;
}

export async function insertPayouts(tx: Tx, rows: readonly NewPayoutRow[]): Promise<PayoutRow[]> {
  if (rows.length === 0) return [];
  return tx
    .insert(payouts)
    .values([...rows])
    .returning();
}

export async function findPayout(db: Db, tenant: Tenant, id: string): Promise<PayoutRow | null> {
  const query = preparedQuery(db, "payouts_find_one", (d) =>
    d
      .select()
      .from(payouts)
      .where(and(eq(payouts.id, sql.placeholder("id")), ownedByPlaceholders(payouts))),
  );
  const [row] = await query.execute({ id, businessId: tenant.businessId, environment: tenant.environment });
  return row ?? null;
}

export async function findPayoutsByIds(tx: Tx, tenant: Tenant, ids: readonly string[]): Promise<Map<string, PayoutRow>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select()
    .from(payouts)
    .where(and(ownedBy(payouts, tenant), inArray(payouts.id, [...ids])));
  return new Map(rows.map((row) => [row.id, row]));
}

/** By id alone, locked for update: job handlers (the job carries an id we stored ourselves). */
export async function lockPayoutById(tx: Tx, id: string): Promise<PayoutRow | null> {
  const [row] = await tx.select().from(payouts).where(eq(payouts.id, id)).for("update");
  return row ?? null;
}

/**
 * The Beneficiary's approved payouts whose disbursement job ended on a hold before the rail heard of them
 * (a sanctions screening hit), locked in id order: the release dispatches them again.
 */
export async function lockDeferredPayoutsOf(tx: Tx, tenant: Tenant, beneficiaryId: string): Promise<PayoutRow[]> {
  return tx
    .select()
    .from(payouts)
    .where(
      and(
        ownedBy(payouts, tenant),
        eq(payouts.beneficiaryId, beneficiaryId),
        eq(payouts.status, "approved"),
        isNotNull(payouts.disbursementDeferredAt),
        isNull(payouts.disbursementStartedAt),
      ),
    )
    .orderBy(asc(payouts.id))
    .for("update");
}

/** One payout of the tenant, locked for update: a use case that decides on its state holds it until commit. */
export async function lockPayout(tx: Tx, tenant: Tenant, id: string): Promise<PayoutRow | null> {
  const [row] = await tx
    .select()
    .from(payouts)
    .where(and(eq(payouts.id, id), ownedBy(payouts, tenant)))
    .for("update");
  return row ?? null;
}

/** A nullable timestamp column still holding the value that was read. */
function stillEquals(column: typeof payouts.deliveredAt | typeof payouts.estimatedArrivalAt, value: Date | null) {
  return value === null ? isNull(column) : eq(column, value);
}

/**
 * The conditional update behind every transition. It applies only while the payout still holds every
 * value the state machine decided on (status, hold origin, whether the rail was called, delivered and
 * estimated arrival times), so a decision taken on a stale read loses instead of overwriting a newer
 * state. Use cases also lock the row before deciding; this condition is what makes a forgotten lock
 * fail safe.
 */
export async function updatePayoutIfUnchanged(tx: Tx, read: PayoutRow, patch: PayoutPatch): Promise<PayoutRow | null> {
  const [row] = await tx
    .update(payouts)
    .set(patch)
    .where(
      and(
        eq(payouts.id, read.id),
        eq(payouts.status, read.status),
        read.heldFromStatus === null ? isNull(payouts.heldFromStatus) : eq(payouts.heldFromStatus, read.heldFromStatus),
        read.disbursementStartedAt === null ? isNull(payouts.disbursementStartedAt) : isNotNull(payouts.disbursementStartedAt),
        stillEquals(payouts.deliveredAt, read.deliveredAt),
        stillEquals(payouts.estimatedArrivalAt, read.estimatedArrivalAt),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * updatePayoutIfUnchanged for many payouts, one statement per set of patched columns: each row updated only while
 * it still holds every value its decision read (the same condition, row by row, from a JSON record set). Answers
 * the rows updated, by id; a payout absent from the answer was moved by another transaction first.
 */
export async function updatePayoutsIfUnchanged(
  tx: Tx,
  moves: ReadonlyArray<{ readonly read: PayoutRow; readonly patch: PayoutPatch }>,
): Promise<Map<string, PayoutRow>> {
  const updated = new Map<string, PayoutRow>();
  const columns = getTableColumns(payouts);
  const groups = new Map<string, Array<(typeof moves)[number]>>();
  for (const move of moves) {
    const keys = Object.keys(move.patch)
      .filter((k) => move.patch[k as keyof PayoutPatch] !== undefined)
      .sort()
      .join(",");
    const group = groups.get(keys);
    if (group === undefined) groups.set(keys, [move]);
    else group.push(move);
  }
  for (const [keyList, group] of groups) {
    if (keyList === "") throw new Error("updatePayoutsIfUnchanged: a move with an empty patch");
    const keys = keyList.split(",") as Array<keyof PayoutPatch & keyof typeof columns>;
    const definitions = keys.map((key, i) => `c${i} ${columns[key].getSQLType()}`);
    const records = group.map(({ read, patch }) => {
      const record: Record<string, unknown> = {
        id: read.id,
        r_status: read.status,
        r_held: read.heldFromStatus,
        r_started: read.disbursementStartedAt !== null,
        r_delivered: read.deliveredAt?.toISOString() ?? null,
        r_arrival: read.estimatedArrivalAt?.toISOString() ?? null,
      };
      keys.forEach((key, i) => {
        const value = patch[key];
        const column = columns[key];
        record[`c${i}`] =
          value === null || value === undefined || /^jsonb?$/.test(column.getSQLType())
            ? (value ?? null)
            : column.mapToDriverValue(value);
      });
      return record;
    });
    const set = Object.fromEntries(keys.map((key, i) => [key, sql.raw(`v.c${i}`)])) as Record<string, SQL>;
    const rows = await tx
      .update(payouts)
      .set(set)
      .from(
        sql`jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as v(id uuid, r_status text, r_held text, r_started boolean,
              r_delivered timestamptz, r_arrival timestamptz, ${sql.raw(definitions.join(", "))})`,
      )
      .where(
        sql`${payouts.id} = v.id and ${payouts.status}::text = v.r_status
            and ${payouts.heldFromStatus}::text is not distinct from v.r_held
            and (${payouts.disbursementStartedAt} is not null) = v.r_started
            and ${payouts.deliveredAt} is not distinct from v.r_delivered
            and ${payouts.estimatedArrivalAt} is not distinct from v.r_arrival`,
      )
      .returning(columns);
    for (const row of rows) updated.set(row.id, row);
  }
  return updated;
}

/** Marks the start of the disbursement of a locked, approved payout (the step before the rail call). */
export async function updatePayoutIf(tx: Tx, id: string, from: PayoutStatus, patch: PayoutPatch): Promise<PayoutRow | null> {
  const [row] = await tx
    .update(payouts)
    .set(patch)
    .where(and(eq(payouts.id, id), eq(payouts.status, from)))
    .returning();
  return row ?? null;
}

/**
 * Of the failed payouts named, those that already have a live replacement (one not failed, rejected or
 * canceled: the condition of the partial unique index `payouts_live_replacement_key`).
 */
export async function findLiveReplacementsOf(db: Db, tenant: Tenant, replacedIds: readonly string[]): Promise<Set<string>> {
  if (replacedIds.length === 0) return new Set();
  const rows = await db
    .select({ replaced: payouts.replacesPayoutId })
    .from(payouts)
    .where(
      and(
        ownedBy(payouts, tenant),
        inArray(payouts.replacesPayoutId, [...replacedIds]),
        sql`${payouts.status} not in ('failed', 'rejected', 'canceled')`,
      ),
    );
  return new Set(rows.map((row) => row.replaced as string));
}

export async function hasPendingPayoutTo(tx: Tx, tenant: Tenant, destinationId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.destinationId, destinationId), eq(payouts.status, "pending_approval"), ownedBy(payouts, tenant)))
    .limit(1);
  return row !== undefined;
}

export interface PayoutFilters {
  readonly status?: PayoutStatus | undefined;
  readonly beneficiaryId?: string | undefined;
  /** Text the payee's name or nickname contains (ignoring case). */
  readonly payee?: string | undefined;
  readonly uploadId?: string | undefined;
  readonly externalRef?: string | undefined;
  /** The replaced payout's id: its replacements, live or ended. */
  readonly replacesPayoutId?: string | undefined;
  readonly channel?: string | undefined;
  readonly currency?: string | undefined;
  readonly createdFrom?: Date | undefined;
  /** Exclusive. */
  readonly createdTo?: Date | undefined;
  readonly updatedFrom?: Date | undefined;
  /** Exclusive. */
  readonly updatedTo?: Date | undefined;
  readonly amountMin?: number | undefined;
  readonly amountMax?: number | undefined;
}

/**
 * Payouts created from the first day start to the last (exclusive), summed per day and currency, except those
 * that never moved money and never will (rejected, canceled, failed). `dayStarts` holds the instant each day
 * begins and then the instant the last day ends, ascending: the days are cut by the caller (in the asked time
 * zone), so PostgreSQL needs no zone data. One grouped scan of the tenant's rows in the window.
 */
export async function sumVolumePerDay(
  db: Db,
  tenant: Tenant,
  dayStarts: readonly Date[],
): Promise<{ day: number; currency: string; count: number; amountMinor: number }[]> {
  const first = dayStarts[0];
  const end = dayStarts[dayStarts.length - 1];
  if (first === undefined || end === undefined || dayStarts.length < 2) return [];
  const thresholds = sql.join(
    dayStarts.map((d) => sql`${d.toISOString()}::timestamptz`),
    sql`, `,
  );
  // width_bucket: 1 for the first day, 2 for the second…
  const day = sql<number>`width_bucket(${payouts.createdAt}, array[${thresholds}])`;
  const rows = await db
    .select({
      day,
      currency: payouts.currency,
      count: sql<string>`count(*)::text`,
      amountMinor: sql<string>`sum(${payouts.amountMinor})::text`,
    })
    .from(payouts)
    .where(
      and(
        ownedBy(payouts, tenant),
        gte(payouts.createdAt, first),
        lt(payouts.createdAt, end),
        sql`${payouts.status} not in ('rejected', 'canceled', 'failed')`,
      ),
    )
    // By position: the bucket expression repeated would carry its thresholds as new parameters, which
    // PostgreSQL does not see as the selected expression.
    .groupBy(sql`1`, sql`2`)
    .orderBy(sql`1`, sql`2`);
  return rows.map((r) => ({
    day: Number(r.day) - 1,
    currency: r.currency,
    count: Number(r.count),
    amountMinor: Number(r.amountMinor),
  }));
}

/** Newest first by id (UUIDv7), after the cursor's id. */
export async function listPayoutsNewestFirst(
  db: Db,
  tenant: Tenant,
  filters: PayoutFilters,
  afterId: string | null,
  limit: number,
): Promise<PayoutRow[]> {
  return db
    .select()
    .from(payouts)
    .where(
      and(ownedBy(payouts, tenant), ...filterConditions(tenant, filters), afterId === null ? undefined : lt(payouts.id, afterId)),
    )
    .orderBy(desc(payouts.id))
    .limit(limit);
}

/** Changed at or after `since`, oldest change first, keyset on (updated_at, id). */
export async function listPayoutsUpdatedSince(
  db: Db,
  tenant: Tenant,
  filters: PayoutFilters,
  since: Date,
  after: { updatedAt: Date; id: string } | null,
  limit: number,
): Promise<PayoutRow[]> {
  return db
    .select()
    .from(payouts)
    .where(
      and(
        ownedBy(payouts, tenant),
        ...filterConditions(tenant, filters),
        gte(payouts.updatedAt, since),
        after === null
          ? undefined
          : or(gt(payouts.updatedAt, after.updatedAt), and(eq(payouts.updatedAt, after.updatedAt), gt(payouts.id, after.id))),
      ),
    )
    .orderBy(asc(payouts.updatedAt), asc(payouts.id))
    .limit(limit);
}

function filterConditions(tenant: Tenant, filters: PayoutFilters) {
  return [
    filters.status === undefined ? undefined : eq(payouts.status, filters.status),
    filters.beneficiaryId === undefined ? undefined : eq(payouts.beneficiaryId, filters.beneficiaryId),
    // The tenant's Beneficiaries named like it (a subquery of the owner's), then their payouts by the
    // (business, environment, beneficiary_id) index.
    filters.payee === undefined
      ? undefined
      : sql`${payouts.beneficiaryId} in (${beneficiaryIdsNamedLike(tenant, filters.payee)})`,
    filters.uploadId === undefined ? undefined : eq(payouts.uploadId, filters.uploadId),
    filters.externalRef === undefined ? undefined : eq(payouts.externalRef, filters.externalRef),
    filters.replacesPayoutId === undefined ? undefined : eq(payouts.replacesPayoutId, filters.replacesPayoutId),
    filters.channel === undefined ? undefined : eq(payouts.channel, filters.channel),
    filters.currency === undefined ? undefined : eq(payouts.currency, filters.currency),
    filters.createdFrom === undefined ? undefined : gte(payouts.createdAt, filters.createdFrom),
    filters.createdTo === undefined ? undefined : lt(payouts.createdAt, filters.createdTo),
    filters.updatedFrom === undefined ? undefined : gte(payouts.updatedAt, filters.updatedFrom),
    filters.updatedTo === undefined ? undefined : lt(payouts.updatedAt, filters.updatedTo),
    filters.amountMin === undefined ? undefined : gte(payouts.amountMinor, filters.amountMin),
    filters.amountMax === undefined ? undefined : lte(payouts.amountMinor, filters.amountMax),
  ];
}

// Decisions -----------------------------------------------------------------------------------------------

export async function insertDecision(tx: Tx, row: NewDecisionRow): Promise<DecisionRow> {
  const [inserted] = await tx.insert(payoutDecisions).values(row).returning();
  if (inserted === undefined) throw new Error("insert returned no row");
  return inserted;
}

export async function listDecisions(db: Db, tenant: Tenant, payoutId: string): Promise<DecisionRow[]> {
  return db
    .select()
    .from(payoutDecisions)
    .where(and(eq(payoutDecisions.payoutId, payoutId), ownedBy(payoutDecisions, tenant)))
    .orderBy(desc(payoutDecisions.createdAt), desc(payoutDecisions.id));
}

// Attempts ------------------------------------------------------------------------------------------------

export async function findLatestAttempt(tx: Tx, payoutId: string): Promise<AttemptRow | null> {
  const [row] = await tx
    .select()
    .from(payoutAttempts)
    .where(eq(payoutAttempts.payoutId, payoutId))
    .orderBy(desc(payoutAttempts.attemptNumber))
    .limit(1);
  return row ?? null;
}

export async function insertAttempt(tx: Tx, row: typeof payoutAttempts.$inferInsert): Promise<AttemptRow> {
  const [inserted] = await tx.insert(payoutAttempts).values(row).returning();
  if (inserted === undefined) throw new Error("insert returned no row");
  return inserted;
}

/** Conditional: only an attempt still `submitting` is resolved (a repeat of the job finds it resolved). */
/**
 * Removes an attempt that never reached its rail (still `submitting`, waiting for a bank file's cut-off): the
 * payout goes back to "not dispatched", and a later dispatch records attempt 1 again with the same key.
 */
export async function deleteUnsentAttempt(tx: Tx, id: string): Promise<boolean> {
  const rows = await tx
    .delete(payoutAttempts)
    .where(and(eq(payoutAttempts.id, id), eq(payoutAttempts.status, "submitting")))
    .returning({ id: payoutAttempts.id });
  return rows.length === 1;
}

export async function resolveAttempt(
  tx: Tx,
  id: string,
  patch: { status: "submitted" | "refused"; railRef: string | null; failureReason: string | null; updatedAt: Date },
): Promise<boolean> {
  const rows = await tx
    .update(payoutAttempts)
    .set(patch)
    .where(and(eq(payoutAttempts.id, id), eq(payoutAttempts.status, "submitting")))
    .returning({ id: payoutAttempts.id });
  return rows.length === 1;
}

// Approval policy -----------------------------------------------------------------------------------------

/** The tenant's policy row, locked for the replacing transaction (a first policy has no row to lock). */
export async function lockPolicy(tx: Tx, tenant: Tenant): Promise<PolicyRow | null> {
  const [row] = await tx.select().from(approvalPolicies).where(ownedBy(approvalPolicies, tenant)).for("update");
  return row ?? null;
}

export async function findPolicy(db: Db, tenant: Tenant): Promise<PolicyRow | null> {
  const query = preparedQuery(db, "payouts_policy_of_tenant", (d) =>
    d
      .select()
      .from(approvalPolicies)
      .where(and(ownedByPlaceholders(approvalPolicies))),
  );
  const [row] = await query.execute({ businessId: tenant.businessId, environment: tenant.environment });
  return row ?? null;
}

export async function upsertPolicy(db: Db, row: PolicyRow): Promise<PolicyRow> {
  const [saved] = await db
    .insert(approvalPolicies)
    .values(row)
    .onConflictDoUpdate({
      target: [approvalPolicies.businessId, approvalPolicies.environment],
      set: { rules: row.rules, makerChecker: row.makerChecker, updatedAt: row.updatedAt },
    })
    .returning();
  if (saved === undefined) throw new Error("upsert returned no row");
  return saved;
}

// Masking backfill --------------------------------------------------------------------------------------

// Funding (issue 27) ------------------------------------------------------------------------------------------

/**
 * The payouts waiting for funds on one funding account, in approval order, locked `FOR UPDATE SKIP LOCKED`: the
 * release holds the funding row, so a payout locked by a cancel or an expiry is skipped, never waited for.
 */
export async function lockWaitingForFunding(tx: Tx, fundingAccountId: string, limit: number): Promise<PayoutRow[]> {
  return tx
    .select()
    .from(payouts)
    .where(
      and(
        eq(payouts.fundingAccountId, fundingAccountId),
        eq(payouts.fundingStatus, "awaiting_funds"),
        eq(payouts.status, "approved"),
      ),
    )
    .orderBy(asc(payouts.awaitingFundsSince), asc(payouts.id))
    .limit(limit)
    .for("update", { skipLocked: true });
}

/** Writes the payout's funding columns (its row is locked by the caller). */
export async function setPayoutFunding(
  tx: Tx,
  id: string,
  patch: Pick<PayoutPatch, "fundingStatus" | "fundingAccountId" | "awaitingFundsSince">,
): Promise<PayoutRow> {
  const [row] = await tx.update(payouts).set(patch).where(eq(payouts.id, id)).returning();
  if (row === undefined) throw new Error("payout vanished under its lock");
  return row;
}

/**
 * The first payout (by creation, then id) to each of these destinations of the tenant: what "first payout to
 * this account" on a payout's payee is decided by. One query for a page of payouts.
 */
export async function findFirstPayoutIdsTo(
  db: Db,
  tenant: Tenant,
  destinationIds: readonly string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(destinationIds)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([payouts.destinationId], { destinationId: payouts.destinationId, id: payouts.id })
    .from(payouts)
    .where(and(ownedBy(payouts, tenant), inArray(payouts.destinationId, unique)))
    .orderBy(payouts.destinationId, asc(payouts.createdAt), asc(payouts.id));
  return new Map(rows.map((row) => [row.destinationId, row.id]));
}
