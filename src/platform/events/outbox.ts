// The events outbox. An event is written by the same transaction as the change it reports, so it exists
// if and only if that change committed. Webhook delivery reads from here after commit.
import type { Tenant } from "../auth/actor.js";
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { events } from "../db/schema.js";
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
  "beneficiary.details_submitted",
  "beneficiary.bank_account.registered",
  "beneficiary.enrollment_rejected",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface NewEvent {
  readonly tenant: Tenant;
  readonly type: EventType;
  /** `payout_id` for payout.* events, `beneficiary_id` for beneficiary.* events: the ordering subject. */
  readonly subjectId: string;
  readonly data: Readonly<Record<string, unknown>>;
  /** When the change happened; defaults to now. `payout.delivered` passes the arrival time. */
  readonly occurredAt?: Date;
}

export interface RecordedEvent {
  readonly id: string;
  readonly sequence: number;
}

export interface EventRecorder {
  /** Must be called with the transaction that makes the change. */
  record(tx: Db, event: NewEvent): Promise<RecordedEvent>;
}

export function createEventRecorder(deps: { readonly clock: Clock; readonly ids: IdGenerator }): EventRecorder {
  return {
    async record(tx, event) {
      const now = deps.clock.now();
      const [row] = await tx
        .insert(events)
        .values({
          id: deps.ids.newId(),
          businessId: event.tenant.businessId,
          environment: event.tenant.environment,
          type: event.type,
          apiVersion: EVENT_API_VERSION,
          subjectId: event.subjectId,
          data: event.data,
          occurredAt: event.occurredAt ?? now,
          createdAt: now,
        })
        .returning({ id: events.id, sequence: events.sequence });
      if (row === undefined) throw new Error("event insert returned no row");
      return row;
    },
  };
}
