// Races that PGlite cannot show (it runs one transaction at a time): these run in the PostgreSQL pass.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "../../src/modules/api-keys/api-keys.schema.js";
import { memberships, pendingRegistrations, users } from "../../src/modules/registration/registration.schema.js";
import { businesses } from "../../src/platform/db/shared.schema.js";
import { bearer, createApiKey, registerBusiness } from "../helpers/factories.js";
import { queuedMail, takeRegistrationToken } from "../helpers/mail-queue.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";

describe.skipIf(!onPostgres)("races on PostgreSQL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it("20 concurrent registrations with one e-mail: the same answer for all, at most 3 e-mails, no account yet", async () => {
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
    for (const response of responses) {
      expect(response.statusCode).toBe(202);
      expect(response.body).toBe(responses[0]?.body);
    }
    // The per-recipient limit holds under concurrency: the address is locked while it is counted.
    expect((await queuedMail(t, "registration:")).filter((mail) => mail.to === email)).toHaveLength(3);
    const db = t.runtime.deps.database.db;
    expect(await db.select().from(pendingRegistrations).where(eq(pendingRegistrations.email, email))).toHaveLength(3);
    expect(await db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it("one token verified 10 times at once: exactly one Business, one 201, every other answer 410", async () => {
    const email = `double-submit-${Date.now()}@example.com`;
    const started = await t.app.inject({
      method: "POST",
      url: "/v1/registration",
      payload: { business_name: "Double Submit", email, password: "correct horse battery staple" },
    });
    expect(started.statusCode).toBe(202);
    const token = await takeRegistrationToken(t, email);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.app.inject({ method: "POST", url: "/v1/registration/verification", payload: { token } }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, ...Array.from({ length: 9 }, () => 410)]);
    for (const r of responses.filter((x) => x.statusCode === 410)) expect(r.json().error.code).toBe("REGISTRATION_TOKEN_INVALID");

    const db = t.runtime.deps.database.db;
    const [user, ...others] = await db.select().from(users).where(eq(users.email, email));
    expect(others).toEqual([]);
    const owned = await db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, user?.id ?? ""));
    expect(owned).toHaveLength(1);
    expect(await db.select().from(businesses).where(eq(businesses.name, "Double Submit"))).toHaveLength(1);
    expect(
      await db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.businessId, owned[0]?.businessId ?? "")),
    ).toHaveLength(2);
  });

  it("two tokens of one new address verified at once: one user, two Businesses (the loser joins the winner's user)", async () => {
    const email = `two-tokens-${Date.now()}@example.com`;
    const tokens: string[] = [];
    for (const name of ["Twin A", "Twin B"]) {
      const started = await t.app.inject({
        method: "POST",
        url: "/v1/registration",
        payload: { business_name: name, email, password: "correct horse battery staple" },
      });
      expect(started.statusCode).toBe(202);
      tokens.push(await takeRegistrationToken(t, email));
    }
    const responses = await Promise.all(
      tokens.map((token) => t.app.inject({ method: "POST", url: "/v1/registration/verification", payload: { token } })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([201, 201]);
    const userIds = responses.map((r) => (r.json() as { user: { id: string } }).user.id);
    expect(userIds[0]).toBe(userIds[1]);
    const db = t.runtime.deps.database.db;
    expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
    expect(
      await db
        .select()
        .from(memberships)
        .where(eq(memberships.userId, userIds[0] ?? "")),
    ).toHaveLength(2);
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
