// The event feed under concurrent writers on PostgreSQL (PGlite runs one transaction at a time and cannot
// commit out of order). A forward reader (`GET /v1/events?after=<cursor>&wait=…`) must return every
// committed event exactly once although transactions commit in another order than they were given ids,
// sequence numbers and transaction ids; and a wait held back by an older transaction that records no event
// must still be answered when that transaction ends.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tenant } from "../../src/platform/auth/actor.js";
import { systemClock } from "../../src/platform/clock.js";
import { type Database, openDatabase, type Tx, transaction } from "../../src/platform/db/client.js";
import { createEventRecorder, type EventRecorder } from "../../src/platform/events/outbox.js";
import { uuidV7Generator } from "../../src/platform/ids.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";

interface EventList {
  events: Array<{ id: string; sequence: number }>;
  next_cursor: string | null;
  has_more: boolean;
}

const BENEFICIARY = "0196f1a3-0a1b-7c20-8e55-8091a2b3c4d6";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves and exposes its resolver: a gate a transaction waits on. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe.skipIf(!onPostgres)("event feed races on PostgreSQL", () => {
  let testApp: TestApp;
  let business: RegisteredBusiness;
  let tenant: Tenant;
  /** A second client of the same database, like another service process writing events. */
  let writer: Database;
  let recorder: EventRecorder;

  beforeAll(async () => {
    testApp = await buildTestApp();
    business = await registerBusiness(testApp.app);
    tenant = { businessId: business.businessId, environment: "sandbox" };
    const url = testApp.testDatabase.url;
    if (url === null) throw new Error("no PostgreSQL URL");
    writer = await openDatabase({ databaseUrl: url, dataDir: "", poolSize: 12 });
    recorder = createEventRecorder({ clock: systemClock, ids: uuidV7Generator });
  });
  afterAll(async () => {
    await writer?.close();
    await testApp?.close();
  });

  const record = (tx: Tx) =>
    recorder.record(tx, {
      tenant,
      type: "beneficiary.details_submitted",
      subjectId: BENEFICIARY,
      data: { beneficiary_id: BENEFICIARY, status: "details_submitted" },
    });

  /**
   * How many times this app's waiting feed requests read again because of a NOTIFY or a held-back recheck
   * (events_feed_rereads_total). A rise of two after a commit means a waiting request read after that commit
   * and, finding the event still held back, kept waiting.
   */
  async function heldBackRereads(): Promise<number> {
    const metric = testApp.runtime.deps.metrics.registry.getSingleMetric("events_feed_rereads_total");
    if (metric === undefined) throw new Error("no events_feed_rereads_total");
    const { values } = await metric.get();
    return values
      .filter((value) => value.labels.cause === "notify" || value.labels.cause === "recheck")
      .reduce((sum, value) => sum + value.value, 0);
  }

  async function untilRereads(atLeast: number): Promise<void> {
    await expect.poll(heldBackRereads, { timeout: 15_000 }).toBeGreaterThanOrEqual(atLeast);
  }

  async function feed(after: string, wait = 0): Promise<EventList> {
    const response = await testApp.app.inject({
      method: "GET",
      url: `/v1/events?after=${after}&wait=${wait}&limit=200`,
      headers: bearer(business.keys.sandbox),
    });
    expect(response.statusCode).toBe(200);
    return response.json() as EventList;
  }

  it("does not skip an event whose transaction commits after a later one", async () => {
    const start = (await feed("now")).next_cursor ?? "";
    const releaseEarly = gate();
    const earlyRecorded = gate();
    let earlyId = "";
    // The early transaction takes its id and records first, then stays open while the late one commits.
    const early = transaction(writer.db, async (tx) => {
      earlyId = (await record(tx)).id;
      earlyRecorded.open();
      await releaseEarly.opened;
    });
    await earlyRecorded.opened;
    const late = await transaction(writer.db, (tx) => record(tx));

    // The late event has committed, but it is held back until the early transaction ends: a reader that
    // took it now would move its cursor past the early event and never see it.
    const meanwhile = await feed(start);
    expect(meanwhile.events).toEqual([]);
    expect(meanwhile.next_cursor).toBe(start);

    const rereadsBefore = await heldBackRereads();
    const waiting = feed(start, 30);
    // The waiting request has read, found the late event held back, and waits on: only now end the early one.
    await untilRereads(rereadsBefore + 1);
    releaseEarly.open();
    await early;
    const body = await waiting;
    expect(body.events.map((e) => e.id)).toEqual([earlyId, late.id]);
    // The early event has the smaller sequence, yet committed last: the feed orders by transaction.
    expect((await feed(body.next_cursor ?? "")).events).toEqual([]);
  }, 20_000);

  it("answers a wait held back by an older transaction that records no event, when it ends", async () => {
    const start = (await feed("now")).next_cursor ?? "";
    const release = gate();
    const holding = gate();
    // Takes a transaction id (no write needed) and holds it: every later transaction sorts after it.
    const holder = transaction(writer.db, async (tx) => {
      await tx.execute(sql`select pg_current_xact_id()`);
      holding.open();
      await release.opened;
    });
    await holding.opened;
    const waiting = feed(start, 30);
    const late = await transaction(writer.db, (tx) => record(tx));
    // The waiting request read after the late commit (its NOTIFY or a recheck woke it) and found the event held
    // back, so it waits on; the holder's commit sends no NOTIFY.
    await untilRereads((await heldBackRereads()) + 2);
    release.open();
    await holder;
    const body = await waiting;
    expect(body.events.map((e) => e.id)).toEqual([late.id]);
  }, 20_000);

  it("gives a forward reader every event exactly once while writers commit out of order", async () => {
    const start = (await feed("now")).next_cursor ?? "";
    const committed: string[] = [];
    let writing = true;
    const WRITERS = 8;
    const TRANSACTIONS = 30;
    const writers = Array.from({ length: WRITERS }, async () => {
      for (let i = 0; i < TRANSACTIONS; i += 1) {
        const ids = await transaction(writer.db, async (tx) => {
          const recorded = [(await record(tx)).id];
          // Random hold before commit (and sometimes a second event): commits overtake each other.
          await sleep(Math.random() * 15);
          if (Math.random() < 0.3) recorded.push((await record(tx)).id);
          await sleep(Math.random() * 5);
          return recorded;
        });
        committed.push(...ids);
      }
    });
    const allWritten = Promise.all(writers).finally(() => {
      writing = false;
    });

    const seen: string[] = [];
    let cursor = start;
    // Reads while writing goes on, then once more after the last commit (nothing may be missing then).
    for (;;) {
      const stillWriting = writing;
      const page = await feed(cursor, stillWriting ? 1 : 0);
      seen.push(...page.events.map((e) => e.id));
      cursor = page.next_cursor ?? "";
      if (!stillWriting && !page.has_more) break;
    }
    await allWritten;

    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...committed].sort());
    expect(seen.length).toBeGreaterThanOrEqual(WRITERS * TRANSACTIONS);
  }, 60_000);
});
