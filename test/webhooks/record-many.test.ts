// EventRecorder.recordMany (what the reconciliation intake uses for the events of a whole statement): the events
// in one INSERT, in the order given, and the webhook delivery decision for all of them in one statement, exactly
// as `record` makes it for one: a delivery and its first attempt's job for each subscribed type, nothing else.
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDeliveriesHook, createDeliveryHook } from "../../src/modules/webhooks/index.js";
import { webhookDeliveries, webhookSubscriptions } from "../../src/modules/webhooks/webhooks.schema.js";
import type { Tenant } from "../../src/platform/auth/actor.js";
import { createManualClock } from "../../src/platform/clock.js";
import { type Db, transaction } from "../../src/platform/db/client.js";
import { runMigrations } from "../../src/platform/db/migrate.js";
import { businesses } from "../../src/platform/db/shared.schema.js";
import { events } from "../../src/platform/events/events.schema.js";
import { createEventRecorder, type EventRecorder, type NewEvent } from "../../src/platform/events/outbox.js";
import { uuidV7Generator } from "../../src/platform/ids.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import { TEST_START } from "../helpers/test-app.js";
import { openTestDatabase, type TestDatabase } from "../helpers/test-database.js";

class Rollback extends Error {}

describe("EventRecorder.recordMany", () => {
  let testDatabase: TestDatabase;
  let db: Db;
  let recorder: EventRecorder;
  let tenant: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    testDatabase = await openTestDatabase();
    db = testDatabase.database.db;
    await runMigrations(db);
    const businessId = uuidV7Generator.newId();
    const otherId = uuidV7Generator.newId();
    await db.insert(businesses).values([
      { id: businessId, name: "Record Many Co", createdAt: TEST_START },
      { id: otherId, name: "Other Co", createdAt: TEST_START },
    ]);
    tenant = { businessId, environment: "production" };
    other = { businessId: otherId, environment: "production" };
    // Subscribed to payout.reconciled only; the other Business subscribes to nothing recorded here.
    await db.insert(webhookSubscriptions).values([
      {
        id: uuidV7Generator.newId(),
        businessId,
        environment: "production",
        url: "https://hooks.example.com/a",
        enabledEvents: ["payout.reconciled"],
        enabled: true,
        secretEncrypted: "-",
        createdAt: TEST_START,
        updatedAt: TEST_START,
      },
      {
        id: uuidV7Generator.newId(),
        businessId: otherId,
        environment: "production",
        url: "https://hooks.example.com/b",
        enabledEvents: ["payout.failed"],
        enabled: true,
        secretEncrypted: "-",
        createdAt: TEST_START,
        updatedAt: TEST_START,
      },
    ]);
  });
  afterAll(async () => {
    await testDatabase?.close();
  });
  beforeEach(async () => {
    await db.execute(sql`truncate events, webhook_deliveries, jobs cascade`);
    const clock = createManualClock(TEST_START);
    recorder = createEventRecorder({
      clock,
      ids: uuidV7Generator,
      onRecorded: createDeliveryHook({ clock, ids: uuidV7Generator }),
      onRecordedMany: createDeliveriesHook({ clock, ids: uuidV7Generator }),
    });
  });

  it("writes the events in the order given and gives the subscribed ones a delivery and a job, as record does", async () => {
    const subject = uuidV7Generator.newId();
    const list: NewEvent[] = [
      { tenant, type: "payout.reconciled", subjectId: subject, data: { i: 0 } },
      { tenant, type: "statement_line.needs_review", subjectId: uuidV7Generator.newId(), data: { i: 1 } },
      {
        tenant,
        type: "payout.reconciled",
        subjectId: uuidV7Generator.newId(),
        data: { i: 2 },
        occurredAt: new Date("2026-05-01T00:00:00.000Z"),
      },
      { tenant: other, type: "payout.reconciled", subjectId: subject, data: { i: 3 } },
    ];
    const recorded = await transaction(db, (tx) => recorder.recordMany(tx, list));
    expect(recorded).toHaveLength(4);
    for (let i = 1; i < recorded.length; i += 1)
      expect(recorded[i]?.sequence).toBeGreaterThan(recorded[i - 1]?.sequence ?? Number.POSITIVE_INFINITY);

    const rows = await db.select().from(events).orderBy(events.sequence);
    expect(rows.map((r) => r.id)).toEqual(recorded.map((r) => r.id));
    expect(rows.map((r) => r.sequence)).toEqual(recorded.map((r) => r.sequence));
    expect(rows.map((r) => r.data)).toEqual([0, 1, 2, 3].map((i) => ({ i })));
    expect(rows.map((r) => [r.businessId, r.environment, r.type, r.subjectId])).toEqual(
      list.map((e) => [e.tenant.businessId, e.tenant.environment, e.type, e.subjectId]),
    );
    expect(rows.map((r) => r.occurredAt.toISOString())).toEqual([
      TEST_START.toISOString(),
      TEST_START.toISOString(),
      "2026-05-01T00:00:00.000Z",
      TEST_START.toISOString(),
    ]);

    // Only this Business's payout.reconciled events are subscribed: two deliveries, each with attempt 1's job.
    const deliveries = await db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id);
    const subscribed = [recorded[0]?.id, recorded[2]?.id].sort();
    expect(deliveries.map((d) => d.id)).toEqual(subscribed);
    for (const d of deliveries) {
      expect(d.businessId).toBe(tenant.businessId);
      expect(d.eventType).toBe("payout.reconciled");
      expect(d.status).toBe("pending");
      expect(d.series).toBe(1);
      expect(d.nextAttemptAt?.toISOString()).toBe(TEST_START.toISOString());
    }
    const queued = await db
      .select()
      .from(jobs)
      .where(
        inArray(
          jobs.dedupeKey,
          subscribed.map((id) => `webhook:${id}:1:1`),
        ),
      );
    expect(queued).toHaveLength(2);
    expect(await db.select().from(jobs)).toHaveLength(2);
    for (const job of queued) {
      expect(job.type).toBe("webhook.deliver");
      const payload = job.payload as { delivery_id: string; series: number; attempt: number };
      expect(subscribed).toContain(payload.delivery_id);
      expect([payload.series, payload.attempt]).toEqual([1, 1]);
    }

    // The same decision `record` makes for one event: its delivery and job look alike.
    const single = await transaction(db, (tx) =>
      recorder.record(tx, { tenant, type: "payout.reconciled", subjectId: subject, data: { i: 4 } }),
    );
    const [one] = await db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `webhook:${single.id}:1:1`));
    const [many] = queued;
    expect(one?.payload).toEqual({ ...(many?.payload as object), delivery_id: single.id });
    expect([one?.maxAttempts, one?.status]).toEqual([many?.maxAttempts, many?.status]);
  });

  it("keeps nothing of a transaction that rolled back, and records nothing for an empty list", async () => {
    await expect(
      transaction(db, async (tx) => {
        await recorder.recordMany(tx, [{ tenant, type: "payout.reconciled", subjectId: uuidV7Generator.newId(), data: {} }]);
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(await transaction(db, (tx) => recorder.recordMany(tx, []))).toEqual([]);
    expect(await db.select().from(events)).toEqual([]);
    expect(await db.select().from(webhookDeliveries)).toEqual([]);
    expect(await db.select().from(jobs)).toEqual([]);
  });
});
