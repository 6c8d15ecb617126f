// The role-by-route table: what each route requires comes from it alone, and a /v1 route without an entry
// stops the application from starting (fails closed). The table is the one the composition assembles from the
// modules' contributions (src/composition.ts), read from a test app.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lowerRole } from "../../src/platform/auth/actor.js";
import { assembleRouteRoles, createRouteRoleTable, read, write } from "../../src/platform/auth/route-roles.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

let t: TestApp;
let table: ReturnType<typeof createRouteRoleTable>;
beforeAll(async () => {
  t = await buildTestApp();
  table = createRouteRoleTable(t.runtime.deps.modules.routeRoles);
});
afterAll(async () => t?.close());
const accessOf = (method: string, url: string) => table.accessOf(method, url);
const routeRule = (method: string, url: string) => table.routeRule(method, url);
const routeRuleProblem = (method: string, url: string) => table.routeRuleProblem(method, url);

describe("route-roles", () => {
  it("finds the rule of a route, HEAD by its GET", () => {
    expect(routeRule("GET", "/v1/payouts")?.roles).toEqual(["business_admin", "business_approver", "business_read_only"]);
    expect(routeRule("HEAD", "/v1/payouts")).toEqual(routeRule("GET", "/v1/payouts"));
    expect(routeRule("POST", "/v1/payouts/:payoutId/approve")).toEqual({
      roles: ["business_admin", "business_approver"],
      stepUp: true,
    });
    expect(routeRule("POST", "/v1/nothing-here")).toBeNull();
  });

  it("reports a /v1 route missing from the table; routes outside /v1 need no entry", () => {
    expect(routeRuleProblem("POST", "/v1/new-thing")).toMatch(/no entry/);
    expect(routeRuleProblem("POST", "/v1/payouts")).toBeNull();
    expect(routeRuleProblem("POST", "/v1/session")).toBeNull();
    expect(routeRuleProblem("GET", "/healthz")).toBeNull();
  });

  it("says what each route requires: public, the person's own session, or a Business role", () => {
    expect(accessOf("POST", "/v1/session")).toBe("public");
    expect(accessOf("GET", "/v1/openapi.json")).toBe("public");
    expect(accessOf("HEAD", "/v1/session")).toBe("session");
    expect(accessOf("POST", "/v1/session/two-factor/recovery-codes")).toBe("session");
    expect(accessOf("GET", "/v1/payouts")).toBe("read");
    expect(accessOf("POST", "/v1/payouts")).toBe("write");
    expect(accessOf("GET", "/collect/abc")).toBe("public");
    // Not in the table: a Business route that no role may call (and the start-up check refuses it).
    expect(accessOf("POST", "/v1/new-thing")).toBe("write");
    expect(routeRule("POST", "/v1/session")).toBeNull();
  });

  it("assembles the modules' contributions into one table, refusing a route declared twice", () => {
    expect(assembleRouteRoles([{ "GET /v1/a": read }, { "POST /v1/a": write }])).toEqual({
      "GET /v1/a": read,
      "POST /v1/a": write,
    });
    expect(() => assembleRouteRoles([{ "GET /v1/a": read }, { "GET /v1/a": write }])).toThrow(/GET \/v1\/a is declared twice/);
  });

  it("an API key acts with the lower of its role and its member's", () => {
    expect(lowerRole("business_admin", "business_read_only")).toBe("business_read_only");
    expect(lowerRole("business_approver", "business_admin")).toBe("business_approver");
    expect(lowerRole("business_admin", "business_approver")).toBe("business_approver");
    expect(lowerRole("business_read_only", "business_approver")).toBe("business_read_only");
  });
});
