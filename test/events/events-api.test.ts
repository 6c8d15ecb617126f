// GET /v1/events and GET /v1/events/{id}: the recorded events of the caller's environment in the webhook
// envelope shape, newest first with filters and pages, isolated per Business and environment; and the
// feed mode (`after`, `wait`): oldest first after a cursor, answering at once when events exist, woken by a
// commit, ending empty with the same cursor, and answering waiting requests at once on shutdown.
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tenant } from "../../src/platform/auth/actor.js";
import { transaction } from "../../src/platform/db/client.js";
import type { EventType } from "../../src/platform/events/outbox.js";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { sessionHeaders, signIn } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

interface EventBody {
  id: string;
  type: string;
  api_version: string;
  occurred_at: string;
  created_at: string;
  sequence: number;
  data: Record<string, unknown>;
}
interface EventList {
  events: EventBody[];
  next_cursor: string | null;
  has_more: boolean;
}

const METRICS_TOKEN = "metrics-token-0123456789abcdef0123456789abcdef";

/**
 * Until `count` requests wait on the feed (the `events_feed_waiting_requests` gauge): a request in flight
 * is otherwise invisible to the test, and recording before it waits would prove nothing about waking.
 */
async function waitingRequests(testApp: TestApp, count: number): Promise<void> {
  for (;;) {
    const metrics = await testApp.app.inject({ method: "GET", url: "/metrics", headers: bearer(METRICS_TOKEN) });
    if (new RegExp(`^events_feed_waiting_requests ${count}$`, "m").test(metrics.body)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `events_feed_rereads_total` for one cause (0 before the first). */
async function rereads(testApp: TestApp, cause: string): Promise<number> {
  const metrics = await testApp.app.inject({ method: "GET", url: "/metrics", headers: bearer(METRICS_TOKEN) });
  const match = new RegExp(`^events_feed_rereads_total\\{cause="${cause}"\\} (\\d+)$`, "m").exec(metrics.body);
  return Number(match?.[1] ?? 0);
}

const BENEFICIARY_A = "0196f1a3-0a1b-7c20-8e55-8091a2b3c4d6";
const BENEFICIARY_B = "0196f1a3-0a1b-7c20-8e55-8091a2b3c4d7";

describe("events API", () => {
  let testApp: TestApp;
  let business: RegisteredBusiness;
  let other: RegisteredBusiness;
  let sandbox: Tenant;

  /** Records one event as a use case would (in its own transaction). */
  async function record(tenant: Tenant, subjectId: string, type: EventType = "beneficiary.details_submitted") {
    const { events, database } = testApp.runtime.deps;
    const data =
      type === "beneficiary.details_submitted"
        ? { beneficiary_id: subjectId, status: "details_submitted" }
        : { beneficiary_id: subjectId, status: "rejected", bank_account_id: null, reason: "Account closed." };
    const recorded = await transaction(database.db, (tx) => events.record(tx, { tenant, type, subjectId, data }));
    testApp.clock.advance(1000);
    return recorded;
  }

  async function get(url: string, key = business.keys.sandbox) {
    return testApp.app.inject({ method: "GET", url, headers: bearer(key) });
  }

  beforeAll(async () => {
    testApp = await buildTestApp({ env: { METRICS_TOKEN } });
    business = await registerBusiness(testApp.app);
    other = await registerBusiness(testApp.app, "Other Ltd");
    sandbox = { businessId: business.businessId, environment: "sandbox" };
  });
  afterAll(async () => testApp?.close());

  it("lists newest first in the webhook envelope shape, and reads one event", async () => {
    const first = await record(sandbox, BENEFICIARY_A);
    const second = await record(sandbox, BENEFICIARY_B, "beneficiary.enrollment_rejected");
    const response = await get("/v1/events?limit=2");
    expect(response.statusCode).toBe(200);
    const body = response.json() as EventList;
    expect(body.events.map((e) => e.id)).toEqual([second.id, first.id]);
    const [newest] = body.events;
    expect(newest).toEqual({
      id: second.id,
      type: "beneficiary.enrollment_rejected",
      api_version: "2026-05-27",
      occurred_at: expect.any(String),
      created_at: newest?.occurred_at,
      sequence: second.sequence,
      data: { beneficiary_id: BENEFICIARY_B, status: "rejected", bank_account_id: null, reason: "Account closed." },
    });

    const one = await get(`/v1/events/${first.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: first.id, type: "beneficiary.details_submitted", sequence: first.sequence });
  });

  it("filters by type, subject and recording time, and pages with cursors", async () => {
    const start = testApp.clock.now().toISOString();
    const recorded = [];
    for (let i = 0; i < 5; i += 1) recorded.push(await record(sandbox, i % 2 === 0 ? BENEFICIARY_A : BENEFICIARY_B));
    const end = testApp.clock.now().toISOString();

    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `since=${encodeURIComponent(start)}&until=${encodeURIComponent(end)}&limit=2${cursor === null ? "" : `&cursor=${cursor}`}`;
      const page = (await get(`/v1/events?${query}`)).json() as EventList;
      ids.push(...page.events.map((e) => e.id));
      expect(page.has_more).toBe(page.next_cursor !== null);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(ids).toEqual(recorded.map((r) => r.id).reverse());

    const bySubject = (
      await get(`/v1/events?subject_id=${BENEFICIARY_B}&since=${encodeURIComponent(start)}`)
    ).json() as EventList;
    expect(bySubject.events.map((e) => e.id)).toEqual([recorded[3]?.id, recorded[1]?.id]);
    const byType = (await get("/v1/events?type=beneficiary.enrollment_rejected")).json() as EventList;
    expect(byType.events.length).toBeGreaterThan(0);
    expect(byType.events.every((e) => e.type === "beneficiary.enrollment_rejected")).toBe(true);
  });

  it("shows only the caller's Business and environment; another's event is 404", async () => {
    const production = await record({ businessId: business.businessId, environment: "production" }, BENEFICIARY_A);
    const foreign = await record({ businessId: other.businessId, environment: "sandbox" }, BENEFICIARY_A);
    const listed = (await get("/v1/events?limit=200")).json() as EventList;
    expect(listed.events.map((e) => e.id)).not.toContain(production.id);
    expect(listed.events.map((e) => e.id)).not.toContain(foreign.id);
    expect((await get(`/v1/events/${production.id}`)).statusCode).toBe(404);
    expect((await get(`/v1/events/${foreign.id}`)).statusCode).toBe(404);
    expect((await get(`/v1/events/${production.id}`, business.keys.production)).statusCode).toBe(200);
    const otherList = (await get("/v1/events?limit=200", other.keys.sandbox)).json() as EventList;
    expect(otherList.events.map((e) => e.id)).toEqual([foreign.id]);
    const feed = (await get("/v1/events?after=start&limit=200", other.keys.sandbox)).json() as EventList;
    expect(feed.events.map((e) => e.id)).toEqual([foreign.id]);
  });

  it("lets a read-only key and a signed-in person read", async () => {
    const readOnly = await createApiKey(testApp.app, business.keys.sandbox, "business_read_only");
    expect((await get("/v1/events", readOnly.key)).statusCode).toBe(200);
    const signedIn = await signIn(testApp.app, business.email);
    const viaSession = await testApp.app.inject({
      method: "GET",
      url: "/v1/events?after=start&limit=1",
      headers: sessionHeaders(signedIn, "sandbox"),
    });
    expect(viaSession.statusCode).toBe(200);
    expect((await get("/v1/events", "pok_sandbox_nonsense")).statusCode).toBe(401);
  });

  it("refuses bad input with the error envelope", async () => {
    const cases = [
      "/v1/events?cursor=bm90LWEtY3Vyc29y",
      "/v1/events?after=bm90LWEtY3Vyc29y",
      "/v1/events?wait=5",
      "/v1/events?after=now&wait=31",
      "/v1/events?after=now&cursor=eyJpZCI6IjAxOTZmMWEzLTBhMWItN2MyMC04ZTU1LTgwOTFhMmIzYzRkNiJ9",
      "/v1/events?type=payout.unknown",
      "/v1/events?subject_id=nope",
      "/v1/events?since=2026-05-28T00:00:00Z&until=2026-05-27T00:00:00Z",
      "/v1/events?limit=0",
    ];
    for (const url of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.code, url).toBe("validation_failed");
    }
    expect((await get("/v1/events/not-a-uuid")).statusCode).toBe(400);
    expect((await get("/v1/events/0196f1a3-0a1b-7c20-8e55-000000000000")).statusCode).toBe(404);
  });

  describe("feed mode", () => {
    it("returns events oldest first after a cursor, page by page, and nothing twice", async () => {
      const all: string[] = [];
      let after = "start";
      for (;;) {
        const page = (await get(`/v1/events?after=${after}&limit=3`)).json() as EventList;
        all.push(...page.events.map((e) => e.id));
        expect(page.next_cursor).not.toBeNull();
        after = page.next_cursor ?? "";
        if (!page.has_more) break;
      }
      const newestFirst = (await get("/v1/events?limit=200")).json() as EventList;
      expect(all).toEqual(newestFirst.events.map((e) => e.id).reverse());
      // Continuing from the last cursor: empty now, then exactly the new events.
      expect(((await get(`/v1/events?after=${after}`)).json() as EventList).events).toEqual([]);
      const added = await record(sandbox, BENEFICIARY_A);
      const next = (await get(`/v1/events?after=${after}`)).json() as EventList;
      expect(next.events.map((e) => e.id)).toEqual([added.id]);
    });

    it("starts at now: only events recorded afterwards", async () => {
      await record(sandbox, BENEFICIARY_A);
      const now = (await get("/v1/events?after=now")).json() as EventList;
      expect(now.events).toEqual([]);
      const later = await record(sandbox, BENEFICIARY_B);
      const next = (await get(`/v1/events?after=${now.next_cursor}`)).json() as EventList;
      expect(next.events.map((e) => e.id)).toEqual([later.id]);
    });

    it("answers a wait at once when events are there", async () => {
      const cursor = ((await get("/v1/events?after=now")).json() as EventList).next_cursor;
      const added = await record(sandbox, BENEFICIARY_A);
      const response = await get(`/v1/events?after=${cursor}&wait=30`);
      expect((response.json() as EventList).events.map((e) => e.id)).toEqual([added.id]);
    });

    it("wakes a waiting request when an event of its environment commits", async () => {
      const cursor = ((await get("/v1/events?after=now")).json() as EventList).next_cursor;
      const notifiedBefore = await rereads(testApp, "notify");
      const polledBefore = await rereads(testApp, "poll");
      const waiting = get(`/v1/events?after=${cursor}&wait=30`);
      // Another environment's event does not answer it; its own does.
      await waitingRequests(testApp, 1);
      await record({ businessId: business.businessId, environment: "production" }, BENEFICIARY_A);
      const added = await record(sandbox, BENEFICIARY_B);
      const body = (await waiting).json() as EventList;
      expect(body.events.map((e) => e.id)).toEqual([added.id]);
      // Woken by the commits' NOTIFYs (the other environment's does not reach it), not by a timer.
      expect(await rereads(testApp, "notify")).toBe(notifiedBefore + 1);
      expect(await rereads(testApp, "poll")).toBe(polledBefore);
    }, 15_000);

    it("ends an empty wait with the cursor it was given", async () => {
      const cursor = ((await get("/v1/events?after=now")).json() as EventList).next_cursor;
      const body = (await get(`/v1/events?after=${cursor}&wait=1`)).json() as EventList;
      expect(body).toEqual({ events: [], next_cursor: cursor, has_more: false });
    });

    it("filters the feed like the list", async () => {
      const cursor = ((await get("/v1/events?after=now")).json() as EventList).next_cursor;
      await record(sandbox, BENEFICIARY_A);
      const rejected = await record(sandbox, BENEFICIARY_A, "beneficiary.enrollment_rejected");
      const body = (await get(`/v1/events?after=${cursor}&type=beneficiary.enrollment_rejected&wait=5`)).json() as EventList;
      expect(body.events.map((e) => e.id)).toEqual([rejected.id]);
    });
  });
});

describe("events API: the end of a wait", () => {
  let testApp: TestApp;
  let business: RegisteredBusiness;
  let cursor: string | null;

  beforeAll(async () => {
    testApp = await buildTestApp({ env: { METRICS_TOKEN } });
    business = await registerBusiness(testApp.app);
    const first = await testApp.app.inject({
      method: "GET",
      url: "/v1/events?after=now",
      headers: bearer(business.keys.sandbox),
    });
    cursor = (first.json() as EventList).next_cursor;
  });
  afterAll(async () => testApp?.close());

  it("ends when the client disconnects", async () => {
    const address = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    // A client of its own, closed at the end: the shared one keeps the aborted request's socket open for
    // its keep-alive time (4 s), which the next test's server close would wait out.
    const dispatcher = new Agent();
    try {
      const client = new AbortController();
      const request = undiciFetch(`${address}/v1/events?after=${cursor}&wait=30`, {
        headers: bearer(business.keys.sandbox),
        signal: client.signal,
        dispatcher,
      }).catch((error: unknown) => error);
      await waitingRequests(testApp, 1);
      client.abort();
      expect(await request).toBeInstanceOf(Error);
      // Still waiting 30 s later without the disconnect, past this test's limit.
      await waitingRequests(testApp, 0);
    } finally {
      await dispatcher.destroy();
    }
  }, 15_000);

  it("answers a waiting request at once when the server closes", async () => {
    const waiting = testApp.app.inject({
      method: "GET",
      url: `/v1/events?after=${cursor}&wait=30`,
      headers: bearer(business.keys.sandbox),
    });
    await waitingRequests(testApp, 1);
    const closing = testApp.app.close();
    const response = await waiting;
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ events: [], next_cursor: cursor, has_more: false });
    await closing;
  }, 15_000);
});

describe("events API: a wait longer than the request timeout", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp({ env: { REQUEST_TIMEOUT_MS: "1000", HEADERS_TIMEOUT_MS: "500" } });
  });
  afterAll(async () => testApp?.close());

  it("is not cut by REQUEST_TIMEOUT_MS, which bounds receiving the request only", async () => {
    const business = await registerBusiness(testApp.app);
    const address = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    const headers = bearer(business.keys.sandbox);
    const first = (await (await fetch(`${address}/v1/events?after=now`, { headers })).json()) as EventList;
    // Twice the request timeout, which the server checks every 125 ms here (HEADERS_TIMEOUT_MS / 4).
    const response = await fetch(`${address}/v1/events?after=${first.next_cursor}&wait=2`, { headers });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ events: [], next_cursor: first.next_cursor, has_more: false });
  });
});
