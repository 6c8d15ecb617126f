import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

const base = { ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64") };

describe("rail configuration", () => {
  it("production uses the simulator by default and the control endpoint is off", () => {
    const config = loadConfig(base);
    expect(config.productionRail).toBe("simulator");
    expect(config.simulatorControlToken).toBeNull();
  });

  it("PRODUCTION_RAIL accepts only simulator", () => {
    expect(loadConfig({ ...base, PRODUCTION_RAIL: "simulator" }).productionRail).toBe("simulator");
    expect(() => loadConfig({ ...base, PRODUCTION_RAIL: "acme-bank" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, PRODUCTION_RAIL: "acme-bank" })).toThrow(/PRODUCTION_RAIL/);
  });

  it("SIMULATOR_CONTROL_TOKEN must be long enough, and a refusal never quotes it", () => {
    const token = "t".repeat(40);
    expect(loadConfig({ ...base, SIMULATOR_CONTROL_TOKEN: token }).simulatorControlToken).toBe(token);
    try {
      loadConfig({ ...base, SIMULATOR_CONTROL_TOKEN: "short-secret-value" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect(String(error)).toMatch(/SIMULATOR_CONTROL_TOKEN/);
      expect(String(error)).not.toContain("short-secret-value");
    }
  });
});
