// The start-up check of the role-by-route table: a /v1 route without an entry, or whose declaration
// disagrees with its entry, stops the application from starting (fails closed).
import { describe, expect, it } from "vitest";
import { lowerRole } from "../../src/platform/auth/actor.js";
import { routeRule, routeRuleProblem } from "../../src/platform/auth/route-roles.js";

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

  it("reports a route missing from the table and a write route open to read-only; accepts agreeing ones", () => {
    expect(routeRuleProblem("POST", "/v1/new-thing", "write")).toMatch(/no entry/);
    expect(routeRuleProblem("GET", "/v1/payouts", "write")).toMatch(/declared write/);
    expect(routeRuleProblem("POST", "/v1/payouts", "write")).toBeNull();
    expect(routeRuleProblem("GET", "/v1/payouts", "read")).toBeNull();
    expect(routeRuleProblem("POST", "/v1/session", "public")).toBeNull();
  });

  it("an API key acts with the lower of its role and its member's", () => {
    expect(lowerRole("business_admin", "business_read_only")).toBe("business_read_only");
    expect(lowerRole("business_approver", "business_admin")).toBe("business_approver");
    expect(lowerRole("business_admin", "business_approver")).toBe("business_approver");
    expect(lowerRole("business_read_only", "business_approver")).toBe("business_read_only");
  });
});
