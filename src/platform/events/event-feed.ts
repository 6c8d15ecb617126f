// Reads of the events outbox for the events API: the newest-first list, one event, and the forward feed.
// The platform owns the `events` table, so its reads live here; the events module serves them over HTTP.
//
// The forward feed is ordered by (tx_id, sequence), where tx_id is the writing transaction's id, and only
// returns events whose transaction id is below the reading snapshot's oldest running transaction of this
// database (the "horizon", below). Every transaction below the horizon has ended, so the
// set of events below it is final; every event committed later belongs to a transaction at or above it,
// so it sorts after anything already returned. A cursor (the last (tx_id, sequence) returned) therefore
// never skips an event, whatever order concurrent transactions commit in. docs/decisions.md, "Events API".
import { and, asc, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Tenant } from "../auth/actor.js";
import { type Db, queryRows } from "../db/client.js";
import { AppError } from "../errors.js";
import { events } from "./events.schema.js";

export interface EventFilter {
  readonly type?: string;
  readonly subjectId?: string;
  /** Recorded at or after. */
  readonly since?: Date;
  /** Recorded before. */
  readonly until?: Date;
}

export interface StoredEvent {
  readonly id: string;
  readonly type: string;
  readonly apiVersion: string;
  readonly occurredAt: Date;
  readonly sequence: number;
  readonly data: unknown;
  readonly createdAt: Date;
  readonly txId: number;
}

/** A position in the forward feed: after the event with this (tx_id, sequence). */
export interface FeedPosition {
  readonly txId: number;
  readonly sequence: number;
}

const columns = {
  id: events.id,
  type: events.type,
  apiVersion: events.apiVersion,
  occurredAt: events.occurredAt,
  sequence: events.sequence,
  data: events.data,
  createdAt: events.createdAt,
  txId: events.txId,
};

/**
 * The reading statement's horizon, comparable with tx_id: the oldest transaction that was still running when
 * the statement's snapshot was taken (its `xip`), or the snapshot's xmax when none was. Transactions of other
 * databases on the same server are left out: they are running now in a backend connected to another database
 * (`pg_stat_activity`), so they cannot write this database's events. Any other running transaction counts,
 * including one that has ended since the snapshot (its events are not visible to this statement) and one
 * whose database cannot be told (no `datid`, a prepared transaction, too few privileges to see it): holding
 * back is safe, skipping is not. pg_stat_activity's `backend_xid` is 32-bit, so it is compared with the low
 * 32 bits of the 64-bit id.
 */
const HORIZON = sql`(select least(
    pg_snapshot_xmax(pg_current_snapshot())::text::bigint,
    (select min(running::text::bigint) from pg_snapshot_xip(pg_current_snapshot()) as running
      where not exists (
        select 1 from pg_stat_activity other
        where other.datid <> (select oid from pg_database where datname = current_database())
          and other.backend_xid::text::bigint = running::text::bigint % 4294967296))))`;

function conditionsOf(tenant: Tenant, filter: EventFilter): SQL[] {
  const conditions: SQL[] = [eq(events.businessId, tenant.businessId), eq(events.environment, tenant.environment)];
  if (filter.type !== undefined) conditions.push(eq(events.type, filter.type));
  if (filter.subjectId !== undefined) conditions.push(eq(events.subjectId, filter.subjectId));
  if (filter.since !== undefined) conditions.push(gte(events.createdAt, filter.since));
  if (filter.until !== undefined) conditions.push(lt(events.createdAt, filter.until));
  return conditions;
}

/** Newest first (ids are UUIDv7), `limit` + 1 rows to tell whether a next page exists. */
export async function listEventsNewestFirst(
  db: Db,
  tenant: Tenant,
  filter: EventFilter & { readonly beforeId: string | null; readonly limit: number },
): Promise<StoredEvent[]> {
  const conditions = conditionsOf(tenant, filter);
  if (filter.beforeId !== null) conditions.push(lt(events.id, filter.beforeId));
  return db
    .select(columns)
    .from(events)
    .where(and(...conditions))
    .orderBy(desc(events.id))
    .limit(filter.limit + 1);
}

export async function findEventOf(db: Db, tenant: Tenant, id: string): Promise<StoredEvent | null> {
  const [row] = await db
    .select(columns)
    .from(events)
    .where(and(eq(events.id, id), ...conditionsOf(tenant, {})))
    .limit(1);
  return row ?? null;
}

/**
 * Up to `limit` + 1 events after `position`, oldest first in feed order, below the horizon only. `heldBack`
 * says whether, when none came back, committed events after `position` are waiting for an older
 * transaction to end (the caller looks again shortly: that transaction may record no event of its own,
 * so no NOTIFY would announce their release).
 */
export async function readFeedAfter(
  db: Db,
  tenant: Tenant,
  position: FeedPosition,
  filter: EventFilter & { readonly limit: number },
): Promise<{ rows: StoredEvent[]; heldBack: boolean }> {
  const conditions = conditionsOf(tenant, filter);
  const after = sql`(${events.txId}, ${events.sequence}) > (${position.txId}::bigint, ${position.sequence}::bigint)`;
  const rows = await db
    .select(columns)
    .from(events)
    .where(and(...conditions, after, lt(events.txId, HORIZON)))
    .orderBy(asc(events.txId), asc(events.sequence))
    .limit(filter.limit + 1);
  if (rows.length > 0) return { rows, heldBack: false };
  const held = await db
    .select({ id: events.id })
    .from(events)
    .where(and(...conditions, after, gte(events.txId, HORIZON)))
    .limit(1);
  return { rows, heldBack: held.length > 0 };
}

/**
 * The position "now": before every event whose transaction is at or above the horizon, after every event
 * below it (all of which have committed already).
 */
export async function feedHorizon(db: Db): Promise<FeedPosition> {
  const [row] = await queryRows<{ horizon: string | number }>(db, sql`select ${HORIZON} as horizon`);
  if (row === undefined) throw new Error("horizon query returned no row");
  // Sequences start at 1, so (horizon, 0) is before every event of the horizon's own transaction.
  return { txId: Number(row.horizon), sequence: 0 };
}

/** The very start of the feed. */
export const FEED_START: FeedPosition = { txId: 0, sequence: 0 };

export function encodeFeedCursor(position: FeedPosition): string {
  return Buffer.from(JSON.stringify({ tx: String(position.txId), seq: String(position.sequence) }), "utf8").toString("base64url");
}

const DIGITS = /^\d{1,15}$/;

/** A forward cursor we issued; anything else is a 400 on `field`. */
export function decodeFeedCursor(cursor: string, field: string): FeedPosition {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { tx?: unknown; seq?: unknown };
    if (typeof parsed.tx === "string" && typeof parsed.seq === "string" && DIGITS.test(parsed.tx) && DIGITS.test(parsed.seq)) {
      return { txId: Number(parsed.tx), sequence: Number(parsed.seq) };
    }
  } catch {
    // fall through to the error below
  }
  throw new AppError("validation_failed", {
    details: [{ field, code: "invalid_format", message: "Not a feed cursor returned by this API (or `now`, `start`)." }],
  });
}
