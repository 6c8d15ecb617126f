// The shared auth / tenancy matrix on every webhook route: 401 for missing, malformed, unknown or revoked
// keys; 403 for a read-only key on a write; another tenant's delivery answers 404 exactly like a missing
// one; the delivery log lists only the caller's deliveries.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { transaction } from "../../src/platform/db/client.js";
import { bearer } from "../helpers/factories.js";
import { describeTenancyMatrix, type MatrixContext } from "../helpers/tenancy-matrix.js";
import { startWebhookReceiver, testCertificate, type WebhookReceiver } from "../helpers/webhook-receiver.js";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => receiver?.close());

const EVENTS = ["beneficiary.details_submitted"];

async function subscriptionOf({ app, tenant }: MatrixContext): Promise<string> {
  const response = await app.inject({
    method: "POST",
    url: "/v1/webhook-subscriptions",
    headers: bearer(tenant.keys.business_admin),
    payload: { url: `${receiver.origin}/matrix`, enabled_events: EVENTS },
  });
  if (response.statusCode !== 201 && response.statusCode !== 200)
    throw new Error(`subscribe: ${response.statusCode} ${response.body}`);
  return randomUUID();
}

/** A delivery of the tenant: an event recorded while its subscription lists the type. */
async function deliveryOf(context: MatrixContext): Promise<string> {
  await subscriptionOf(context);
  const { database, events } = context.testApp.runtime.deps;
  const beneficiaryId = randomUUID();
  const recorded = await transaction(database.db, (tx) =>
    events.record(tx, {
      tenant: { businessId: context.tenant.registered.businessId, environment: context.tenant.environment },
      type: "beneficiary.details_submitted",
      subjectId: beneficiaryId,
      data: { beneficiary_id: beneficiaryId, status: "details_submitted" },
    }),
  );
  return recorded.id;
}

/** An abandoned delivery (set directly: the schedule itself is tested in delivery.test.ts). */
async function abandonedDeliveryOf(context: MatrixContext): Promise<string> {
  const id = await deliveryOf(context);
  await context.testApp.runtime.deps.database.db.execute(
    sql`update webhook_deliveries set status = 'abandoned', attempts_in_series = 8, final_reason = 'attempts_exhausted' where id = ${id}`,
  );
  return id;
}

describeTenancyMatrix(
  "webhooks",
  [
    {
      method: "POST",
      url: () => "/v1/webhook-subscriptions",
      access: "write",
      payload: () => ({ url: `${receiver.origin}/matrix`, enabled_events: EVENTS }),
    },
    { method: "GET", url: () => "/v1/webhook-subscriptions", access: "read", setup: subscriptionOf },
    {
      method: "PATCH",
      url: () => "/v1/webhook-subscriptions",
      access: "write",
      setup: subscriptionOf,
      payload: () => ({ enabled: true }),
    },
    { method: "DELETE", url: () => "/v1/webhook-subscriptions", access: "write", setup: subscriptionOf },
    { method: "GET", url: () => "/v1/webhook-deliveries", access: "read", setup: deliveryOf, listKey: "deliveries" },
    { method: "GET", url: (id) => `/v1/webhook-deliveries/${id}`, access: "read", setup: deliveryOf },
    { method: "POST", url: (id) => `/v1/webhook-deliveries/${id}/redeliver`, access: "write", setup: abandonedDeliveryOf },
  ],
  { app: { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }, runtime: { webhookTlsCa: testCertificate().cert } } },
);
