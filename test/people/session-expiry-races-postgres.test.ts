// An expired session found at once by requests presenting it and by two sweeping workers is ended once and
// recorded once (the conditional update lets one ender through): PostgreSQL only, where they truly overlap.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { sessionHeaders, signIn } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";

describe.skipIf(!onPostgres)("session expiry races on PostgreSQL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it("requests and two sweepers ending the same expired sessions record each expiry exactly once", async () => {
    const business = await registerBusiness(t.app, "Expiry Race Co");
    const sessions = [];
    for (let i = 0; i < 8; i++) sessions.push(await signIn(t.app, business.email));
    t.clock.advance(31 * 60_000);
    const presented = sessions.flatMap((s) =>
      Array.from({ length: 2 }, () =>
        t.app.inject({ method: "GET", url: "/v1/session", headers: sessionHeaders(s, null) }).then((r) => r.statusCode),
      ),
    );
    const [statuses] = await Promise.all([
      Promise.all(presented),
      t.runtime.createWorker("sweeper-a").drain(),
      t.runtime.createWorker("sweeper-b").drain(),
    ]);
    expect(new Set(statuses)).toEqual(new Set([401]));
    const response = await t.app.inject({
      method: "GET",
      url: "/v1/audit-records?action=session_expired&limit=100",
      headers: bearer(business.keys.sandbox),
    });
    const records = response.json().audit_records as { subject: { id: string } }[];
    expect(records.map((r) => r.subject.id).sort()).toEqual(sessions.map((s) => s.body.session.id).sort());
  });
});
