// Drizzle queries for webhook subscriptions, deliveries and attempts, always scoped by tenant.
import { and, asc, desc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import { type Db, namedQueryRows, preparedQuery, queryRows, type Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { events } from "../../platform/events/events.schema.js";
import { enqueueFromRowsSql, type GroupedEffects, wakeWorkersSql } from "../../platform/jobs/job-store.js";
import { WEBHOOK_DELIVER_JOB } from "./webhooks.jobs.js";
import { webhookAttempts, webhookDeliveries, webhookSubscriptions } from "./webhooks.schema.js";

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type DeliveryStatus = DeliveryRow["status"];

export async function findSubscription(
  db: Db,
  tenant: Tenant,
  options: { lock?: boolean } = {},
): Promise<SubscriptionRow | null> {
  const query = db.select().from(webhookSubscriptions).where(ownedBy(webhookSubscriptions, tenant)).limit(1);
  const [row] = options.lock ? await query.for("update") : await query;
  return row ?? null;
}

/** Creates the tenant's subscription, or replaces url, events, secret and enabled on the existing one (same id). */
export async function upsertSubscription(
  tx: Tx,
  row: Omit<SubscriptionRow, "updatedAt">,
): Promise<{ row: SubscriptionRow; created: boolean }> {
  const [saved] = await queryRows<{ id: string; created: boolean }>(
    tx,
    sql`
      insert into webhook_subscriptions (id, business_id, environment, url, enabled_events, enabled, secret_encrypted, created_at, updated_at)
      values (${row.id}, ${row.businessId}, ${row.environment}, ${row.url}, ${sql.raw("array[")}${sql.join(
        row.enabledEvents.map((type) => sql`${type}`),
        sql`, `,
      )}${sql.raw("]::text[]")}, true, ${row.secretEncrypted}, ${row.createdAt.toISOString()}::timestamptz, ${row.createdAt.toISOString()}::timestamptz)
      on conflict (business_id, environment) do update set
        url = excluded.url,
        enabled_events = excluded.enabled_events,
        enabled = true,
        secret_encrypted = excluded.secret_encrypted,
        updated_at = excluded.updated_at
      returning id, (xmax = 0) as created`,
  );
  if (saved === undefined) throw new Error("subscription upsert returned no row");
  const found = await tx.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, saved.id)).limit(1);
  if (found[0] === undefined) throw new Error("subscription vanished inside its own transaction");
  return { row: found[0], created: saved.created };
}

export async function updateSubscription(
  tx: Tx,
  id: string,
  changes: Partial<Pick<SubscriptionRow, "url" | "enabledEvents" | "enabled">> & { updatedAt: Date },
): Promise<SubscriptionRow> {
  const [row] = await tx.update(webhookSubscriptions).set(changes).where(eq(webhookSubscriptions.id, id)).returning();
  if (row === undefined) throw new Error("subscription update returned no row");
  return row;
}

export async function deleteSubscription(tx: Tx, tenant: Tenant): Promise<SubscriptionRow | null> {
  const [row] = await tx.delete(webhookSubscriptions).where(ownedBy(webhookSubscriptions, tenant)).returning();
  return row ?? null;
}

/**
 * Drops the tenant's pending deliveries (all of them, or those whose type is not in `keepTypes`): their
 * queued attempt finds them dropped and sends nothing; re-enabling never revives them.
 */
export async function dropPendingDeliveries(
  tx: Tx,
  tenant: Tenant,
  reason: string,
  at: Date,
  keepTypes: readonly string[] | null,
): Promise<number> {
  const conditions = [ownedBy(webhookDeliveries, tenant), eq(webhookDeliveries.status, "pending")];
  if (keepTypes !== null) {
    conditions.push(
      keepTypes.length === 0
        ? sql`true`
        : sql`${webhookDeliveries.eventType} <> all(${sql.raw("array[")}${sql.join(
            keepTypes.map((type) => sql`${type}`),
            sql`, `,
          )}${sql.raw("]::text[]")})`,
    );
  }
  const rows = await tx
    .update(webhookDeliveries)
    .set({ status: "dropped", finalReason: reason, nextAttemptAt: null, updatedAt: at })
    .where(and(...conditions))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/**
 * Called for every recorded event, inside its transaction, as one statement: an indexed read of the
 * tenant's subscription; only when it is enabled and lists the type, the delivery row and its first
 * attempt's job (built by `firstAttemptJob`, conditioned on the delivery row) and a `pg_notify` that wakes
 * idle workers at commit. Payout creation records events at 1,000/s: one round trip each.
 */
export async function createDeliveryForEvent(
  db: Db,
  event: { id: string; tenant: Tenant; type: string },
  at: Date,
  firstAttemptJob: (condition: SQL) => SQL,
): Promise<boolean> {
  const now = at.toISOString();
  // Named (parsed and planned once per connection); `firstAttemptJob` must keep its text fixed (values only).
  const rows = await namedQueryRows<{ created: string | number }>(
    db,
    "webhook_delivery_for_event",
    sql`
      with created as (
        insert into webhook_deliveries
          (id, business_id, environment, subscription_id, event_type, status, series, attempts_in_series, next_attempt_at, created_at, updated_at)
        select ${event.id}, s.business_id, s.environment, s.id, ${event.type}, 'pending', 1, 0, ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
        from webhook_subscriptions s
        where s.business_id = ${event.tenant.businessId} and s.environment = ${event.tenant.environment}
          and s.enabled and ${event.type} = any(s.enabled_events)
        returning id
      ),
      job as (${firstAttemptJob(sql`exists (select 1 from created)`)}),
      wake as (select ${wakeWorkersSql()} from created)
      select (select count(*) from created) as created, (select count(*) from wake) as woken`,
  );
  return Number(rows[0]?.created ?? 0) > 0;
}

/**
 * `createDeliveryForEvent` for many events of one transaction in one statement: a delivery (and its first
 * attempt's job, `jobIds` in the events' order) for each event whose tenant's enabled subscription lists its type.
 */
export async function createDeliveriesForEvents(
  db: Db,
  list: ReadonlyArray<{ id: string; tenant: Tenant; type: string; jobId: string }>,
  at: Date,
): Promise<number> {
  if (list.length === 0) return 0;
  const now = at.toISOString();
  const input = list.map((e) => ({
    id: e.id,
    business_id: e.tenant.businessId,
    environment: e.tenant.environment,
    type: e.type,
    job_id: e.jobId,
  }));
  const rows = await queryRows<{ created: string | number }>(
    db,
    sql`
      with input as (
        select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
          as v(id uuid, business_id uuid, environment text, type text, job_id uuid)
      ),
      created as (
        insert into webhook_deliveries
          (id, business_id, environment, subscription_id, event_type, status, series, attempts_in_series, next_attempt_at, created_at, updated_at)
        select i.id, s.business_id, s.environment, s.id, i.type, 'pending', 1, 0, ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
        from input i join webhook_subscriptions s
          on s.business_id = i.business_id and s.environment = i.environment::environment and s.enabled and i.type = any(s.enabled_events)
        returning id
      ),
      job as (${enqueueFromRowsSql(
        WEBHOOK_DELIVER_JOB,
        {
          id: sql`i.job_id`,
          runAt: sql`${now}::timestamptz`,
          now: sql`${now}::timestamptz`,
          payload: { delivery_id: sql`c.id::text`, series: sql`1`, attempt: sql`1` },
        },
        sql`from created c join input i on i.id = c.id`,
      )}),
      wake as (select ${wakeWorkersSql()} where exists (select 1 from created))
      select (select count(*) from created) as created, (select count(*) from job) as jobs, (select count(*) from wake) as woken`,
  );
  return Number(rows[0]?.created ?? 0);
}

export interface DeliveryForAttempt {
  readonly delivery: DeliveryRow;
  readonly event: { occurredAt: Date; sequence: number; data: unknown; type: string; apiVersion: string };
  /** The tenant's current subscription, whichever it is (null when deleted). */
  readonly subscription: SubscriptionRow | null;
}

/**
 * The deliveries of a claimed batch of attempts, with their events and subscriptions, in one round trip (the
 * worker claims attempts in batches and starts them together). Prepared, with the ids as one array
 * parameter. Missing ids are absent from the map.
 */
export async function findDeliveriesForAttempts(
  db: Db,
  deliveryIds: readonly string[],
): Promise<Map<string, DeliveryForAttempt>> {
  const query = preparedQuery(db, "webhook_deliveries_for_attempts", (d) =>
    d
      .select({
        delivery: webhookDeliveries,
        event: {
          occurredAt: events.occurredAt,
          sequence: events.sequence,
          data: events.data,
          type: events.type,
          apiVersion: events.apiVersion,
        },
        subscription: webhookSubscriptions,
      })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.id))
      .leftJoin(
        webhookSubscriptions,
        and(
          eq(webhookSubscriptions.businessId, webhookDeliveries.businessId),
          eq(webhookSubscriptions.environment, webhookDeliveries.environment),
        ),
      )
      .where(sql`${webhookDeliveries.id} = any(${sql.placeholder("ids")}::uuid[])`),
  );
  const rows = await query.execute({ ids: [...deliveryIds] });
  return new Map(rows.map((row) => [row.delivery.id, row]));
}

/**
 * The effects that record an attempt and move its delivery on, as JobStore.completeGrouped effects: one
 * fixed-text named statement for many attempts, applied only with each job's completion under its lease. Per completed job (`done`): the attempt row; the delivery's conditional move; and, only where
 * the delivery moved and a next attempt is due, its job (payload and dedupe key from WEBHOOK_DELIVER_JOB).
 * Values per attempt: see `attemptOutcomeValues`.
 */
export function attemptOutcomeGroupedEffects(): GroupedEffects {
  return {
    name: "webhook_attempt_outcomes",
    columns: [
      { name: "attempt_id", type: "uuid" },
      { name: "delivery_id", type: "uuid" },
      { name: "series", type: "integer" },
      { name: "attempt_number", type: "integer" },
      { name: "sent_at", type: "timestamptz" },
      { name: "duration_ms", type: "integer" },
      { name: "succeeded", type: "boolean" },
      { name: "status_code", type: "integer" },
      { name: "error_class", type: "text" },
      { name: "finished_at", type: "timestamptz" },
      // text, cast below: PGlite cannot serialize an array parameter of an enum type.
      { name: "new_status", type: "text" },
      { name: "next_attempt_at", type: "timestamptz" },
      { name: "final_reason", type: "text" },
      { name: "next_job_id", type: "uuid" },
    ],
    effects: sql`
      logged_attempt as (
        insert into webhook_attempts (id, delivery_id, series, attempt_number, sent_at, duration_ms, succeeded, status_code, error_class, created_at)
        select attempt_id, delivery_id, series, attempt_number, sent_at, duration_ms, succeeded, status_code, error_class, finished_at
        from done
        returning id
      ),
      moved_delivery as (
        update webhook_deliveries d set
          status = done.new_status::webhook_delivery_status, attempts_in_series = done.attempt_number, next_attempt_at = done.next_attempt_at,
          final_reason = done.final_reason, last_attempt_at = done.sent_at, updated_at = done.finished_at
        from done
        where d.id = done.delivery_id and d.status = 'pending' and d.series = done.series
          and d.attempts_in_series = done.attempt_number - 1
        returning d.id
      ),
      next_attempt as (${enqueueFromRowsSql(
        WEBHOOK_DELIVER_JOB,
        {
          id: sql`done.next_job_id`,
          runAt: sql`done.next_attempt_at`,
          now: sql`done.finished_at`,
          payload: { delivery_id: sql`done.delivery_id`, series: sql`done.series`, attempt: sql`done.attempt_number + 1` },
        },
        sql`from done join moved_delivery m on m.id = done.delivery_id
          where done.next_job_id is not null and done.next_attempt_at is not null`,
      )})`,
  };
}

/** The values of one attempt for attemptOutcomeGroupedEffects, in its column order. */
export function attemptOutcomeValues(
  attempt: AttemptRow,
  change: Pick<DeliveryRow, "status" | "nextAttemptAt" | "finalReason">,
  nextJobId: string | null,
): unknown[] {
  return [
    attempt.id,
    attempt.deliveryId,
    attempt.series,
    attempt.attemptNumber,
    attempt.sentAt.toISOString(),
    attempt.durationMs,
    attempt.succeeded,
    attempt.statusCode,
    attempt.errorClass,
    attempt.createdAt.toISOString(),
    change.status,
    change.nextAttemptAt === null ? null : change.nextAttemptAt.toISOString(),
    change.finalReason,
    nextJobId,
  ];
}

export async function markDeliveryDropped(tx: Tx, id: string, series: number, reason: string, at: Date): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ status: "dropped", finalReason: reason, nextAttemptAt: null, updatedAt: at })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "pending"), eq(webhookDeliveries.series, series)));
}

export async function lockDelivery(tx: Tx, tenant: Tenant, id: string): Promise<DeliveryRow | null> {
  const [row] = await tx
    .select()
    .from(webhookDeliveries)
    .where(and(ownedBy(webhookDeliveries, tenant), eq(webhookDeliveries.id, id)))
    .limit(1)
    .for("update");
  return row ?? null;
}

export async function restartDelivery(tx: Tx, id: string, subscriptionId: string, at: Date): Promise<DeliveryRow> {
  const [row] = await tx
    .update(webhookDeliveries)
    .set({
      status: "pending",
      series: sql`${webhookDeliveries.series} + 1`,
      attemptsInSeries: 0,
      subscriptionId,
      nextAttemptAt: at,
      finalReason: null,
      updatedAt: at,
    })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "abandoned")))
    .returning();
  if (row === undefined) throw new Error("delivery restart updated no row");
  return row;
}

export interface DeliveryListFilter {
  readonly eventType?: string;
  readonly status?: DeliveryStatus;
  readonly since?: Date;
  readonly until?: Date;
  readonly subjectId?: string;
  readonly afterId: string | null;
  readonly limit: number;
}

export interface DeliveryWithEvent {
  readonly delivery: DeliveryRow;
  readonly occurredAt: Date;
  readonly sequence: number;
}

/** Newest first (delivery ids are the events' UUIDv7 ids), `limit` + 1 rows to tell whether a next page exists. */
export async function listDeliveries(db: Db, tenant: Tenant, filter: DeliveryListFilter): Promise<DeliveryWithEvent[]> {
  const conditions = [ownedBy(webhookDeliveries, tenant)];
  if (filter.eventType !== undefined) conditions.push(eq(webhookDeliveries.eventType, filter.eventType));
  if (filter.status !== undefined) conditions.push(eq(webhookDeliveries.status, filter.status));
  if (filter.since !== undefined) conditions.push(gte(webhookDeliveries.createdAt, filter.since));
  if (filter.until !== undefined) conditions.push(lt(webhookDeliveries.createdAt, filter.until));
  if (filter.subjectId !== undefined) conditions.push(eq(events.subjectId, filter.subjectId));
  if (filter.afterId !== null) conditions.push(lt(webhookDeliveries.id, filter.afterId));
  const rows = await db
    .select({ delivery: webhookDeliveries, occurredAt: events.occurredAt, sequence: events.sequence })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.id))
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.id))
    .limit(filter.limit + 1);
  return rows;
}

export async function findDelivery(db: Db, tenant: Tenant, id: string): Promise<DeliveryWithEvent | null> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, occurredAt: events.occurredAt, sequence: events.sequence })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.id))
    .where(and(ownedBy(webhookDeliveries, tenant), eq(webhookDeliveries.id, id)))
    .limit(1);
  return row ?? null;
}

export async function listAttempts(db: Db, deliveryIds: readonly string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, [...deliveryIds]))
    .orderBy(asc(webhookAttempts.series), asc(webhookAttempts.attemptNumber));
}
