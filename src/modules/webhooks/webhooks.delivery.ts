// Webhook delivery: each attempt is one durable job. The job reads the delivery and the tenant's current
// subscription, signs the envelope at send time with the current secret, POSTs it with no transaction
// open, then in one transaction records the attempt, moves the delivery on (succeeded, next attempt,
// abandoned) with a conditional update, enqueues the next attempt, and completes the job under its lease.
// See README.md in this folder.
import { createHmac } from "node:crypto";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { eventEnvelope } from "../../platform/events/envelope.js";
import type { EventRecordedHook, EventsRecordedHook } from "../../platform/events/outbox.js";
import type { IdGenerator } from "../../platform/ids.js";
import { jobHandler } from "../../platform/jobs/job-definition.js";
import { conditionalEnqueueSql, type JobStore } from "../../platform/jobs/job-store.js";
import { type JobHandlers, LeaseLostError } from "../../platform/jobs/worker.js";
import type { WebhookSender } from "../../platform/outbound-http/webhook-sender.js";
import { WEBHOOK_DELIVER_JOB } from "./webhooks.jobs.js";
import {
  attemptOutcomeGroupedEffects,
  attemptOutcomeValues,
  createDeliveriesForEvents,
  createDeliveryForEvent,
  type DeliveryForAttempt,
  findDeliveriesForAttempts,
  markDeliveryDropped,
} from "./webhooks.repo.js";

/** Delay before attempt n+1 after attempt n failed (index n-1), spec "Delivery and retries": 8 attempts in all. */
export const RETRY_DELAYS_MS: readonly number[] = [30, 60, 120, 240, 480, 960, 1920].map((seconds) => seconds * 1000);
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export async function enqueueAttempt(
  jobStore: Pick<JobStore, "enqueue">,
  tx: Tx,
  attempt: { deliveryId: string; series: number; attempt: number; runAt: Date },
): Promise<void> {
  await jobStore.enqueue(
    tx,
    WEBHOOK_DELIVER_JOB,
    { delivery_id: attempt.deliveryId, series: attempt.series, attempt: attempt.attempt },
    { runAt: attempt.runAt },
  );
}

/** `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the UTF-8 bytes of the whole secret>`. */
export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const digest = createHmac("sha256", Buffer.from(secret, "utf8")).update(`${unixSeconds}.${body}`, "utf8").digest("hex");
  return `t=${unixSeconds},v1=${digest}`;
}

/**
 * The EventRecorder hook: decides when the event is recorded, in its transaction, whether it gets a
 * delivery (an enabled subscription listing its type), and if so enqueues attempt 1 for now.
 */
export function createDeliveryHook(deps: { clock: Clock; ids: IdGenerator }): EventRecordedHook {
  return async (tx, event) => {
    const now = deps.clock.now();
    await createDeliveryForEvent(tx, event, now, (condition) =>
      conditionalEnqueueSql(
        WEBHOOK_DELIVER_JOB,
        { delivery_id: event.id, series: 1, attempt: 1 },
        { id: deps.ids.newId(), now },
        condition,
      ),
    );
  };
}

/** `createDeliveryHook` for the events of one `recordMany`: the same decision, one statement for all of them. */
export function createDeliveriesHook(deps: { clock: Clock; ids: IdGenerator }): EventsRecordedHook {
  return async (tx, recorded) => {
    await createDeliveriesForEvents(
      tx,
      recorded.map((event) => ({ id: event.id, tenant: event.tenant, type: event.type, jobId: deps.ids.newId() })),
      deps.clock.now(),
    );
  };
}

export interface DeliveryHandlerDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  readonly sender: WebhookSender;
  readonly logger: { warn(obj: object, msg: string): void };
}

/** At most this many deliveries per batched read (the worker's concurrency is far below it). */
const LOAD_BATCH_MAX = 256;

/**
 * Reads the deliveries of attempts started together in one query: the worker starts a claimed batch in one
 * synchronous loop, so every handler asks before the queued flush runs. Each caller gets its own row or null,
 * or the query's error.
 */
function createDeliveryLoader(db: Db): (deliveryId: string) => Promise<DeliveryForAttempt | null> {
  type Waiter = { id: string; resolve: (row: DeliveryForAttempt | null) => void; reject: (error: unknown) => void };
  let queued: Waiter[] = [];

  async function load(batch: Waiter[]): Promise<void> {
    try {
      const found = await findDeliveriesForAttempts(
        db,
        batch.map((waiter) => waiter.id),
      );
      for (const waiter of batch) waiter.resolve(found.get(waiter.id) ?? null);
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    }
  }

  function flush(): void {
    const all = queued;
    queued = [];
    for (let start = 0; start < all.length; start += LOAD_BATCH_MAX) void load(all.slice(start, start + LOAD_BATCH_MAX));
  }

  return (id) =>
    new Promise((resolve, reject) => {
      if (queued.length === 0) queueMicrotask(flush);
      queued.push({ id, resolve, reject });
    });
}

export function createDeliveryJobHandler(deps: DeliveryHandlerDeps): JobHandlers {
  const { db, clock, ids, cipher, sender } = deps;
  const loadDelivery = createDeliveryLoader(db);
  const groupedOutcome = attemptOutcomeGroupedEffects();

  return jobHandler(WEBHOOK_DELIVER_JOB, async ({ delivery_id: deliveryId, series, attempt }, context) => {
    const found = await loadDelivery(deliveryId);
    // Stale job (the delivery moved on, was dropped, or restarted in a later series): nothing to send.
    if (
      found === null ||
      found.delivery.status !== "pending" ||
      found.delivery.series !== series ||
      found.delivery.attemptsInSeries !== attempt - 1
    ) {
      return;
    }
    const { delivery, event, subscription } = found;

    // Drop rules (spec): checked again at send time, in case the change raced the eager drop.
    const dropReason =
      subscription === null || subscription.id !== delivery.subscriptionId
        ? "subscription_deleted"
        : !subscription.enabled
          ? "subscription_disabled"
          : !subscription.enabledEvents.includes(delivery.eventType)
            ? "event_type_removed"
            : null;
    if (dropReason !== null || subscription === null) {
      await transaction(db, async (tx) => {
        await markDeliveryDropped(tx, delivery.id, series, dropReason ?? "subscription_deleted", clock.now());
        if (!(await context.completeWithin(tx))) throw new LeaseLostError();
      });
      return;
    }

    const sentAt = clock.now();
    const unixSeconds = Math.floor(sentAt.getTime() / 1000);
    // The envelope id is the delivery's id (the event's); `created_at` is this attempt's send time.
    const body = JSON.stringify(eventEnvelope({ ...event, id: delivery.id }, sentAt));
    // Signed now, with the secret current now: a retry after a rotation carries the new secret's signature.
    const secret = cipher.decrypt(subscription.secretEncrypted);
    const outcome = await sender.post(subscription.url, body, {
      "x-service-signature": signatureHeader(secret, unixSeconds, body),
    });

    const finishedAt = clock.now();
    const exhausted = attempt >= MAX_ATTEMPTS;
    const nextAt = outcome.ok || exhausted ? null : new Date(finishedAt.getTime() + (RETRY_DELAYS_MS[attempt - 1] ?? 0));
    // One statement (shared with the attempts finishing meanwhile): the attempt logged, the delivery moved on,
    // the next attempt enqueued, the job completed under its lease.
    const completed = await context.completeGrouped(
      attemptOutcomeValues(
        {
          id: ids.newId(),
          deliveryId: delivery.id,
          series,
          attemptNumber: attempt,
          sentAt,
          durationMs: outcome.durationMs,
          succeeded: outcome.ok,
          statusCode: outcome.statusCode,
          errorClass: outcome.errorClass,
          createdAt: finishedAt,
        },
        {
          status: outcome.ok ? "succeeded" : exhausted ? "abandoned" : "pending",
          nextAttemptAt: nextAt,
          finalReason: outcome.ok ? null : exhausted ? "attempts_exhausted" : null,
        },
        nextAt === null ? null : ids.newId(),
      ),
      groupedOutcome,
    );
    if (!completed) throw new LeaseLostError();
    if (!outcome.ok) {
      deps.logger.warn(
        {
          delivery_id: delivery.id,
          attempt,
          series,
          status_code: outcome.statusCode,
          error_class: outcome.errorClass,
          detail: outcome.detail,
        },
        exhausted ? "webhook delivery abandoned" : "webhook attempt failed",
      );
    }
  });
}
