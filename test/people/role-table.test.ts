// The role-by-route table (src/platform/auth/route-roles.ts) checked against every route of the
// application, for API keys and dashboard sessions alike: each authenticated /v1 route has one entry, the
// OpenAPI document shows it, and every role is let through exactly where the table says (a refused role
// gets the access hook's 403 `forbidden`; an allowed one gets past authorization: whatever else it answers,
// not 401 nor that refusal).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTE_ROLES, routeRuleKey } from "../../src/platform/auth/route-roles.js";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { addMember, type SignedIn, STRONG_PASSWORD, sessionHeaders, signIn } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

type RoleName = "business_admin" | "business_approver" | "business_read_only";
const ROLE_NAMES: readonly RoleName[] = ["business_admin", "business_approver", "business_read_only"];
const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const PLACEHOLDER_ID = "01900000-0000-7000-8000-0000000000aa";

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly url: string;
  readonly public: boolean;
  readonly sessionOnly: boolean;
  readonly xRoles: string[] | undefined;
}

let t: TestApp;
let owner: RegisteredBusiness;
let operations: Operation[];
const keys = {} as Record<RoleName, string>;
const sessions = {} as Record<RoleName, SignedIn>;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await registerBusiness(t.app, "Roles Co");
  keys.business_admin = owner.keys.sandbox;
  keys.business_approver = (await createApiKey(t.app, owner.keys.sandbox, "business_approver" as never)).key;
  keys.business_read_only = (await createApiKey(t.app, owner.keys.sandbox, "business_read_only")).key;
  sessions.business_admin = await signIn(t.app, owner.email);
  for (const role of ["business_approver", "business_read_only"] as const) {
    const member = await addMember(t.app, owner.keys.sandbox, role);
    sessions[role] = await signIn(t.app, member.email, STRONG_PASSWORD);
  }
  const doc = t.app.swagger() as {
    paths: Record<string, Record<string, { security?: Record<string, string[]>[]; "x-roles"?: string[] }>>;
  };
  operations = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op === undefined) continue;
      operations.push({
        method: method.toUpperCase(),
        path: path.replace(/\{(\w+)\}/g, ":$1"),
        url: path.replace(/\{\w+\}/g, PLACEHOLDER_ID),
        public: Array.isArray(op.security) && op.security.length === 0,
        sessionOnly: JSON.stringify(op.security) === JSON.stringify([{ sessionCookie: [] }]),
        xRoles: op["x-roles"],
      });
    }
  }
});
afterAll(async () => {
  await t?.close();
});

describe("the role-by-route table", () => {
  it("has exactly one entry per authenticated /v1 route, shown in the OpenAPI document as x-roles", () => {
    const authenticated = operations.filter((op) => !op.public && !op.sessionOnly);
    expect(authenticated.length).toBeGreaterThan(40);
    const keysOfRoutes = new Set(authenticated.map((op) => routeRuleKey(op.method, op.path)));
    for (const op of authenticated) {
      const rule = ROUTE_ROLES[routeRuleKey(op.method, op.path)];
      expect(rule, `${op.method} ${op.path} has no entry`).toBeDefined();
      expect(op.xRoles, `${op.method} ${op.path} x-roles`).toEqual(rule?.roles);
    }
    // No entry names a route that does not exist.
    for (const key of Object.keys(ROUTE_ROLES)) {
      expect(keysOfRoutes.has(key), `${key} is in the table but not a route`).toBe(true);
    }
  });

  for (const credential of ["key", "session"] as const) {
    it(`lets each role through exactly where the table says, with an API key and with a session (${credential})`, async () => {
      const mismatches: string[] = [];
      for (const op of operations.filter((o) => !o.public && !o.sessionOnly)) {
        const rule = ROUTE_ROLES[routeRuleKey(op.method, op.path)];
        for (const role of ROLE_NAMES) {
          const headers = credential === "key" ? bearer(keys[role]) : sessionHeaders(sessions[role]);
          const response = await t.app.inject({
            method: op.method as "GET",
            url: op.url,
            headers,
            ...(op.method === "GET" || op.method === "DELETE" ? {} : { payload: {} }),
          });
          const error =
            response.statusCode >= 400 ? (response.json() as { error: { code: string; message: string } }).error : null;
          const code = error?.code ?? "ok";
          const allowed = rule?.roles.includes(role) ?? false;
          // The role refusal, not a route's own 403 (bank rails refuse sandbox callers with `forbidden` too).
          const refused =
            response.statusCode === 403 &&
            code === "forbidden" &&
            /role cannot make this request|not open to any role/.test(error?.message ?? "");
          if (allowed === refused || response.statusCode === 401) {
            mismatches.push(`${role} ${op.method} ${op.path}: ${response.statusCode} ${code} (allowed: ${allowed})`);
          }
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});
