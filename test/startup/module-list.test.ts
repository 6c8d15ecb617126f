// Both process roles build the same module list: `api` (runtime + buildApp) and `worker` (runtime + its job
// handlers) compose the modules through the one composition root (src/composition.ts), so they hold the same
// modules in the same order, and the job types the worker registers are exactly the job definitions the modules
// (and the process-level jobs of the root) declare, which are every job definition in src/.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/platform/logger.js";
import { createRuntime, type Runtime } from "../../src/runtime.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

const root = path.resolve(import.meta.dirname, "../..");

/** The `type` of every `defineJob({ type: "…" })` written in src/. */
function jobTypesDefinedInSource(): string[] {
  const files = readdirSync(path.join(root, "src"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
  const types: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, "src", file), "utf8");
    for (const match of text.matchAll(/defineJob\(\{\s*type:\s*"([^"]+)"/g)) types.push(match[1] as string);
  }
  return types.sort();
}

describe("the module list", () => {
  let api: TestApp;
  let worker: Runtime;

  beforeAll(async () => {
    // The `api` role: a runtime and the app built from it (what main.ts does for `api` and `all`).
    api = await buildTestApp();
    // The `worker` role: another process's runtime on the same database, with the same configuration.
    worker = await createRuntime(api.config, {
      clock: api.clock,
      logger: createLogger("silent"),
      database: api.testDatabase.database,
    });
  });

  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it("is the same in both roles: the same modules in the same order", () => {
    const names = (runtime: Runtime) => runtime.deps.modules.modules.map((module) => module.name);
    expect(names(worker)).toEqual(names(api.runtime));
    expect(names(api.runtime)).toEqual([
      "registration",
      "people",
      "business-profile",
      "emails",
      "api-keys",
      "beneficiaries",
      "destinations",
      "beneficiary-export",
      "beneficiary-import",
      "collection",
      "webhooks",
      "events",
      "enrollment",
      "rail-simulator",
      "payouts",
      "bank-rails",
      "ledger",
      "funding",
      "top-ups",
      "payout-limits",
      "control-changes",
      "reconciliation",
      "screening",
    ]);
  });

  it("registers in the worker exactly the job definitions the modules and the root declare, every one in src/", () => {
    const declared = (runtime: Runtime) =>
      [
        ...runtime.deps.modules.modules.flatMap((module) => module.jobs?.definitions ?? []),
        ...runtime.deps.modules.processJobs.definitions,
      ]
        .map((definition) => definition.type)
        .sort();
    expect(Object.keys(worker.handlers).sort()).toEqual(declared(worker));
    expect(Object.keys(api.runtime.handlers).sort()).toEqual(declared(api.runtime));
    expect(declared(worker)).toEqual(declared(api.runtime));
    expect(declared(worker)).toEqual(jobTypesDefinedInSource());
  });

  it("serves the API and the jobs from one composition per process (`all` mode)", () => {
    // Every module with routes registered them on the app built from the runtime's composition.
    const routes = api.app.printRoutes({ commonPrefix: false });
    expect(routes).toContain("/v1/payouts");
    expect(routes).toContain("/v1/bank-rails");
    expect(routes).toContain("/v1/registration");
    // The worker's handlers are the very ones of the modules the API was built from: one composition.
    const payouts = api.runtime.deps.modules.modules.find((module) => module.name === "payouts");
    const handlers = payouts?.jobs?.handlers ?? {};
    expect(Object.keys(handlers).length).toBeGreaterThan(0);
    for (const [type, handler] of Object.entries(handlers)) expect(api.runtime.handlers[type]).toBe(handler);
  });
});
