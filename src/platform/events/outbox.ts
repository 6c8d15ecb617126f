// The events outbox. An event is written by the same transaction as the change it reports, so it exists
// if and only if that change committed. Webhook delivery reads from here after commit.

import { sql } from "drizzle-orm";
import type { Tenant } from "../auth/actor.js";
import type { Clock } from "../clock.js";
import { type Db, namedQueryRows, queryRows } from "../db/client.js";
import type { IdGenerator } from "../ids.js";

/** Version of the `data` shape (spec: Versioning 2). A breaking change to any `data` changes it. */
export const EVENT_API_VERSION = "2026-05-27";

export const EVENT_TYPES = [
  "payout.disbursement_submitted",
  "payout.acknowledged",
  "payout.estimated_arrival_at",
  "payout.disbursed",
  "payout.delivered",
  "payout.settled",
  "payout.canceled",
  "payout.rejected",
  "payout.failed",
  "payout.returned",
  "payout.awaiting_funds",
  "payout.funds_reserved",
  "funding_account.low_balance",
  "beneficiary.details_submitted",
  "beneficiary.bank_account.registered",
  "beneficiary.enrollment_rejected",
  "beneficiary.bank_account.notification_of_change",
  "beneficiary.bank_account.corrected",
  "beneficiary.bank_account.review_required",
  "beneficiary.bank_account.approved",
  "beneficiary.bank_account.rejected",
  "bank_file.refused",
  "bank_file.item_unmatched",
  "top_up.approved",
  "top_up.rejected",
  "payout.reconciled",
  "statement_line.needs_review",
  "funding_account.credited",
  "funding_account.balance_mismatch",
  "beneficiary.screening_hit",
  "beneficiary.screening_cleared",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * NOTIFY channel of recorded events; the payload is the environment's feed key (`eventFeedKey`). Delivered
 * at commit, so a listener that hears it can read the event.
 */
export const EVENTS_RECORDED_CHANNEL = "events_recorded";

/** `<business id>:<environment>`: the NOTIFY payload naming whose feed has new events. */
export function eventFeedKey(tenant: Tenant): string {
  return `${tenant.businessId}:${tenant.environment}`;
}

export interface NewEvent {
  readonly tenant: Tenant;
  readonly type: EventType;
  /**
   * `payout_id` for payout.* events, `beneficiary_id` for beneficiary.* events, the inbound file's id for
   * bank_file.* events, the top-up's id for top_up.* events: the ordering subject.
   */
  readonly subjectId: string;
  readonly data: Readonly<Record<string, unknown>>;
  /** When the change happened; defaults to now. `payout.delivered` passes the arrival time. */
  readonly occurredAt?: Date;
}

export interface RecordedEvent {
  readonly id: string;
  /** Null for an event held back by `holdWithin`: its sequence is drawn when it is written, at the end. */
  readonly sequence: number | null;
}

/** What a hook learns about an event just written (inside the same transaction). */
export interface RecordedEventInfo {
  readonly id: string;
  readonly sequence: number;
  readonly tenant: Tenant;
  readonly type: EventType;
}

/**
 * Runs inside the recording transaction, after the event row is written: webhook delivery uses it to
 * decide, at the moment the event happens, whether the event gets a delivery (spec: events of types not
 * subscribed then are never sent later). Injected by runtime.ts, since platform/ knows no module.
 */
export type EventRecordedHook = (tx: Db, event: RecordedEventInfo) => Promise<void>;

/** The same decision for many events of one transaction at once (one statement for all of them). */
export type EventsRecordedHook = (tx: Db, events: readonly RecordedEventInfo[]) => Promise<void>;

export interface EventRecorder {
  /** Must be called with the transaction that makes the change. */
  record(tx: Db, event: NewEvent): Promise<RecordedEvent>;
  /**
   * Many events of one transaction in one INSERT (sequences in the order given, so each subject's events keep
   * their order), then the hook once for all of them: what a use case moving hundreds of rows at once uses.
   */
  recordMany(tx: Db, events: readonly NewEvent[]): Promise<RecordedEvent[]>;
  /**
   * Runs `work` with every event recorded on `tx` meanwhile held back, then writes them as one `recordMany` (in
   * the order recorded, each with the time it was recorded): for a use case whose steps, in several modules, each
   * record a few events (a bank statement's marks, returns, credits and reviews). Only events recorded on this very
   * `tx` object are held; a nested call runs inside the outer one; if `work` throws, nothing is written.
   */
  holdWithin<T>(tx: Db, work: () => Promise<T>): Promise<T>;
}

/** An event accepted for writing: its id and the time it was recorded are fixed then, not when it is written. */
interface PendingEvent {
  readonly event: NewEvent;
  readonly id: string;
  readonly recordedAt: Date;
}

export function createEventRecorder(deps: {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Called in the same transaction for every recorded event (webhook deliveries). */
  readonly onRecorded?: EventRecordedHook;
  /** `onRecorded` for the events of one `recordMany`; without it, `onRecorded` is called for each. */
  readonly onRecordedMany?: EventsRecordedHook;
}): EventRecorder {
  // The transactions inside `holdWithin`, with the events held for each.
  const held = new WeakMap<Db, PendingEvent[]>();

  async function write(tx: Db, pending: readonly PendingEvent[]): Promise<RecordedEvent[]> {
    const rows = pending.map(({ event, id, recordedAt }, n) => ({
      n,
      id,
      business_id: event.tenant.businessId,
      environment: event.tenant.environment,
      type: event.type,
      subject_id: event.subjectId,
      data: event.data,
      occurred_at: (event.occurredAt ?? recordedAt).toISOString(),
      created_at: recordedAt.toISOString(),
    }));
    // One row per element in order (inserted ORDER BY its index n: each row's sequence is drawn in that
    // order); one NOTIFY per environment, delivered at commit as `record`'s.
    const feeds = [...new Set(pending.map(({ event }) => eventFeedKey(event.tenant)))];
    const inserted = await queryRows<{ id: string; sequence: string | number }>(
      tx,
      sql`
        with inserted as (
          insert into events (id, business_id, environment, type, api_version, subject_id, data, occurred_at, created_at)
          select v.id, v.business_id, v.environment::environment, v.type, ${EVENT_API_VERSION}, v.subject_id, v.data, v.occurred_at,
            v.created_at
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            as v(id uuid, business_id uuid, environment text, type text, subject_id uuid, data jsonb, occurred_at timestamptz,
              created_at timestamptz, n int)
          order by n
          returning id, sequence
        ),
        woken as (select pg_notify('${sql.raw(EVENTS_RECORDED_CHANNEL)}', f) from jsonb_array_elements_text(${JSON.stringify(feeds)}::jsonb) as f
          where exists (select 1 from inserted))
        select id::text as id, sequence, (select count(*) from woken) as woken from inserted`,
    );
    const byId = new Map(inserted.map((r) => [r.id, Number(r.sequence)]));
    const recorded = pending.map(({ event, id }) => {
      const sequence = byId.get(id);
      if (sequence === undefined) throw new Error("event insert returned no row");
      return { id, sequence, tenant: event.tenant, type: event.type };
    });
    if (deps.onRecordedMany !== undefined) await deps.onRecordedMany(tx, recorded);
    else if (deps.onRecorded !== undefined) for (const event of recorded) await deps.onRecorded(tx, event);
    return recorded.map((r) => ({ id: r.id, sequence: r.sequence }));
  }

  return {
    async recordMany(tx, list) {
      if (list.length === 0) return [];
      const recordedAt = deps.clock.now();
      const pending = list.map((event) => ({ event, id: deps.ids.newId(), recordedAt }));
      const queue = held.get(tx);
      if (queue === undefined) return write(tx, pending);
      queue.push(...pending);
      return pending.map(({ id }) => ({ id, sequence: null }));
    },
    async holdWithin(tx, work) {
      if (held.has(tx)) return work();
      const queue: PendingEvent[] = [];
      held.set(tx, queue);
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await work();
      } finally {
        held.delete(tx);
      }
      if (queue.length > 0) await write(tx, queue);
      return result;
    },
    async record(tx, event) {
      const now = deps.clock.now();
      const queue = held.get(tx);
      if (queue !== undefined) {
        const id = deps.ids.newId();
        queue.push({ event, id, recordedAt: now });
        return { id, sequence: null };
      }
      // Named (parsed and planned once per connection): every use case that changes something records here.
      // The NOTIFY is delivered at commit (and only then), once per transaction and environment: it wakes
      // the requests waiting on this environment's event feed in every API process.
      const [inserted] = await namedQueryRows<{ id: string; sequence: string | number }>(
        tx,
        "events_record_notify",
        sql`
          with inserted as (
            insert into events (id, business_id, environment, type, api_version, subject_id, data, occurred_at, created_at)
            values (${deps.ids.newId()}, ${event.tenant.businessId}, ${event.tenant.environment}, ${event.type}, ${EVENT_API_VERSION},
              ${event.subjectId}, ${JSON.stringify(event.data)}::jsonb, ${(event.occurredAt ?? now).toISOString()}::timestamptz,
              ${now.toISOString()}::timestamptz)
            returning id, sequence
          ),
          woken as (select pg_notify('${sql.raw(EVENTS_RECORDED_CHANNEL)}', ${eventFeedKey(event.tenant)}::text) from inserted)
          select id, sequence, (select count(*) from woken) as woken from inserted`,
      );
      const row = inserted === undefined ? undefined : { id: inserted.id, sequence: Number(inserted.sequence) };
      if (row === undefined) throw new Error("event insert returned no row");
      if (deps.onRecorded !== undefined) await deps.onRecorded(tx, { ...row, tenant: event.tenant, type: event.type });
      return row;
    },
  };
}
