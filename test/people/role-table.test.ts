// The role-by-route table (assembled in src/app.ts from each module's <m>.access.ts) checked against every route of the
// application, for API keys and dashboard sessions alike: each authenticated /v1 route has one entry, the
// OpenAPI document shows it, and every role is let through exactly where the table says (a refused role
// gets the access hook's 403 `forbidden`; an allowed one gets past authorization: whatever else it answers,
// not 401 nor that refusal).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeRuleKey } from "../../src/platform/auth/route-roles.js";
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
  it("is the one source of access: every /v1 route has one entry, which the OpenAPI document shows", () => {
    const authenticated = operations.filter((op) => !op.public && !op.sessionOnly);
    expect(authenticated.length).toBeGreaterThan(40);
    for (const op of operations) {
      const entry = t.runtime.deps.modules.routeRoles[routeRuleKey(op.method, op.path)];
      expect(entry, `${op.method} ${op.path} has no entry`).toBeDefined();
      const kind = entry === undefined ? "none" : "access" in entry ? entry.access : "roles";
      // The document's security follows the table: none for public routes, the cookie alone for a person's own.
      expect(op.public ? "public" : op.sessionOnly ? "session" : "roles", `${op.method} ${op.path}`).toBe(kind);
      if (entry !== undefined && "roles" in entry) expect(op.xRoles, `${op.method} ${op.path} x-roles`).toEqual(entry.roles);
    }
    // No entry names a route that does not exist.
    for (const key of Object.keys(t.runtime.deps.modules.routeRoles)) {
      const [method = "", url = ""] = key.split(" ");
      expect(t.app.hasRoute({ method: method as "GET", url }), `${key} is in the table but not a route`).toBe(true);
    }
  });

  for (const credential of ["key", "session"] as const) {
    it(`lets each role through exactly where the table says, with an API key and with a session (${credential})`, async () => {
      const mismatches: string[] = [];
      for (const op of operations.filter((o) => !o.public && !o.sessionOnly)) {
        const entry = t.runtime.deps.modules.routeRoles[routeRuleKey(op.method, op.path)];
        const rule = entry !== undefined && "roles" in entry ? entry : undefined;
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

  it("refuses an API key on a person's own routes, and asks a session for step-up where the table says", async () => {
    const own = await t.app.inject({ method: "GET", url: "/v1/session", headers: bearer(keys.business_admin) });
    expect(own.statusCode).toBe(401);
    expect(own.json().error.code).toBe("SESSION_REQUIRED");
    // Last in the file: moving the clock past the step-up window ends every session's confirmation.
    t.clock.advance(10 * 60_000);
    const stepUp = await t.app.inject({
      method: "POST",
      url: "/v1/session/two-factor/recovery-codes",
      headers: sessionHeaders(sessions.business_read_only, null),
    });
    expect(stepUp.statusCode).toBe(401);
    expect(stepUp.json().error.code).toBe("STEP_UP_REQUIRED");
  });
});
