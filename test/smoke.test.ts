import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, registerBusiness } from "./helpers/factories.js";
import { buildTestApp, type TestApp } from "./helpers/test-app.js";

describe("smoke", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it("registers and lists keys", async () => {
    const biz = await registerBusiness(t.app);
    const res = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(biz.keys.sandbox) });
    expect(res.statusCode).toBe(200);
    expect(res.json().api_keys).toHaveLength(1);
  });
});
