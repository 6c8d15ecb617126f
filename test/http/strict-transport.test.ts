// HSTS: with an https PUBLIC_BASE_URL every answer carries Strict-Transport-Security (the dashboard's index,
// its client routes and static files, the hosted collection pages, the API, the reference, errors and 404s);
// over plain HTTP none does.
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultDashboardDirectory } from "../../src/pages/dashboard/index.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

let https: TestApp;
let http: TestApp;

beforeAll(async () => {
  https = await buildTestApp({ env: { PUBLIC_BASE_URL: "https://payouts.example.com" } });
  http = await buildTestApp();
});
afterAll(async () => {
  await https?.close();
  await http?.close();
});

/** A file of the dashboard's build, when it is built (the browser project's setup builds it). */
function builtAsset(): string | null {
  try {
    const asset = readdirSync(`${defaultDashboardDirectory()}assets`).find((name) => name.endsWith(".js"));
    return asset === undefined ? null : `/dashboard/assets/${asset}`;
  } catch {
    return null;
  }
}

const PATHS = [
  "/dashboard/",
  "/dashboard",
  "/dashboard/payouts",
  "/dashboard/assets/not-a-file-0000.js",
  "/collect/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  "/v1/payouts",
  "/v1/openapi.json",
  "/docs",
  "/no-such-page",
];

describe("Strict-Transport-Security", () => {
  it("is on every page, the dashboard's included, when PUBLIC_BASE_URL is https", async () => {
    const asset = builtAsset();
    for (const url of asset === null ? PATHS : [...PATHS, asset]) {
      const response = await https.app.inject({ method: "GET", url });
      expect(response.headers["strict-transport-security"], url).toBe("max-age=31536000");
    }
    // An authenticated API answer and a refused write too.
    const business = await registerBusiness(https.app, "Hsts Co");
    const listed = await https.app.inject({ method: "GET", url: "/v1/payouts", headers: bearer(business.keys.sandbox) });
    expect(listed.statusCode).toBe(200);
    expect(listed.headers["strict-transport-security"]).toBe("max-age=31536000");
  });

  it("is never sent over plain HTTP", async () => {
    for (const url of PATHS) {
      const response = await http.app.inject({ method: "GET", url });
      expect(response.headers["strict-transport-security"], url).toBeUndefined();
    }
  });
});
