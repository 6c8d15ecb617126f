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
    expect(config.http).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      connectionTimeoutMs: 300_000,
    });
    // A short request timeout lowers the default headers timeout with it.
    expect(loadConfig({ REQUEST_TIMEOUT_MS: "5000" }).http.headersTimeoutMs).toBe(5000);
  });

  it("derives DOCS_BASE_URL from PUBLIC_BASE_URL unless set", () => {
    expect(loadConfig({ PUBLIC_BASE_URL: "https://pay.example.com/" }).docsBaseUrl).toBe("https://pay.example.com/docs");
    expect(loadConfig({ DOCS_BASE_URL: "https://docs.example.com" }).docsBaseUrl).toBe("https://docs.example.com");
  });

  it.each([
    [{ PORT: "abc" }, /PORT must be a whole number/],
    [{ PORT: "70000" }, /PORT must be between/],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL must be one of/],
    [{ TRUST_PROXY: "maybe" }, /TRUST_PROXY: "maybe" is not an IP address, a CIDR range/],
    [{ TRUST_PROXY: "10.0.0.0/33" }, /TRUST_PROXY: "10.0.0.0\/33" is not an IP address/],
    [{ TRUST_PROXY: "10.0.0.1, proxy.internal" }, /TRUST_PROXY: "proxy.internal" is not an IP address/],
    [{ METRICS_TOKEN: "too-short" }, /METRICS_TOKEN must be at least 32 characters/],
    [{ METRICS_PORT: "3000" }, /METRICS_PORT must differ from PORT \(3000\)/],
    [{ METRICS_PORT: "http" }, /METRICS_PORT must be a whole number/],
    [{ TRUST_PROXY: "33" }, /TRUST_PROXY must be a hop count between 1 and 32/],
    [{ PUBLIC_BASE_URL: "ftp://x" }, /PUBLIC_BASE_URL must be an http\(s\) URL/],
    [
      { REQUEST_TIMEOUT_MS: "5000", HEADERS_TIMEOUT_MS: "8000" },
      /HEADERS_TIMEOUT_MS \(8000\) must not exceed REQUEST_TIMEOUT_MS/,
    ],
    [{ REQUEST_TIMEOUT_MS: "0" }, /REQUEST_TIMEOUT_MS must be between 100/],
    [{ ENCRYPTION_KEY: "c2hvcnQ=" }, /ENCRYPTION_KEY must be 32 bytes/],
    [{ DATABASE_URL: "postgres://x@y/z" }, /ENCRYPTION_KEY is required when DATABASE_URL is set/],
  ])("refuses %o with a message naming the variable", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("refuses TRUST_PROXY=true and says what to set instead", () => {
    for (const value of ["true", "TRUE", "yes", "on"]) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        `TRUST_PROXY=${value} would trust every hop, so any client could choose its own address with X-Forwarded-For; ` +
          "set the number of proxies in front of the service (TRUST_PROXY=1 for one load balancer) or their addresses (TRUST_PROXY=10.0.0.5,10.0.1.0/24)",
      );
    }
  });

  it("reads TRUST_PROXY as off, a hop count, or the proxies' addresses and ranges", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.5, 10.0.1.0/24,fd00::/8 , loopback" }).trustProxy).toEqual([
      "10.0.0.5",
      "10.0.1.0/24",
      "fd00::/8",
      "loopback",
    ]);
  });

  it("serves no metrics unless a token or a listener is configured; the listener binds to loopback", () => {
    expect(loadConfig({}).metrics).toEqual({ token: null, port: null, host: "127.0.0.1" });
    const token = "t".repeat(32);
    expect(loadConfig({ METRICS_TOKEN: token, METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" }).metrics).toEqual({
      token,
      port: 9464,
      host: "0.0.0.0",
    });
  });

  it("keeps expired tokens 7 days, captured sandbox mail and ended sessions 30 days, unless told otherwise", () => {
    expect(loadConfig({}).retention).toEqual({ expiredTokenDays: 7, sandboxEmailDays: 30, endedSessionDays: 30 });
    expect(
      loadConfig({
        EXPIRED_TOKEN_RETENTION_DAYS: "1",
        SANDBOX_EMAIL_RETENTION_DAYS: "3650",
        ENDED_SESSION_RETENTION_DAYS: "90",
      }).retention,
    ).toEqual({ expiredTokenDays: 1, sandboxEmailDays: 3650, endedSessionDays: 90 });
    // Less than a day would delete rows the per-recipient and password-reset limits still count.
    expect(() => loadConfig({ EXPIRED_TOKEN_RETENTION_DAYS: "0" })).toThrow(/EXPIRED_TOKEN_RETENTION_DAYS must be between 1/);
    expect(() => loadConfig({ SANDBOX_EMAIL_RETENTION_DAYS: "30d" })).toThrow(
      /SANDBOX_EMAIL_RETENTION_DAYS must be a whole number/,
    );
    expect(() => loadConfig({ ENDED_SESSION_RETENTION_DAYS: "0" })).toThrow(/ENDED_SESSION_RETENTION_DAYS must be between 1/);
  });

  it("limits an inbound bank file to 10 MiB unless told otherwise, between 1 KiB and 64 MiB", () => {
    expect(loadConfig({}).bankRails.inboundMaxFileBytes).toBe(10_485_760);
    expect(loadConfig({ BANK_RAIL_INBOUND_MAX_FILE_BYTES: "65536" }).bankRails.inboundMaxFileBytes).toBe(65_536);
    expect(() => loadConfig({ BANK_RAIL_INBOUND_MAX_FILE_BYTES: "1023" })).toThrow(
      /BANK_RAIL_INBOUND_MAX_FILE_BYTES must be between 1024 and 67108864, got 1023/,
    );
    expect(() => loadConfig({ BANK_RAIL_INBOUND_MAX_FILE_BYTES: "67108865" })).toThrow(/must be between 1024 and 67108864/);
    expect(() => loadConfig({ BANK_RAIL_INBOUND_MAX_FILE_BYTES: "10MB" })).toThrow(
      /BANK_RAIL_INBOUND_MAX_FILE_BYTES must be a whole number, got "10MB"/,
    );
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
