// The shared auth / tenancy check every /v1 route goes through. Given route specs, it generates tests over
// two Businesses (A and B) x two environments x two roles proving that:
//   - no key, a malformed or unknown key, or a revoked key answers 401 with actor null;
//   - a business_read_only key on a write route answers 403 with the caller as actor;
//   - a business_read_only key on a read route is served, like an admin key;
//   - a resource of one tenant, addressed by another Business's key (same environment) or by the same
//     Business's key of the other environment, answers 404 exactly like an id that does not exist;
//   - a list never shows another tenant's items;
//   - the same with a dashboard session of the Business's admin (naming the environment in X-Environment):
//     served on its own tenant, 404 exactly like a missing id on another tenant's resource.
//
// Usage (one call per test file, at top level):
//
//   describeTenancyMatrix("beneficiaries", [
//     { method: "GET", url: () => "/v1/beneficiaries", access: "read", setup: createBeneficiary, listKey: "beneficiaries" },
//     { method: "GET", url: (id) => `/v1/beneficiaries/${id}`, access: "read", setup: createBeneficiary },
//     { method: "POST", url: () => "/v1/beneficiaries", access: "write", payload: () => ({ ... }) },
//   ]);
//
// `setup` receives the tenant that must own the resource and returns the resource's id; a route whose url
// uses the id must have a `setup`. A route is expected to succeed (2xx) when its owner calls it with the
// payload given; that success is what makes each 401/403/404 meaningful.
import { randomBytes, randomUUID } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppInstance } from "../../src/platform/http/types.js";
import { type ErrorBody, type ExpectedActor, expectErrorEnvelope } from "../http/error-envelope.js";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "./factories.js";
import { type SignedIn, sessionHeaders, signIn } from "./sessions.js";
import { buildTestApp, type TestApp, type TestAppOptions } from "./test-app.js";

export type MatrixEnvironment = "sandbox" | "production";
export type MatrixRole = "business_admin" | "business_read_only";

const ENVIRONMENTS: readonly MatrixEnvironment[] = ["sandbox", "production"];
const ROLES: readonly MatrixRole[] = ["business_admin", "business_read_only"];
const BUSINESSES = ["A", "B"] as const;
type BusinessLabel = (typeof BUSINESSES)[number];

/** One Business in one environment, with a key of each role. */
export interface MatrixTenant {
  /** "A/sandbox", "B/production", ... */
  readonly label: string;
  readonly business: BusinessLabel;
  readonly environment: MatrixEnvironment;
  readonly registered: RegisteredBusiness;
  readonly keys: Readonly<Record<MatrixRole, string>>;
  /** The `actor` an error envelope carries for each key. */
  readonly actors: Readonly<Record<MatrixRole, ExpectedActor>>;
  /** A dashboard session of the Business's admin (one per Business; the request names the environment). */
  readonly session: SignedIn;
}

export interface MatrixContext {
  readonly app: AppInstance;
  readonly testApp: TestApp;
  /** The tenant the request is made for (for `setup`: the owner of the resource to create). */
  readonly tenant: MatrixTenant;
}

export interface TenancyRouteSpec {
  /** Shown in test names; defaults to "METHOD url". */
  readonly name?: string;
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Builds the request path from a resource id (ignore the id for collection routes). */
  readonly url: (id: string) => string;
  /** The JSON body a caller of `tenant` sends (write routes). */
  readonly payload?: (context: MatrixContext) => unknown;
  readonly access: "read" | "write";
  /** Creates a resource owned by `context.tenant` and returns its id. */
  readonly setup?: (context: MatrixContext) => Promise<string>;
  /** For list routes: the name of the array of items in the response body. */
  readonly listKey?: string;
  /** For list routes: the field holding an item's id; `id` unless given (payouts use `payout_id`). */
  readonly listItemIdKey?: string;
  /** The code of this route's 404 for an id that does not exist; `not_found` unless given. */
  readonly notFoundCode?: string;
}

export interface TenancyMatrixOptions {
  /** Passed to buildTestApp (e.g. env overrides). */
  readonly app?: TestAppOptions;
}

interface MatrixState {
  readonly testApp: TestApp;
  readonly tenants: readonly MatrixTenant[];
  /** A revoked business_admin key of Business A, per environment. */
  readonly revokedKeys: Readonly<Record<MatrixEnvironment, string>>;
  /** Per route and owner label: the resource reused by tests that must leave it unchanged. */
  readonly untouched: Map<TenancyRouteSpec, Map<string, Promise<string>>>;
}

function tenantOf(state: MatrixState, business: BusinessLabel, environment: MatrixEnvironment): MatrixTenant {
  const tenant = state.tenants.find((t) => t.business === business && t.environment === environment);
  if (tenant === undefined) throw new Error(`no tenant ${business}/${environment}`);
  return tenant;
}

function otherEnvironment(environment: MatrixEnvironment): MatrixEnvironment {
  return environment === "sandbox" ? "production" : "sandbox";
}

function otherBusiness(business: BusinessLabel): BusinessLabel {
  return business === "A" ? "B" : "A";
}

async function setUpTenants(options: TenancyMatrixOptions): Promise<MatrixState> {
  const testApp = await buildTestApp(options.app ?? {});
  const app = testApp.app;
  const tenants: MatrixTenant[] = [];
  const revokedKeys: Partial<Record<MatrixEnvironment, string>> = {};
  for (const business of BUSINESSES) {
    const registered = await registerBusiness(app, `Tenancy ${business}`);
    const session = await signIn(app, registered.email);
    for (const environment of ENVIRONMENTS) {
      const admin = registered.keys[environment];
      const readOnly = await createApiKey(app, admin, "business_read_only", `matrix read-only ${business}`);
      const actor = (role: MatrixRole): ExpectedActor => ({
        user_id: registered.userId,
        membership_id: registered.membershipId,
        role,
        environment,
      });
      tenants.push({
        label: `${business}/${environment}`,
        business,
        environment,
        registered,
        keys: { business_admin: admin, business_read_only: readOnly.key },
        actors: { business_admin: actor("business_admin"), business_read_only: actor("business_read_only") },
        session,
      });
      if (business === "A") {
        const doomed = await createApiKey(app, admin, "business_admin", "matrix revoked");
        const revoke = await app.inject({ method: "DELETE", url: `/v1/api-keys/${doomed.id}`, headers: bearer(admin) });
        if (revoke.statusCode !== 200) throw new Error(`revoking a key failed: ${revoke.statusCode} ${revoke.body}`);
        revokedKeys[environment] = doomed.key;
      }
    }
  }
  const { sandbox, production } = revokedKeys;
  if (sandbox === undefined || production === undefined) throw new Error("revoked keys not set up");
  return { testApp, tenants, revokedKeys: { sandbox, production }, untouched: new Map() };
}

function routeName(spec: TenancyRouteSpec): string {
  return spec.name ?? `${spec.method} ${spec.url("{id}")}`;
}

function usesId(spec: TenancyRouteSpec): boolean {
  return spec.url("00000000-0000-4000-8000-000000000001") !== spec.url("00000000-0000-4000-8000-000000000002");
}

async function send(
  state: MatrixState,
  spec: TenancyRouteSpec,
  tenant: MatrixTenant,
  url: string,
  headers: Record<string, string>,
): Promise<LightMyRequestResponse> {
  const context: MatrixContext = { app: state.testApp.app, testApp: state.testApp, tenant };
  const payload = spec.payload?.(context);
  return state.testApp.app.inject({
    method: spec.method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/**
 * The id the route's url is built from: a resource of `owner`, or (for collection routes) a dummy.
 *
 * `fresh` makes a new resource for this test alone: a test whose request may succeed on a write route changes
 * the resource (approved, archived, deleted), so the next test needs its own. A test whose request must not
 * change anything (refused before it reaches the resource, or a read route) reuses one resource per route and
 * owner, made on first use: setting up a payout or a destination costs more than the request checked.
 */
async function resourceIdFor(state: MatrixState, spec: TenancyRouteSpec, owner: MatrixTenant, fresh: boolean): Promise<string> {
  const setup = spec.setup;
  if (setup === undefined) {
    if (usesId(spec)) throw new Error(`${routeName(spec)}: a route addressed by id needs a setup`);
    return randomUUID();
  }
  const create = () => setup({ app: state.testApp.app, testApp: state.testApp, tenant: owner });
  if (fresh) return create();
  let perOwner = state.untouched.get(spec);
  if (perOwner === undefined) {
    perOwner = new Map();
    state.untouched.set(spec, perOwner);
  }
  let id = perOwner.get(owner.label);
  if (id === undefined) {
    id = create();
    perOwner.set(owner.label, id);
  }
  return id;
}

function expectSuccess(response: LightMyRequestResponse, what: string): void {
  expect(response.statusCode, `${what}: ${response.statusCode} ${response.body}`).toBeGreaterThanOrEqual(200);
  expect(response.statusCode, `${what}: ${response.statusCode} ${response.body}`).toBeLessThan(300);
}

/** Everything a caller learns from a 404, minus what differs per request. */
function comparable(error: ErrorBody): Omit<ErrorBody, "request_id" | "occurred_at"> {
  const { request_id: _requestId, occurred_at: _occurredAt, ...rest } = error;
  return rest;
}

/** Collects every item of a list, following next_cursor. */
async function listAll(
  state: MatrixState,
  spec: TenancyRouteSpec,
  tenant: MatrixTenant,
  role: MatrixRole,
  headers: Record<string, string> = bearer(tenant.keys[role]),
) {
  const listKey = spec.listKey;
  if (listKey === undefined) throw new Error("not a list route");
  const base = spec.url("");
  const items: Array<Record<string, unknown>> = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page += 1) {
    const url: string = cursor === null ? base : `${base}${base.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`;
    const response = await send(state, spec, tenant, url, headers);
    expectSuccess(response, `${tenant.label} ${role} lists ${url}`);
    const body = response.json() as Record<string, unknown>;
    const pageItems = body[listKey];
    expect(Array.isArray(pageItems), `${listKey} is not an array in ${response.body}`).toBe(true);
    items.push(...(pageItems as Array<Record<string, unknown>>));
    const next = body.next_cursor;
    if (typeof next !== "string") return items;
    cursor = next;
  }
  throw new Error("list did not end after 100 pages");
}

export function describeTenancyMatrix(
  title: string,
  routes: readonly TenancyRouteSpec[],
  options: TenancyMatrixOptions = {},
): void {
  describe(`tenancy matrix: ${title}`, () => {
    let state: MatrixState;
    beforeAll(async () => {
      state = await setUpTenants(options);
    });
    afterAll(async () => state?.testApp.close());

    for (const spec of routes) {
      describe(routeName(spec), () => {
        describe("authentication", () => {
          const unauthenticated: Array<[string, () => Record<string, string>]> = [
            ["no Authorization header", () => ({})],
            ["a malformed Authorization header", () => ({ authorization: "Token abc" })],
            ["a malformed key", () => ({ authorization: "Bearer pok_sandbox_nothex_nothex" })],
            [
              "a well-formed unknown key",
              () => ({
                authorization: `Bearer pok_sandbox_${randomBytes(16).toString("hex")}_${randomBytes(32).toString("hex")}`,
              }),
            ],
            ["a revoked sandbox key", () => bearer(state.revokedKeys.sandbox)],
            ["a revoked production key", () => bearer(state.revokedKeys.production)],
          ];
          for (const [name, headers] of unauthenticated) {
            it(`${name} answers 401 with actor null`, async () => {
              const owner = tenantOf(state, "A", "sandbox");
              // Refused before the resource is reached: it stays as it was.
              const id = await resourceIdFor(state, spec, owner, false);
              const response = await send(state, spec, owner, spec.url(id), headers());
              expectErrorEnvelope(response, { status: 401, code: "unauthorized", actor: null });
            });
          }
        });

        describe("roles", () => {
          for (const business of BUSINESSES) {
            for (const environment of ENVIRONMENTS) {
              for (const role of ROLES) {
                const forbidden = spec.access === "write" && role === "business_read_only";
                const outcome = forbidden ? "answers 403 with the caller as actor" : "is served";
                if (role === "business_admin") {
                  it(`${business}/${environment} the admin's session is served`, async () => {
                    const tenant = tenantOf(state, business, environment);
                    const id = await resourceIdFor(state, spec, tenant, spec.access === "write");
                    const response = await send(state, spec, tenant, spec.url(id), sessionHeaders(tenant.session, environment));
                    expectSuccess(response, `${tenant.label} session`);
                  });
                }
                it(`${business}/${environment} ${role} ${outcome}`, async () => {
                  const tenant = tenantOf(state, business, environment);
                  // A served write changes the resource; a refused one or a read does not.
                  const id = await resourceIdFor(state, spec, tenant, spec.access === "write" && !forbidden);
                  const response = await send(state, spec, tenant, spec.url(id), bearer(tenant.keys[role]));
                  if (forbidden) {
                    expectErrorEnvelope(response, { status: 403, code: "forbidden", actor: tenant.actors[role] });
                  } else {
                    expectSuccess(response, `${tenant.label} ${role}`);
                  }
                });
              }
            }
          }
        });

        if (usesId(spec)) {
          describe("another tenant's resource answers 404 exactly like a missing id", () => {
            const roles: readonly MatrixRole[] = spec.access === "write" ? ["business_admin"] : ROLES;
            for (const business of BUSINESSES) {
              for (const environment of ENVIRONMENTS) {
                const intruders: Array<[string, BusinessLabel, MatrixEnvironment]> = [
                  ["another Business, same environment", otherBusiness(business), environment],
                  ["the same Business, other environment", business, otherEnvironment(environment)],
                ];
                for (const [relation, intruderBusiness, intruderEnvironment] of intruders) {
                  it(`${business}/${environment}'s resource via ${relation} (${intruderBusiness}/${intruderEnvironment} admin session)`, async () => {
                    const owner = tenantOf(state, business, environment);
                    const intruder = tenantOf(state, intruderBusiness, intruderEnvironment);
                    // Only refused requests here: the resource stays as it was.
                    const id = await resourceIdFor(state, spec, owner, false);
                    const headers = sessionHeaders(intruder.session, intruderEnvironment);
                    const missing = await send(state, spec, intruder, spec.url(randomUUID()), headers);
                    const missingError = expectErrorEnvelope(missing, {
                      status: 404,
                      code: spec.notFoundCode ?? "not_found",
                      actor: intruder.actors.business_admin,
                    });
                    const crossed = await send(state, spec, intruder, spec.url(id), headers);
                    const crossedError = expectErrorEnvelope(crossed, {
                      status: 404,
                      code: missingError.code,
                      actor: intruder.actors.business_admin,
                    });
                    expect(comparable(crossedError)).toEqual(comparable(missingError));
                  });
                  for (const role of roles) {
                    it(`${business}/${environment}'s resource via ${relation} (${intruderBusiness}/${intruderEnvironment} ${role})`, async () => {
                      const owner = tenantOf(state, business, environment);
                      const intruder = tenantOf(state, intruderBusiness, intruderEnvironment);
                      // The owner's own request below is served: on a write route it changes the resource.
                      const id = await resourceIdFor(state, spec, owner, spec.access === "write");
                      const headers = bearer(intruder.keys[role]);

                      const missing = await send(state, spec, intruder, spec.url(randomUUID()), headers);
                      const missingError = expectErrorEnvelope(missing, {
                        status: 404,
                        code: spec.notFoundCode ?? "not_found",
                        actor: intruder.actors[role],
                      });
                      const crossed = await send(state, spec, intruder, spec.url(id), headers);
                      const crossedError = expectErrorEnvelope(crossed, {
                        status: 404,
                        code: missingError.code,
                        actor: intruder.actors[role],
                      });
                      expect(comparable(crossedError)).toEqual(comparable(missingError));

                      // The resource is still there for its owner: the 404 was about tenancy, not the url.
                      const own = await send(state, spec, owner, spec.url(id), bearer(owner.keys.business_admin));
                      expectSuccess(own, `${owner.label} reaching its own resource`);
                    });
                  }
                }
              }
            }
          });
        }

        if (spec.listKey !== undefined) {
          describe("lists show only the caller's own items", () => {
            const created = new Map<string, string[]>();
            beforeAll(async () => {
              if (spec.setup === undefined) return;
              for (const tenant of state.tenants) {
                const ids: string[] = [];
                for (let i = 0; i < 2; i += 1) {
                  ids.push(await spec.setup({ app: state.testApp.app, testApp: state.testApp, tenant }));
                }
                created.set(tenant.label, ids);
              }
            });

            for (const business of BUSINESSES) {
              for (const environment of ENVIRONMENTS) {
                for (const role of [...ROLES, "session" as const]) {
                  it(`${business}/${environment} ${role} sees its own items and no one else's`, async () => {
                    const tenant = tenantOf(state, business, environment);
                    const items =
                      role === "session"
                        ? await listAll(state, spec, tenant, "business_admin", sessionHeaders(tenant.session, environment))
                        : await listAll(state, spec, tenant, role);
                    const seen = new Set(items.map((item) => String(item[spec.listItemIdKey ?? "id"])));
                    for (const id of created.get(tenant.label) ?? []) expect(seen, `own item ${id} missing`).toContain(id);
                    for (const other of state.tenants) {
                      if (other.label === tenant.label) continue;
                      for (const id of created.get(other.label) ?? []) {
                        expect(seen.has(id), `${other.label}'s item ${id} listed for ${tenant.label}`).toBe(false);
                      }
                    }
                    for (const item of items) {
                      if ("environment" in item) expect(item.environment).toBe(environment);
                      if ("business_id" in item) expect(item.business_id).toBe(tenant.registered.businessId);
                    }
                  });
                }
              }
            }
          });
        }
      });
    }
  });
}
