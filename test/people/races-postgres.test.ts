// Races of the team that PGlite cannot show (it runs one transaction at a time): PostgreSQL only.
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKeyService } from "../../src/modules/api-keys/api-keys.service.js";
import { memberships, users } from "../../src/modules/registration/registration.schema.js";
import { noAudit } from "../../src/platform/auth/audit.js";
import { transaction } from "../../src/platform/db/client.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { addMember, invitationTokenFor, STRONG_PASSWORD } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";

describe.skipIf(!onPostgres)("team races on PostgreSQL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it("simultaneous acceptances of one invitation make one member; the others get 410 INVITATION_INVALID", async () => {
    for (let round = 0; round < 5; round++) {
      const owner = await registerBusiness(t.app, `Invite Race ${round}`);
      const email = `invite-race-${round}-${Date.now()}@example.com`;
      const invited = await t.app.inject({
        method: "POST",
        url: "/v1/invitations",
        headers: bearer(owner.keys.sandbox),
        payload: { email, role: "business_approver" },
      });
      expect(invited.statusCode).toBe(201);
      const token = await invitationTokenFor(t.app, email);
      const responses = await Promise.all(
        Array.from({ length: 6 }, () =>
          t.app.inject({ method: "POST", url: "/v1/invitations/acceptance", payload: { token, password: STRONG_PASSWORD } }),
        ),
      );
      const statuses = responses.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 410, 410, 410, 410, 410]);
      for (const loser of responses.filter((r) => r.statusCode === 410))
        expect(loser.json().error.code).toBe("INVITATION_INVALID");
      const db = t.runtime.deps.database.db;
      const people = await db.select().from(users).where(eq(users.email, email));
      expect(people).toHaveLength(1);
      const members = await db
        .select()
        .from(memberships)
        .where(and(eq(memberships.businessId, owner.businessId), isNull(memberships.removedAt)));
      expect(members.map((m) => m.role).sort()).toEqual(["business_admin", "business_approver"]);
    }
  });

  it("two admins demoting each other at once cannot leave zero admins", async () => {
    for (let round = 0; round < 5; round++) {
      const owner = await registerBusiness(t.app, `Demote Race ${round}`);
      const other = await addMember(t.app, owner.keys.sandbox, "business_admin");
      // An admin key of the other admin, issued directly (as registration issues keys).
      const db = t.runtime.deps.database.db;
      const issued = await transaction(db, (tx) =>
        createApiKeyService({ db, clock: t.clock, ids: t.runtime.deps.ids, recordAudit: noAudit }).issueApiKey(tx, {
          businessId: owner.businessId,
          environment: "sandbox",
          membershipId: other.membershipId,
          role: "business_admin",
          label: "other admin",
        }),
      );
      const [a, b] = await Promise.all([
        t.app.inject({
          method: "PATCH",
          url: `/v1/members/${other.membershipId}`,
          headers: bearer(owner.keys.sandbox),
          payload: { role: "business_read_only" },
        }),
        t.app.inject({
          method: "PATCH",
          url: `/v1/members/${owner.membershipId}`,
          headers: bearer(issued.key),
          payload: { role: "business_read_only" },
        }),
      ]);
      const admins = await db
        .select()
        .from(memberships)
        .where(
          and(
            eq(memberships.businessId, owner.businessId),
            eq(memberships.role, "business_admin"),
            isNull(memberships.removedAt),
          ),
        );
      expect(admins).toHaveLength(1);
      const statuses = [a?.statusCode, b?.statusCode].sort();
      // One demotion wins. The other either finds itself the last admin (409 LAST_ADMIN) or, when its key was
      // demoted first, is no longer an admin at all (403 forbidden): never two demotions.
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
    }
  });
});
