// Use cases of the webhook subscription (one per environment) and of the delivery log. Each owns its
// transaction; the URL checks that need the network run before it, never inside.

import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import { type FieldCipher, randomHex } from "../../platform/crypto.js";
import { type Db, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import { checkTarget, parseWebhookUrl, type TargetPolicy, UnsafeUrlError } from "../../platform/outbound-http/url-safety.js";
import type { WebhookSender } from "../../platform/outbound-http/webhook-sender.js";
import { decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { enqueueAttempt } from "./webhooks.delivery.js";
import { WEBHOOK_ERRORS } from "./webhooks.errors.js";
import {
  type AttemptRow,
  type DeliveryWithEvent,
  deleteSubscription,
  dropPendingDeliveries,
  findDelivery,
  findSubscription,
  listAttempts,
  listDeliveries,
  lockDelivery,
  restartDelivery,
  type SubscriptionRow,
  updateSubscription,
  upsertSubscription,
} from "./webhooks.repo.js";
import type {
  CreateSubscriptionBody,
  DeliveryListQuery,
  UpdateSubscriptionBody,
  WebhookDeliveryBody,
  WebhookSubscriptionBody,
} from "./webhooks.schemas.js";

export interface WebhookServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  readonly jobStore: Pick<JobStore, "enqueue">;
  readonly policy: TargetPolicy;
  readonly sender: WebhookSender;
  /** The audit log: creating, changing and deleting the endpoint, and rotating its secret, are recorded in their transaction. */
  readonly recordAudit: RecordActorAudit;
}

export type WebhookService = ReturnType<typeof createWebhookService>;

/**
 * What the audit log keeps of an endpoint URL: its origin (scheme, host, port) only. A path or query string
 * may carry the receiver's own token, which the log must not spread to every admin who reads it.
 */
function urlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(unparsable)";
  }
}

export function presentSubscription(row: SubscriptionRow): WebhookSubscriptionBody {
  return {
    id: row.id,
    environment: row.environment,
    url: row.url,
    enabled_events: [...row.enabledEvents],
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
  };
}

export function presentDelivery(found: DeliveryWithEvent, attempts: readonly AttemptRow[]): WebhookDeliveryBody {
  const { delivery } = found;
  return {
    id: delivery.id,
    event_type: delivery.eventType,
    occurred_at: found.occurredAt.toISOString(),
    sequence: found.sequence,
    subscription_id: delivery.subscriptionId,
    status: delivery.status,
    final_reason: delivery.finalReason,
    series: delivery.series,
    attempt_count: delivery.attemptsInSeries,
    next_attempt_at:
      delivery.status === "pending" && delivery.nextAttemptAt !== null ? delivery.nextAttemptAt.toISOString() : null,
    created_at: delivery.createdAt.toISOString(),
    attempts: attempts.map((attempt) => ({
      series: attempt.series,
      attempt_number: attempt.attemptNumber,
      sent_at: attempt.sentAt.toISOString(),
      succeeded: attempt.succeeded,
      status_code: attempt.statusCode,
      duration_ms: attempt.durationMs,
      error_class: attempt.errorClass as WebhookDeliveryBody["attempts"][number]["error_class"],
    })),
  };
}

/** `whsec_<environment>_<64 hex>`: hex keeps `_` out of the random part, so the shape always splits in three. */
function newSigningSecret(tenant: Tenant): string {
  return `whsec_${tenant.environment}_${randomHex(32)}`;
}

/**
 * What to do about a non-public receiver: use a public HTTPS URL, or, on a developer's own machine only, start
 * the service with the setting that allows such receivers (a webhook to localhost is the usual first try).
 */
const PRIVATE_TARGETS_HINT =
  "Use a public HTTPS URL; for local development only, the operator can allow loopback and private receivers by starting the service with WEBHOOK_ALLOW_PRIVATE_TARGETS=true (HTTPS is still required).";

export function createWebhookService(deps: WebhookServiceDeps) {
  const { db, clock, ids, cipher, jobStore, policy, sender } = deps;

  /**
   * Refuses a URL that is not HTTPS, does not resolve, resolves to a non-public address, cannot be reached,
   * or answers with a redirect. The test request is an unsigned POST marked `X-Service-Endpoint-Check: 1`.
   */
  async function checkEndpoint(raw: string): Promise<string> {
    let url: URL;
    try {
      url = parseWebhookUrl(raw);
      await checkTarget(url, policy);
    } catch (error) {
      if (!(error instanceof UnsafeUrlError)) throw error;
      if (error.reason === "not_public")
        throw new AppError(WEBHOOK_ERRORS.WEBHOOK_URL_NOT_PUBLIC, { message: `${error.message} ${PRIVATE_TARGETS_HINT}` });
      if (error.reason === "unresolvable")
        throw new AppError(WEBHOOK_ERRORS.WEBHOOK_URL_UNRESOLVABLE, { message: error.message });
      const code = error.reason === "not_https" ? "https_required" : "invalid_format";
      throw new AppError("validation_failed", { details: [{ field: "url", code, message: error.message }] });
    }
    const outcome = await sender.post(url.toString(), "{}", { "x-service-endpoint-check": "1" });
    if (outcome.errorClass === "redirect") {
      throw new AppError(WEBHOOK_ERRORS.WEBHOOK_URL_REDIRECTS, {
        message: `The URL answered ${outcome.statusCode} (a redirect); redirects are never followed. Subscribe the final URL.`,
      });
    }
    if (outcome.errorClass === "blocked_address") {
      throw new AppError(WEBHOOK_ERRORS.WEBHOOK_URL_NOT_PUBLIC, {
        message: `${WEBHOOK_ERRORS.WEBHOOK_URL_NOT_PUBLIC.message} ${PRIVATE_TARGETS_HINT}`,
      });
    }
    if (outcome.errorClass === "dns_error") throw new AppError(WEBHOOK_ERRORS.WEBHOOK_URL_UNRESOLVABLE);
    if (outcome.errorClass !== null && outcome.errorClass !== "http_status") {
      throw new AppError(WEBHOOK_ERRORS.WEBHOOK_URL_UNREACHABLE, {
        message: `The test request to the URL failed (${outcome.errorClass.replace("_", " ")}).`,
      });
    }
    return url.toString();
  }

  /** Creates the endpoint, or rotates its secret and replaces url and events (spec). 201 when created, 200 when rotated. */
  async function createOrRotate(actor: Actor, body: CreateSubscriptionBody) {
    const tenant = tenantOf(actor);
    const url = await checkEndpoint(body.url);
    const secret = newSigningSecret(tenant);
    const now = clock.now();
    const { row, created } = await transaction(db, async (tx) => {
      const before = await findSubscription(tx, tenant, { lock: true });
      const saved = await upsertSubscription(tx, {
        id: ids.newId(),
        businessId: tenant.businessId,
        environment: tenant.environment,
        url,
        enabledEvents: [...body.enabled_events],
        enabled: true,
        secretEncrypted: cipher.encrypt(secret),
        createdAt: now,
      });
      // Pending retries of types no longer listed are dropped, as on PATCH.
      if (!saved.created) await dropPendingDeliveries(tx, tenant, "event_type_removed", now, body.enabled_events);
      await deps.recordAudit(tx, actor, {
        action: saved.created ? "webhook_subscription_created" : "webhook_secret_rotated",
        subjectType: "webhook_subscription",
        subjectId: saved.row.id,
        details: {
          created: saved.created,
          url_origin: urlOrigin(url),
          ...(before !== null && before.url !== url ? { url_changed: true, previous_url_origin: urlOrigin(before.url) } : {}),
          enabled_events: [...body.enabled_events],
        },
      });
      return saved;
    });
    return { created, body: { subscription: presentSubscription(row), secret } };
  }

  async function get(actor: Actor): Promise<WebhookSubscriptionBody> {
    const row = await findSubscription(db, tenantOf(actor));
    if (row === null) throw new AppError("not_found", { message: "This environment has no webhook subscription." });
    return presentSubscription(row);
  }

  async function update(actor: Actor, body: UpdateSubscriptionBody): Promise<WebhookSubscriptionBody> {
    const tenant = tenantOf(actor);
    if ((await findSubscription(db, tenant)) === null) {
      throw new AppError("not_found", { message: "This environment has no webhook subscription." });
    }
    const url = body.url === undefined ? undefined : await checkEndpoint(body.url);
    return transaction(db, async (tx) => {
      const current = await findSubscription(tx, tenant, { lock: true });
      if (current === null) throw new AppError("not_found", { message: "This environment has no webhook subscription." });
      const now = clock.now();
      const row = await updateSubscription(tx, current.id, {
        ...(url === undefined ? {} : { url }),
        ...(body.enabled_events === undefined ? {} : { enabledEvents: [...body.enabled_events] }),
        ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
        updatedAt: now,
      });
      if (!row.enabled) await dropPendingDeliveries(tx, tenant, "subscription_disabled", now, null);
      else if (body.enabled_events !== undefined) {
        await dropPendingDeliveries(tx, tenant, "event_type_removed", now, body.enabled_events);
      }
      await deps.recordAudit(tx, actor, {
        action: "webhook_subscription_changed",
        subjectType: "webhook_subscription",
        subjectId: row.id,
        details: {
          url_changed: current.url !== row.url,
          url_origin: urlOrigin(row.url),
          ...(current.url !== row.url ? { previous_url_origin: urlOrigin(current.url) } : {}),
          ...(body.enabled_events === undefined ? {} : { enabled_events: [...row.enabledEvents] }),
          ...(body.enabled === undefined ? {} : { enabled: row.enabled }),
        },
      });
      return presentSubscription(row);
    });
  }

  /** Idempotent: deleting when there is none answers the same. Pending retries are dropped. */
  async function remove(actor: Actor): Promise<void> {
    const tenant = tenantOf(actor);
    await transaction(db, async (tx) => {
      const deleted = await deleteSubscription(tx, tenant);
      if (deleted !== null) {
        await dropPendingDeliveries(tx, tenant, "subscription_deleted", clock.now(), null);
        await deps.recordAudit(tx, actor, {
          action: "webhook_subscription_deleted",
          subjectType: "webhook_subscription",
          subjectId: deleted.id,
          details: { url_origin: urlOrigin(deleted.url) },
        });
      }
    });
  }

  async function withAttempts(rows: readonly DeliveryWithEvent[]): Promise<WebhookDeliveryBody[]> {
    const attempts = await listAttempts(
      db,
      rows.map((row) => row.delivery.id),
    );
    const byDelivery = new Map<string, AttemptRow[]>();
    for (const attempt of attempts) byDelivery.set(attempt.deliveryId, [...(byDelivery.get(attempt.deliveryId) ?? []), attempt]);
    return rows.map((row) => presentDelivery(row, byDelivery.get(row.delivery.id) ?? []));
  }

  async function listLog(actor: Actor, query: DeliveryListQuery) {
    const limit = query.limit ?? 50;
    const rows = await listDeliveries(db, tenantOf(actor), {
      ...(query.event_type === undefined ? {} : { eventType: query.event_type }),
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.since === undefined ? {} : { since: new Date(query.since) }),
      ...(query.until === undefined ? {} : { until: new Date(query.until) }),
      ...(query.subject_id === undefined ? {} : { subjectId: query.subject_id.toLowerCase() }),
      afterId: decodeCursor(query.cursor),
      limit,
    });
    const page = toPage(
      rows.map((row) => ({ ...row, id: row.delivery.id })),
      limit,
    );
    return { deliveries: await withAttempts(page.items), next_cursor: page.nextCursor };
  }

  async function getDelivery(actor: Actor, id: string): Promise<WebhookDeliveryBody> {
    const found = await findDelivery(db, tenantOf(actor), id);
    if (found === null) throw new AppError("not_found", { message: "No such webhook delivery." });
    const [body] = await withAttempts([found]);
    if (body === undefined) throw new Error("presenting one delivery gave none");
    return body;
  }

  /**
   * Starts a new series of up to 8 attempts for an abandoned delivery, to the current subscription, with the
   * same envelope id. Refused unless abandoned, and unless the subscription is enabled and lists the type.
   */
  async function redeliver(actor: Actor, id: string): Promise<WebhookDeliveryBody> {
    const tenant = tenantOf(actor);
    await transaction(db, async (tx) => {
      const delivery = await lockDelivery(tx, tenant, id);
      if (delivery === null) throw new AppError("not_found", { message: "No such webhook delivery." });
      if (delivery.status !== "abandoned") throw new AppError(WEBHOOK_ERRORS.WEBHOOK_DELIVERY_NOT_ABANDONED);
      const subscription = await findSubscription(tx, tenant);
      if (subscription === null || !subscription.enabled || !subscription.enabledEvents.includes(delivery.eventType)) {
        throw new AppError(WEBHOOK_ERRORS.WEBHOOK_SUBSCRIPTION_INACTIVE);
      }
      const now = clock.now();
      const restarted = await restartDelivery(tx, delivery.id, subscription.id, now);
      await enqueueAttempt(jobStore, tx, { deliveryId: restarted.id, series: restarted.series, attempt: 1, runAt: now });
    });
    return getDelivery(actor, id);
  }

  return { checkEndpoint, createOrRotate, get, update, remove, listLog, getDelivery, redeliver };
}
