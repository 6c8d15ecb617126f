// WEBHOOK_ALLOW_PRIVATE_TARGETS: off unless set, and a bad value stops the process with a clear message.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

describe("WEBHOOK_ALLOW_PRIVATE_TARGETS", () => {
  it("is off by default and turns on only when asked", () => {
    expect(loadConfig({}).webhooks.allowPrivateTargets).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }).webhooks.allowPrivateTargets).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "0" }).webhooks.allowPrivateTargets).toBe(false);
  });

  it("refuses a value that is not a boolean, naming the variable", () => {
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "sometimes" })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "sometimes" })).toThrow(/WEBHOOK_ALLOW_PRIVATE_TARGETS/);
  });
});
