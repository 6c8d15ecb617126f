import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseProcessRole } from "../../src/config.js";

describe("loadConfig", () => {
  it("gives working defaults for the embedded database", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeNull();
    expect(config.dataDir.endsWith("/data")).toBe(true);
    expect(config.docsBaseUrl).toBe("http://localhost:3000/docs");
    expect(config.encryptionKey).toBeNull();
  });

  it("derives DOCS_BASE_URL from PUBLIC_BASE_URL unless set", () => {
    expect(loadConfig({ PUBLIC_BASE_URL: "https://pay.example.com/" }).docsBaseUrl).toBe("https://pay.example.com/docs");
    expect(loadConfig({ DOCS_BASE_URL: "https://docs.example.com" }).docsBaseUrl).toBe("https://docs.example.com");
  });

  it.each([
    [{ PORT: "abc" }, /PORT must be a whole number/],
    [{ PORT: "70000" }, /PORT must be between/],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL must be one of/],
    [{ TRUST_PROXY: "maybe" }, /TRUST_PROXY must be true or false/],
    [{ PUBLIC_BASE_URL: "ftp://x" }, /PUBLIC_BASE_URL must be an http\(s\) URL/],
    [{ ENCRYPTION_KEY: "c2hvcnQ=" }, /ENCRYPTION_KEY must be 32 bytes/],
    [{ DATABASE_URL: "postgres://x@y/z" }, /ENCRYPTION_KEY is required when DATABASE_URL is set/],
  ])("refuses %o with a message naming the variable", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("accepts PostgreSQL with a key", () => {
    const key = Buffer.alloc(32, 1).toString("base64");
    const config = loadConfig({ DATABASE_URL: "postgres://x@y/z", ENCRYPTION_KEY: key });
    expect(config.databaseUrl).toBe("postgres://x@y/z");
    expect(config.encryptionKey?.length).toBe(32);
  });

  it("parses process roles", () => {
    expect(parseProcessRole(undefined)).toBe("all");
    expect(parseProcessRole("api")).toBe("api");
    expect(parseProcessRole("worker")).toBe("worker");
    expect(() => parseProcessRole("web")).toThrow(/unknown process role/);
  });
});
