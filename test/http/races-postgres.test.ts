// Races that PGlite cannot show (it runs one transaction at a time): these run in the PostgreSQL pass.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createApiKey, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";

describe.skipIf(!onPostgres)("races on PostgreSQL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it("20 concurrent registrations with one e-mail: exactly one Business is created", async () => {
    const email = `race-${Date.now()}@example.com`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.app.inject({
          method: "POST",
          url: "/v1/registration",
          payload: {
            business_name: `Racer ${i}`,
            email: i % 2 === 0 ? email : email.toUpperCase(),
            password: "correct horse battery staple",
          },
        }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const r of responses.filter((x) => x.statusCode === 409)) expect(r.json().error.code).toBe("EMAIL_ALREADY_REGISTERED");
  });

  it("two admin keys revoking each other at once: exactly one revocation wins, an admin key always remains", async () => {
    for (let round = 0; round < 5; round += 1) {
      const biz = await registerBusiness(t.app);
      const second = await createApiKey(t.app, biz.keys.sandbox, "business_admin");
      const [first, other] = await Promise.all([
        t.app.inject({ method: "DELETE", url: `/v1/api-keys/${second.id}`, headers: bearer(biz.keys.sandbox) }),
        t.app.inject({ method: "DELETE", url: `/v1/api-keys/${biz.keyIds.sandbox}`, headers: bearer(second.key) }),
      ]);
      const statuses = [first.statusCode, other.statusCode].sort();
      // Either one wins and the other finds itself the last admin key (409), or the loser's key was already
      // revoked when it authenticated (401). Never both revoked.
      expect(statuses[0]).toBe(200);
      expect([401, 409]).toContain(statuses[1]);
      const stillWorking = await Promise.all(
        [biz.keys.sandbox, second.key].map((key) => t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(key) })),
      );
      expect(stillWorking.filter((r) => r.statusCode === 200)).toHaveLength(1);
    }
  });
});
