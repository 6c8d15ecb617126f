// Sessions that expire (idle timeout, absolute lifetime) are marked ended with a `session_expired` audit
// record: when presented again, and by the session sweep job for those nobody presents again. Each expiry
// is recorded once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { type SignedIn, sessionHeaders, signIn } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";

let t: TestApp;

beforeAll(async () => {
  // Idle 30 minutes, absolute lifetime 1 hour.
  t = await buildTestApp({ env: { SESSION_IDLE_MINUTES: "30", SESSION_ABSOLUTE_HOURS: "1" } });
});
afterAll(async () => {
  await t?.close();
});

interface AuditRecord {
  action: string;
  actor: { user_id: string | null; session_id: string | null };
  subject: { type: string; id: string } | null;
  client_address: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
}

async function expiries(business: RegisteredBusiness): Promise<AuditRecord[]> {
  const response = await t.app.inject({
    method: "GET",
    url: "/v1/audit-records?action=session_expired",
    headers: bearer(business.keys.sandbox),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().audit_records;
}

const getSession = (s: SignedIn, agent = "vitest") =>
  t.app.inject({ method: "GET", url: "/v1/session", headers: { ...sessionHeaders(s, null), "user-agent": agent } });
const sweep = () => t.runtime.createWorker(`sweep-${Math.random()}`).drain();

describe("session expiry", () => {
  it("an idle session presented again is ended and recorded once, with the client that presented it", async () => {
    const business = await registerBusiness(t.app, "Idle Co");
    const s = await signIn(t.app, business.email);
    t.clock.advance(31 * 60_000);
    expectErrorEnvelope(await getSession(s, "Idle Browser/1.0"), { status: 401, code: "SESSION_EXPIRED", actor: null });
    expectErrorEnvelope(await getSession(s), { status: 401, code: "SESSION_EXPIRED", actor: null });
    const records = await expiries(business);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      actor: { user_id: business.userId, session_id: s.body.session.id },
      subject: { type: "session", id: s.body.session.id },
      user_agent: "Idle Browser/1.0",
      details: { reason: "idle_timeout", detected_by: "presented" },
    });
    expect(records[0]?.client_address).not.toBeNull();
    // The sweep finds nothing left to end.
    await sweep();
    expect(await expiries(business)).toHaveLength(1);
  });

  it("the sweep ends sessions nobody presents again: idle ones, and active ones at their absolute lifetime", async () => {
    const business = await registerBusiness(t.app, "Sweep Co");
    const idle = await signIn(t.app, business.email);
    const active = await signIn(t.app, business.email);
    // Nothing has expired yet: the sweep leaves both alone.
    await sweep();
    expect(await expiries(business)).toHaveLength(0);

    for (let round = 0; round < 2; round++) {
      t.clock.advance(20 * 60_000);
      expect((await getSession(active)).statusCode).toBe(200);
      await sweep();
    }
    // 65 minutes after sign-in: the idle one was swept after its idle timeout; the active one passed its
    // lifetime at 60 minutes, and the sweep runs in 5-minute slots.
    t.clock.advance(25 * 60_000);
    await sweep();
    const records = await expiries(business);
    const bySession = new Map(records.map((r) => [r.subject?.id, r]));
    expect(records).toHaveLength(2);
    expect(bySession.get(idle.body.session.id)?.details).toMatchObject({ reason: "idle_timeout", detected_by: "sweep" });
    expect(bySession.get(active.body.session.id)?.details).toMatchObject({
      reason: "absolute_lifetime",
      detected_by: "sweep",
    });
    expect(bySession.get(idle.body.session.id)?.client_address).toBeNull();
    // Ended, not merely expired: presenting either now adds no record.
    expectErrorEnvelope(await getSession(idle), { status: 401, code: "SESSION_EXPIRED", actor: null });
    expectErrorEnvelope(await getSession(active), { status: 401, code: "SESSION_EXPIRED", actor: null });
    expect(await expiries(business)).toHaveLength(2);
  });
});
