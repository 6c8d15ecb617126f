// The events outbox on whichever engine this pass runs: an event exists exactly when the transaction that
// recorded it committed, and committed events carry an ordering sequence, the API version and their time.
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Tenant } from "../../src/platform/auth/actor.js";
import { createManualClock, type ManualClock } from "../../src/platform/clock.js";
import { type Db, transaction } from "../../src/platform/db/client.js";
import { runMigrations } from "../../src/platform/db/migrate.js";
import { businesses } from "../../src/platform/db/shared.schema.js";
import { events } from "../../src/platform/events/events.schema.js";
import { createEventRecorder, EVENT_API_VERSION, type EventRecorder } from "../../src/platform/events/outbox.js";
import { uuidV7Generator } from "../../src/platform/ids.js";
import { TEST_START } from "../helpers/test-app.js";
import { openTestDatabase, type TestDatabase } from "../helpers/test-database.js";

class Rollback extends Error {}

describe("events outbox", () => {
  let testDatabase: TestDatabase;
  let db: Db;
  let clock: ManualClock;
  let recorder: EventRecorder;
  let tenant: Tenant;

  const subjectId = () => uuidV7Generator.newId();

  beforeAll(async () => {
    testDatabase = await openTestDatabase();
    db = testDatabase.database.db;
    await runMigrations(db);
    const businessId = uuidV7Generator.newId();
    await db.insert(businesses).values({ id: businessId, name: "Outbox Test Co", createdAt: TEST_START });
    tenant = { businessId, environment: "sandbox" };
  });
  afterAll(async () => {
    await testDatabase?.close();
  });
  beforeEach(async () => {
    await db.execute(sql`truncate events`);
    clock = createManualClock(TEST_START);
    recorder = createEventRecorder({ clock, ids: uuidV7Generator });
  });

  it("keeps no event recorded in a transaction that rolled back", async () => {
    let recordedId: string | undefined;
    await expect(
      transaction(db, async (tx) => {
        recordedId = (await recorder.record(tx, { tenant, type: "payout.failed", subjectId: subjectId(), data: { a: 1 } })).id;
        throw new Rollback("the change failed");
      }),
    ).rejects.toBeInstanceOf(Rollback);

    expect(recordedId).toBeDefined();
    expect(
      await db
        .select()
        .from(events)
        .where(eq(events.id, recordedId ?? "")),
    ).toEqual([]);
    expect(await db.select().from(events)).toEqual([]);
  });

  it("gives committed events strictly increasing sequences, the API version and the clock's time", async () => {
    const subject = subjectId();
    const recorded = [];
    for (let i = 0; i < 5; i += 1) {
      // Several events in one millisecond: the sequence, not occurred_at, orders them.
      recorded.push(
        await transaction(db, (tx) =>
          recorder.record(tx, { tenant, type: "payout.acknowledged", subjectId: subject, data: { i } }),
        ),
      );
    }
    // A rolled-back event in between may use up a sequence value but must not break the order.
    await expect(
      transaction(db, async (tx) => {
        await recorder.record(tx, { tenant, type: "payout.failed", subjectId: subject, data: {} });
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    clock.advance(1_500);
    recorded.push(
      await transaction(db, (tx) =>
        recorder.record(tx, { tenant, type: "payout.disbursed", subjectId: subject, data: { i: 5 } }),
      ),
    );

    for (const event of recorded) expect(typeof event.sequence).toBe("number");
    for (let i = 1; i < recorded.length; i += 1) {
      expect(recorded[i]?.sequence).toBeGreaterThan(recorded[i - 1]?.sequence ?? Number.POSITIVE_INFINITY);
    }

    const rows = await db
      .select()
      .from(events)
      .where(
        inArray(
          events.id,
          recorded.map((event) => event.id),
        ),
      )
      .orderBy(events.sequence);
    expect(rows.map((row) => row.id)).toEqual(recorded.map((event) => event.id));
    expect(rows.map((row) => row.sequence)).toEqual(recorded.map((event) => event.sequence));
    expect(rows.map((row) => row.data)).toEqual([0, 1, 2, 3, 4, 5].map((i) => ({ i })));
    for (const row of rows) {
      expect(row.apiVersion).toBe("2026-05-27");
      expect(row.apiVersion).toBe(EVENT_API_VERSION);
      expect(row.businessId).toBe(tenant.businessId);
      expect(row.environment).toBe("sandbox");
      expect(row.subjectId).toBe(subject);
    }
    expect(rows.slice(0, 5).map((row) => row.occurredAt.toISOString())).toEqual(Array(5).fill(TEST_START.toISOString()));
    expect(rows[5]?.occurredAt.toISOString()).toBe(new Date(TEST_START.getTime() + 1_500).toISOString());
    expect(rows[5]?.createdAt.toISOString()).toBe(new Date(TEST_START.getTime() + 1_500).toISOString());
    expect(await db.select().from(events)).toHaveLength(6);
  });

  it("uses an explicit occurredAt instead of the clock", async () => {
    const arrivedAt = new Date("2026-05-26T08:30:00.250Z");
    const recorded = await transaction(db, (tx) =>
      recorder.record(tx, { tenant, type: "payout.delivered", subjectId: subjectId(), data: {}, occurredAt: arrivedAt }),
    );
    const [row] = await db.select().from(events).where(eq(events.id, recorded.id));
    expect(row?.occurredAt.toISOString()).toBe(arrivedAt.toISOString());
    // created_at still says when we wrote it.
    expect(row?.createdAt.toISOString()).toBe(TEST_START.toISOString());
  });

  it("records several events in one statement as one by one would: in order, each with its data, the hook per event", async () => {
    const hooked: { id: string; sequence: number; type: string }[] = [];
    const hookedRecorder = createEventRecorder({
      clock,
      ids: uuidV7Generator,
      onRecorded: async (_tx, event) => {
        hooked.push({ id: event.id, sequence: event.sequence, type: event.type });
      },
    });
    const other: Tenant = { businessId: tenant.businessId, environment: "production" };
    const arrivedAt = new Date("2026-05-26T08:30:00.250Z");
    // Subjects in descending id order and mixed environments: an order by anything but the position would show.
    const subjects = [subjectId(), subjectId(), subjectId(), subjectId()].reverse();
    const batch = [
      {
        tenant,
        type: "beneficiary.screening_hit" as const,
        subjectId: subjects[0] as string,
        data: { n: 0, hit: { score: 0.93 } },
      },
      { tenant: other, type: "beneficiary.screening_cleared" as const, subjectId: subjects[1] as string, data: { n: 1 } },
      { tenant, type: "payout.delivered" as const, subjectId: subjects[2] as string, data: { n: 2 }, occurredAt: arrivedAt },
      {
        tenant,
        type: "beneficiary.screening_hit" as const,
        subjectId: subjects[3] as string,
        data: { n: 3, text: 'a "quoted" \\ name' },
      },
    ];
    const recorded = await transaction(db, (tx) => hookedRecorder.recordMany(tx, batch));
    expect(await transaction(db, (tx) => hookedRecorder.recordMany(tx, []))).toEqual([]);

    const rows = await db
      .select()
      .from(events)
      .where(
        inArray(
          events.id,
          recorded.map((r) => r.id),
        ),
      )
      .orderBy(events.sequence);
    expect(rows.map((row) => row.id)).toEqual(recorded.map((r) => r.id));
    expect(rows.map((row) => row.sequence)).toEqual(recorded.map((r) => r.sequence));
    expect(rows.map((row) => [row.type, row.environment, row.subjectId, row.data, row.apiVersion])).toEqual(
      batch.map((event) => [event.type, event.tenant.environment, event.subjectId, event.data, EVENT_API_VERSION]),
    );
    expect(rows.map((row) => row.occurredAt.toISOString())).toEqual([
      TEST_START.toISOString(),
      TEST_START.toISOString(),
      arrivedAt.toISOString(),
      TEST_START.toISOString(),
    ]);
    expect(hooked).toEqual(recorded.map((r, n) => ({ ...r, type: batch[n]?.type })));
  });

  it("holds back the events of a transaction while holdWithin runs and writes them at its end, in the order recorded", async () => {
    const hookCalls: Array<Array<{ id: string; sequence: number }>> = [];
    const hookedRecorder = createEventRecorder({
      clock,
      ids: uuidV7Generator,
      onRecordedMany: async (_tx, recorded) => {
        hookCalls.push(recorded.map((r) => ({ id: r.id, sequence: r.sequence })));
      },
    });
    const first = subjectId();
    const second = subjectId();
    const heldIds: string[] = [];
    let seenInside = -1;
    await transaction(db, (tx) =>
      hookedRecorder.holdWithin(tx, async () => {
        const one = await hookedRecorder.record(tx, { tenant, type: "payout.disbursed", subjectId: first, data: { n: 0 } });
        clock.advance(1_000);
        const many = await hookedRecorder.recordMany(tx, [
          { tenant, type: "payout.reconciled", subjectId: first, data: { n: 1 } },
          { tenant, type: "payout.returned", subjectId: second, data: { n: 2 } },
        ]);
        heldIds.push(one.id, ...many.map((r) => r.id));
        expect([one, ...many].map((r) => r.sequence)).toEqual([null, null, null]);
        // Nested: the outer call writes.
        await hookedRecorder.holdWithin(tx, async () => {
          heldIds.push(
            (await hookedRecorder.record(tx, { tenant, type: "payout.settled", subjectId: second, data: { n: 3 } })).id,
          );
        });
        const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(events);
        seenInside = count?.n ?? -1;
      }),
    );
    expect(seenInside).toBe(0);
    const rows = await db.select().from(events).orderBy(events.sequence);
    expect(rows.map((row) => row.id)).toEqual(heldIds);
    expect(rows.map((row) => row.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
    // Each keeps the time it was recorded, not the time it was written.
    expect(rows.map((row) => row.createdAt.toISOString())).toEqual([
      TEST_START.toISOString(),
      new Date(TEST_START.getTime() + 1_000).toISOString(),
      new Date(TEST_START.getTime() + 1_000).toISOString(),
      new Date(TEST_START.getTime() + 1_000).toISOString(),
    ]);
    expect(hookCalls).toEqual([rows.map((row) => ({ id: row.id, sequence: Number(row.sequence) }))]);

    // Work that throws writes nothing; the recorder is back to writing at once afterwards.
    await db.execute(sql`truncate events`);
    await expect(
      transaction(db, (tx) =>
        hookedRecorder.holdWithin(tx, async () => {
          await hookedRecorder.record(tx, { tenant, type: "payout.failed", subjectId: first, data: {} });
          throw new Rollback("the statement failed");
        }),
      ),
    ).rejects.toBeInstanceOf(Rollback);
    await transaction(db, async (tx) => {
      const written = await hookedRecorder.record(tx, { tenant, type: "payout.failed", subjectId: first, data: {} });
      expect(written.sequence).not.toBeNull();
    });
    expect((await db.select().from(events)).map((row) => row.type)).toEqual(["payout.failed"]);
  });
});
