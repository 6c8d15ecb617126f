// One webhook test bed: the real app on a real database with a manual clock, a real HTTPS receiver on
// loopback whose self-signed certificate the service trusts (test-only runtime option), private targets
// allowed (the receiver is on loopback; ssrf.test.ts turns the flag off), and a worker driven by drain().
import { randomUUID } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import type { Environment } from "../../src/platform/auth/api-key-format.js";
import { transaction } from "../../src/platform/db/client.js";
import type { EventType } from "../../src/platform/events/outbox.js";
import type { Worker } from "../../src/platform/jobs/worker.js";
import type { Resolver } from "../../src/platform/outbound-http/url-safety.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { startWebhookReceiver, testCertificate, type WebhookReceiver } from "../helpers/webhook-receiver.js";

export interface WebhookTestBed {
  readonly testApp: TestApp;
  readonly receiver: WebhookReceiver;
  readonly business: RegisteredBusiness;
  /** The sandbox admin key. */
  readonly key: string;
  readonly worker: Worker;
  readonly hookUrl: string;
  subscribe(
    enabledEvents?: readonly EventType[],
    options?: { key?: string; url?: string },
  ): Promise<{ secret: string; subscription: Record<string, unknown> }>;
  /** Records an event as a use case would (its own transaction), for the sandbox tenant unless told otherwise. */
  recordEvent(
    type: EventType,
    options?: { data?: Record<string, unknown>; environment?: Environment; business?: RegisteredBusiness; occurredAt?: Date },
  ): Promise<{ id: string; sequence: number | null }>;
  /** Runs every due job (moving the clock is the test's job). */
  drain(): Promise<number>;
  patch(body: Record<string, unknown>, key?: string): Promise<LightMyRequestResponse>;
  delivery(id: string, key?: string): Promise<DeliveryBody>;
  close(): Promise<void>;
}

export interface DeliveryBody {
  id: string;
  event_type: string;
  status: string;
  final_reason: string | null;
  series: number;
  attempt_count: number;
  next_attempt_at: string | null;
  attempts: Array<{
    series: number;
    attempt_number: number;
    sent_at: string;
    succeeded: boolean;
    status_code: number | null;
    duration_ms: number;
    error_class: string | null;
  }>;
}

export const ALL_BENEFICIARY_EVENTS: readonly EventType[] = [
  "beneficiary.details_submitted",
  "beneficiary.bank_account.registered",
  "beneficiary.enrollment_rejected",
];

export async function startWebhookTestBed(
  options: { env?: Record<string, string>; resolver?: Resolver; timeoutMs?: number } = {},
): Promise<WebhookTestBed> {
  const receiver = await startWebhookReceiver();
  const testApp = await buildTestApp({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", ...(options.env ?? {}) },
    runtime: {
      webhookTlsCa: testCertificate().cert,
      ...(options.resolver === undefined ? {} : { webhookResolver: options.resolver }),
      ...(options.timeoutMs === undefined ? {} : { webhookTimeoutMs: options.timeoutMs }),
    },
  });
  const business = await registerBusiness(testApp.app, "Webhook Receiver Co");
  const key = business.keys.sandbox;
  const worker = testApp.runtime.createWorker("webhook-test-worker");
  const hookUrl = `${receiver.origin}/hooks/payouts`;
  const app = testApp.app;

  return {
    testApp,
    receiver,
    business,
    key,
    worker,
    hookUrl,
    async subscribe(enabledEvents = ALL_BENEFICIARY_EVENTS, subscribeOptions = {}) {
      const response = await app.inject({
        method: "POST",
        url: "/v1/webhook-subscriptions",
        headers: bearer(subscribeOptions.key ?? key),
        payload: { url: subscribeOptions.url ?? hookUrl, enabled_events: [...enabledEvents] },
      });
      if (response.statusCode !== 201 && response.statusCode !== 200) {
        throw new Error(`subscribe failed: ${response.statusCode} ${response.body}`);
      }
      return response.json() as { secret: string; subscription: Record<string, unknown> };
    },
    async recordEvent(type, eventOptions = {}) {
      const owner = eventOptions.business ?? business;
      const subjectId = randomUUID();
      const data =
        eventOptions.data ??
        (type.startsWith("payout.")
          ? {
              payout_id: subjectId,
              external_ref: "INV-1",
              beneficiary_id: randomUUID(),
              amount: "12.50",
              currency: "EUR",
              rail_ref: null,
              status: "disbursed",
            }
          : { beneficiary_id: subjectId, status: "details_submitted" });
      const { database, events } = testApp.runtime.deps;
      return transaction(database.db, (tx) =>
        events.record(tx, {
          tenant: { businessId: owner.businessId, environment: eventOptions.environment ?? "sandbox" },
          type,
          subjectId: String(data.payout_id ?? data.beneficiary_id ?? subjectId),
          data,
          ...(eventOptions.occurredAt === undefined ? {} : { occurredAt: eventOptions.occurredAt }),
        }),
      );
    },
    drain: () => worker.drain(),
    async patch(body, patchKey) {
      return app.inject({ method: "PATCH", url: "/v1/webhook-subscriptions", headers: bearer(patchKey ?? key), payload: body });
    },
    async delivery(id, deliveryKey) {
      const response = await app.inject({
        method: "GET",
        url: `/v1/webhook-deliveries/${id}`,
        headers: bearer(deliveryKey ?? key),
      });
      if (response.statusCode !== 200) throw new Error(`delivery read failed: ${response.statusCode} ${response.body}`);
      return response.json() as DeliveryBody;
    },
    async close() {
      await worker.stop(1_000);
      await testApp.close();
      await receiver.close();
    },
  };
}
