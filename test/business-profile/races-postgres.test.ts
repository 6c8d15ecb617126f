// Admins changing the Business profile at the same moment (PostgreSQL only: PGlite runs one transaction at a
// time, so it cannot show a race). The row is locked for the change, so the changes take turns: every request
// succeeds, and the audit records form one chain from the old name to the name stored, each record's `from`
// being what the change before it wrote. Without the lock, several records would start from the old name.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createApiKey, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";

describe.skipIf(!onPostgres)("Business profile races on PostgreSQL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it("simultaneous renames take turns: each is audited from the name the previous one wrote", async () => {
    for (let round = 0; round < 3; round++) {
      const owner = await registerBusiness(t.app, `Race Original ${round}`);
      const keys = [owner.keys.sandbox, owner.keys.production];
      for (let i = 0; i < 2; i++) keys.push((await createApiKey(t.app, owner.keys.sandbox, "business_admin")).key);
      const names = keys.map((_, i) => `Race ${round} Name ${i}`);
      const responses = await Promise.all(
        keys.map((key, i) =>
          t.app.inject({ method: "PATCH", url: "/v1/business", headers: bearer(key), payload: { name: names[i] } }),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);

      const stored = (await t.app.inject({ method: "GET", url: "/v1/business", headers: bearer(owner.keys.sandbox) })).json();
      const audit = await t.app.inject({
        method: "GET",
        url: "/v1/audit-records?action=business_profile_changed",
        headers: bearer(owner.keys.sandbox),
      });
      const changes = (audit.json().audit_records as Array<{ details: { changes: { name: { from: string; to: string } } } }>).map(
        (record) => record.details.changes.name,
      );
      expect(changes).toHaveLength(4);
      // Follow the chain from the original name: each step's `from` is the previous step's `to`.
      const byFrom = new Map(changes.map((change) => [change.from, change.to]));
      expect(byFrom.size, JSON.stringify(changes)).toBe(4);
      let name = `Race Original ${round}`;
      const visited: string[] = [];
      while (byFrom.has(name)) {
        name = byFrom.get(name) ?? "";
        visited.push(name);
      }
      expect(visited.sort()).toEqual([...names].sort());
      expect(stored.name).toBe(name);
    }
  });
});
