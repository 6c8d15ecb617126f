// The SMTP relay is spoken to over verified TLS only: STARTTLS for smtp://, TLS from the first byte for
// smtps://. A relay without STARTTLS, or with a certificate the service does not trust, receives neither the
// credentials nor the message, and the durable mail job stays unsent (retried later). SMTP_ALLOW_PLAINTEXT is
// accepted for a loopback relay only. Real smtp-server relays on loopback; runs on PGlite, and on PostgreSQL
// when TEST_DATABASE_URL is set.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { transaction } from "../../src/platform/db/client.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import { enqueueMail, type MailJobPayload } from "../../src/platform/mail/mail-job.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import type { TestCertificate } from "../helpers/webhook-receiver.js";
import { parseMime, partOfType, type SmtpSink, type SmtpSinkOptions, startSmtpSink } from "./smtp-sink.js";

const SMTP_USER = "relay-user";
const SMTP_PASS = "relay secret p@ss";
const LINK_TOKEN = "ct_0123456789abcdef0123456789abcdef";

function message(idempotencyKey: string): MailJobPayload {
  return {
    to: "beneficiary@example.test",
    subject: "Complete your payout details",
    text: `Open https://pay.example.test/collect/${LINK_TOKEN} to continue.`,
    html: `<p><a href="https://pay.example.test/collect/${LINK_TOKEN}">Continue</a></p>`,
    idempotency_key: idempotencyKey,
  };
}

/** A self-signed certificate for 127.0.0.1 that nobody trusts (unlike the tests' shared one). */
function untrustedCertificate(): TestCertificate {
  const dir = mkdtempSync(path.join(tmpdir(), "smtp-untrusted-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
        "-days",
        "2",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
    return { cert: readFileSync(path.join(dir, "cert.pem"), "utf8"), key: readFileSync(path.join(dir, "key.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Relay {
  readonly sink: SmtpSink;
  readonly t: TestApp;
  /** Enqueues the message in a committed transaction and runs every due job; returns the mail job row. */
  send(key: string): Promise<typeof jobs.$inferSelect>;
  close(): Promise<void>;
}

async function startRelay(sinkOptions: SmtpSinkOptions, smtpUrl: (port: number) => string, env: Record<string, string> = {}) {
  const sink = await startSmtpSink({ credentials: { user: SMTP_USER, pass: SMTP_PASS }, ...sinkOptions });
  const t = await buildTestApp({ env: { SMTP_URL: smtpUrl(sink.port), ...env } });
  const relay: Relay = {
    sink,
    t,
    async send(key) {
      const { db } = t.runtime.deps.database;
      await transaction(db, (tx) =>
        enqueueMail({ jobStore: t.runtime.deps.jobStore, cipher: t.runtime.deps.cipher }, tx, message(key)),
      );
      await t.runtime.createWorker("smtp-tls-worker").drain();
      const [job] = await db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `mail:${key}`));
      if (job === undefined) throw new Error("no mail job");
      return job;
    },
    async close() {
      await t.close();
      await sink.close();
    },
  };
  return relay;
}

const withCredentials = (scheme: "smtp" | "smtps") => (port: number) =>
  `${scheme}://${encodeURIComponent(SMTP_USER)}:${encodeURIComponent(SMTP_PASS)}@127.0.0.1:${port}`;

/** Nothing of the conversation reached the relay or the logs: no AUTH, no message, no password. */
function expectNothingLeaked(relay: Relay): void {
  expect(relay.sink.connections).toBeGreaterThan(0);
  expect(relay.sink.authAttempts).toEqual([]);
  expect(relay.sink.received).toEqual([]);
  const logs = relay.t.logLines.join("");
  expect(logs).not.toContain(SMTP_PASS);
  expect(logs).not.toContain(encodeURIComponent(SMTP_PASS));
  expect(logs).not.toContain(LINK_TOKEN);
}

describe("a relay that offers no STARTTLS", () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await startRelay({ tls: "none" }, withCredentials("smtp"));
  });
  afterAll(async () => relay?.close());

  it("is refused: no credentials and no message reach it, and the mail job is not marked sent", async () => {
    const job = await relay.send("no-starttls:1");
    expectNothingLeaked(relay);
    expect(job.status).toBe("pending");
    expect(job.attempts).toBe(1);
    expect(job.lastError).toMatch(/^mail not sent \(TLS, ETLS\): the relay did not offer a verified TLS connection/);
    expect(job.lastError).not.toContain(SMTP_PASS);
  });
});

describe("STARTTLS with a certificate the service trusts", () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await startRelay({ tls: "starttls" }, withCredentials("smtp"));
  });
  afterAll(async () => relay?.close());

  it("delivers: credentials and message only after the upgrade", async () => {
    const job = await relay.send("starttls-trusted:1");
    expect(job.status).toBe("succeeded");
    expect(relay.sink.authAttempts).toEqual([{ user: SMTP_USER, pass: SMTP_PASS, secure: true }]);
    expect(relay.sink.received).toHaveLength(1);
    const received = relay.sink.received[0]!;
    expect(received.secure).toBe(true);
    expect(received.user).toBe(SMTP_USER);
    expect(partOfType(parseMime(received.raw), "text/plain")?.body).toContain(LINK_TOKEN);
  });
});

describe("STARTTLS with a certificate the service does not trust", () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await startRelay({ tls: "starttls", certificate: untrustedCertificate() }, withCredentials("smtp"));
  });
  afterAll(async () => relay?.close());

  it("is refused after the handshake fails: certificates are verified", async () => {
    const job = await relay.send("starttls-untrusted:1");
    expectNothingLeaked(relay);
    expect(job.status).toBe("pending");
    expect(job.lastError).toMatch(/^mail not sent \(TLS/);
  });
});

describe("smtps:// (TLS from the first byte)", () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await startRelay({ tls: "implicit" }, withCredentials("smtps"));
  });
  afterAll(async () => relay?.close());

  it("delivers over TLS", async () => {
    const job = await relay.send("smtps:1");
    expect(job.status).toBe("succeeded");
    expect(relay.sink.received.map((mail) => mail.secure)).toEqual([true]);
    expect(relay.sink.authAttempts).toEqual([{ user: SMTP_USER, pass: SMTP_PASS, secure: true }]);
  });
});

describe("smtps:// to a relay whose certificate the service does not trust", () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await startRelay({ tls: "implicit", certificate: untrustedCertificate() }, withCredentials("smtps"));
  });
  afterAll(async () => relay?.close());

  it("is refused", async () => {
    const job = await relay.send("smtps-untrusted:1");
    expect(relay.sink.authAttempts).toEqual([]);
    expect(relay.sink.received).toEqual([]);
    expect(job.status).toBe("pending");
    expect(job.lastError).toMatch(/^mail not sent \(TLS/);
  });
});

describe("SMTP_ALLOW_PLAINTEXT=true for a relay on loopback", () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await startRelay({ tls: "none" }, withCredentials("smtp"), { SMTP_ALLOW_PLAINTEXT: "true" });
  });
  afterAll(async () => relay?.close());

  it("delivers over plain text, and says so loudly in the log", async () => {
    const job = await relay.send("plaintext-opt-out:1");
    expect(job.status).toBe("succeeded");
    expect(relay.sink.received.map((mail) => mail.secure)).toEqual([false]);
    expect(relay.sink.authAttempts).toEqual([{ user: SMTP_USER, pass: SMTP_PASS, secure: false }]);
    const warning = relay.t.logLines.find((line) => line.includes("SMTP_ALLOW_PLAINTEXT is set"));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning ?? "{}")).toMatchObject({ level: 40, host: "127.0.0.1" });
  });
});

describe("SMTP TLS configuration", () => {
  it("accepts the plain-text opt-out for a loopback relay only", () => {
    for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "[::1]"]) {
      expect(loadConfig({ SMTP_URL: `smtp://${host}:25`, SMTP_ALLOW_PLAINTEXT: "true" }).mail.smtpAllowPlaintext).toBe(true);
    }
    for (const host of ["relay.example.com", "10.0.0.25", "[fd00::25]", "127.1"]) {
      const env = { SMTP_URL: `smtp://user:hunter2secret@${host}:25`, SMTP_ALLOW_PLAINTEXT: "true" };
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(
        `SMTP_ALLOW_PLAINTEXT is allowed only for a relay on loopback (localhost, 127.0.0.1, ::1), not ${host}`,
      );
      expect(() => loadConfig(env)).toThrow(expect.objectContaining({ message: expect.not.stringContaining("hunter2secret") }));
    }
    expect(loadConfig({ SMTP_URL: "smtp://relay.example.com" }).mail.smtpAllowPlaintext).toBe(false);
  });

  it("refuses the opt-out without a relay, and transport options in SMTP_URL", () => {
    expect(() => loadConfig({ SMTP_ALLOW_PLAINTEXT: "true" })).toThrow(/SMTP_ALLOW_PLAINTEXT is set but SMTP_URL is not/);
    for (const url of [
      "smtp://user:hunter2secret@relay.example.com?ignoreTLS=true",
      "smtps://relay.example.com/?tls.rejectUnauthorized=false",
    ]) {
      expect(() => loadConfig({ SMTP_URL: url })).toThrow(/SMTP_URL must not carry options after the host/);
      expect(() => loadConfig({ SMTP_URL: url })).toThrow(
        expect.objectContaining({ message: expect.not.stringContaining("hunter2secret") }),
      );
    }
  });
});
