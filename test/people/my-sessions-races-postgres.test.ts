// Ending one of my sessions from several of my other sessions at once: it is ended once and recorded once, and
// every other request gets the 404 of a session that is gone (the conditional update lets one ender through).
// PostgreSQL only, where the requests truly overlap.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { sessionHeaders, signIn } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";

describe.skipIf(!onPostgres)("ending my sessions at once on PostgreSQL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it("six sessions ending the same seventh: one 204, five 404, one audit record", async () => {
    const business = await registerBusiness(t.app, "End Race Co");
    const target = await signIn(t.app, business.email);
    const enders = [];
    for (let i = 0; i < 6; i++) enders.push(await signIn(t.app, business.email));
    const statuses = await Promise.all(
      enders.map((s) =>
        t.app
          .inject({ method: "DELETE", url: `/v1/session/sessions/${target.body.session.id}`, headers: sessionHeaders(s, null) })
          .then((r) => r.statusCode),
      ),
    );
    expect(statuses.sort()).toEqual([204, 404, 404, 404, 404, 404]);
    const response = await t.app.inject({
      method: "GET",
      url: "/v1/audit-records?action=session_ended",
      headers: bearer(business.keys.sandbox),
    });
    const records = response.json().audit_records as { subject: { id: string } }[];
    expect(records.map((r) => r.subject.id)).toEqual([target.body.session.id]);
  });
});
