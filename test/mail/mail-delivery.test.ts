// E-mail leaves only from durable jobs after commit: through a real SMTP server on loopback when SMTP_URL
// is set, as .eml files under DATA_DIR/mail otherwise. Runs on PGlite, and on PostgreSQL when
// TEST_DATABASE_URL is set.
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { transaction } from "../../src/platform/db/client.js";
import type { JobDefinition } from "../../src/platform/jobs/job-definition.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import type { JobContext } from "../../src/platform/jobs/worker.js";
import { defaultRetryDelayMs } from "../../src/platform/jobs/worker.js";
import { enqueueMail, MAIL_SEND_JOB, type MailJobPayload, mailMessageId } from "../../src/platform/mail/mail-job.js";
import { renderEmail } from "../../src/platform/mail/templates.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { parseMime, partOfType, type SmtpSink, startSmtpSink } from "./smtp-sink.js";

class Rollback extends Error {}

const SENDER_DOMAIN = "mail.example.test";
const MAIL_FROM = `Payout Service <payouts@${SENDER_DOMAIN}>`;
const RECIPIENT = "ana.owner@example.test";
const SMTP_USER = "mailer";
const SMTP_PASS = "p@ss w0rd";

function message(idempotencyKey: string, overrides: Partial<MailJobPayload> = {}): MailJobPayload {
  const { text, html } = renderEmail({
    businessName: "Acme <Payouts> & Co",
    heading: "Your payout destination changed",
    paragraphs: ["The bank account for Café Lumière was replaced.", "If you did not expect this, contact support."],
    footer: "You receive this because you administer Acme on the payout service.",
  });
  return { to: RECIPIENT, subject: "Payout destination changed", text, html, idempotency_key: idempotencyKey, ...overrides };
}

async function enqueueCommitted(t: TestApp, payload: MailJobPayload): Promise<string | null> {
  return transaction(t.runtime.deps.database.db, (tx) =>
    enqueueMail({ jobStore: t.runtime.deps.jobStore, cipher: t.runtime.deps.cipher }, tx, payload),
  );
}

async function mailJob(t: TestApp, idempotencyKey: string) {
  return t.runtime.deps.database.db
    .select()
    .from(jobs)
    .where(eq(jobs.dedupeKey, `mail:${idempotencyKey}`));
}

describe("mail over SMTP", () => {
  let sink: SmtpSink;
  let t: TestApp;
  const drain = () => t.runtime.createWorker("mail-test-worker").drain();

  beforeAll(async () => {
    sink = await startSmtpSink({ credentials: { user: SMTP_USER, pass: SMTP_PASS } });
    const smtpUrl = `smtp://${encodeURIComponent(SMTP_USER)}:${encodeURIComponent(SMTP_PASS)}@127.0.0.1:${sink.port}`;
    t = await buildTestApp({ env: { SMTP_URL: smtpUrl, MAIL_FROM } });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });
  beforeEach(() => {
    sink.received.length = 0;
    sink.rejectRecipients = null;
  });

  it("sends a committed message after commit: To, Subject, From, text and HTML parts, Message-ID from the key", async () => {
    const key = "destination-changed:0197a1f2-0000-7000-8000-000000000001";
    expect(await enqueueCommitted(t, message(key))).not.toBeNull();
    // Enqueued, committed, and not yet sent: only a worker sends.
    expect(sink.received).toHaveLength(0);

    expect(await drain()).toBe(1);

    expect(sink.received).toHaveLength(1);
    const received = sink.received[0]!;
    expect(received.envelopeTo).toEqual([RECIPIENT]);
    expect(received.envelopeFrom).toBe(`payouts@${SENDER_DOMAIN}`);
    expect(received.user).toBe(SMTP_USER);

    const mime = parseMime(received.raw);
    expect(mime.headers.to).toBe(RECIPIENT);
    expect(mime.headers.subject).toBe("Payout destination changed");
    expect(mime.headers.from).toBe(MAIL_FROM);
    expect(mime.headers["message-id"]).toBe(mailMessageId(key, SENDER_DOMAIN));
    expect(mime.headers["message-id"]).toMatch(new RegExp(`^<[0-9a-f]{32}@${SENDER_DOMAIN.replaceAll(".", "\\.")}>$`));
    expect(mime.headers["auto-submitted"]).toBe("auto-generated");
    expect(mime.headers["content-type"]).toMatch(/^multipart\/alternative;/);

    const textPart = partOfType(mime, "text/plain");
    const htmlPart = partOfType(mime, "text/html");
    expect(textPart?.headers["content-type"]).toMatch(/charset=utf-8/i);
    expect(textPart?.body).toContain("The bank account for Café Lumière was replaced.");
    expect(textPart?.body).toContain("Acme <Payouts> & Co");
    expect(htmlPart?.body).toContain("<h1");
    expect(htmlPart?.body).toContain("Acme &lt;Payouts&gt; &amp; Co");
    expect(htmlPart?.body).toContain("Café Lumière");

    const [job] = await mailJob(t, key);
    expect(job?.type).toBe(MAIL_SEND_JOB.type);
    expect(job?.status).toBe("succeeded");
    expect(job?.attempts).toBe(1);

    // Logs name the message, never its recipient, its body or the relay's password.
    const logs = t.logLines.join("");
    expect(logs).toContain(mailMessageId(key, SENDER_DOMAIN));
    expect(logs).not.toContain(RECIPIENT);
    expect(logs).not.toContain("Lumière");
    expect(logs).not.toContain(SMTP_PASS);
    expect(logs).not.toContain(encodeURIComponent(SMTP_PASS));
  });

  it("sends nothing for a message enqueued in a transaction that rolled back", async () => {
    const key = "rolled-back:1";
    await expect(
      transaction(t.runtime.deps.database.db, async (tx) => {
        expect(
          await enqueueMail({ jobStore: t.runtime.deps.jobStore, cipher: t.runtime.deps.cipher }, tx, message(key)),
        ).not.toBeNull();
        throw new Rollback("the change failed");
      }),
    ).rejects.toBeInstanceOf(Rollback);

    expect(await drain()).toBe(0);
    expect(sink.received).toHaveLength(0);
    expect(await mailJob(t, key)).toEqual([]);
  });

  it("sends one message when the same idempotency key is enqueued twice", async () => {
    const key = "retried-use-case:1";
    expect(await enqueueCommitted(t, message(key))).not.toBeNull();
    // The use case runs again (a client retry): same key, nothing new enqueued, even with other content.
    expect(await enqueueCommitted(t, message(key, { subject: "A second version" }))).toBeNull();

    expect(await drain()).toBe(1);
    expect(await drain()).toBe(0);

    expect(sink.received).toHaveLength(1);
    expect(parseMime(sink.received[0]!.raw).headers.subject).toBe("Payout destination changed");
    expect(await mailJob(t, key)).toHaveLength(1);
  });

  it("gives a message sent again (its job ran twice after a crash) the same Message-ID", async () => {
    const key = "crash-after-send:1";
    const handler = t.runtime.handlers[MAIL_SEND_JOB.type]!;
    const context = {} as JobContext;
    // The payload exactly as enqueueMail stores it (sealed), captured instead of written to the jobs table.
    let stored: unknown;
    const capture = {
      enqueue: async <P extends object>(_tx: unknown, definition: JobDefinition<P>, payload: P) => {
        stored = definition.encode(payload);
        return "captured";
      },
    };
    await enqueueMail({ jobStore: capture, cipher: t.runtime.deps.cipher }, t.runtime.deps.database.db, message(key));
    await handler(stored, context);
    await handler(stored, context);

    expect(sink.received).toHaveLength(2);
    const [first, second] = sink.received.map((mail) => parseMime(mail.raw).headers["message-id"]);
    expect(first).toBe(mailMessageId(key, SENDER_DOMAIN));
    expect(second).toBe(first);
    expect(mailMessageId("crash-after-send:2", SENDER_DOMAIN)).not.toBe(first);
  });

  it("retries a message the relay refused and sends it once the relay accepts", async () => {
    const key = "relay-refuses:1";
    sink.rejectRecipients = { code: 451, message: `4.3.0 <${RECIPIENT}> mailbox temporarily unavailable` };
    expect(await enqueueCommitted(t, message(key))).not.toBeNull();

    expect(await drain()).toBe(1);
    expect(sink.received).toHaveLength(0);
    const [failed] = await mailJob(t, key);
    expect(failed?.status).toBe("pending");
    expect(failed?.attempts).toBe(1);
    expect(failed?.lastError).toMatch(/451/);
    // The relay's reply names the recipient; the stored error does not.
    expect(failed?.lastError).not.toContain(RECIPIENT);
    expect(failed?.runAt.getTime()).toBe(t.clock.now().getTime() + defaultRetryDelayMs(1));
    expect(t.logLines.join("")).not.toContain(RECIPIENT);

    sink.rejectRecipients = null;
    // Not due yet: the retry waits for its delay.
    expect(await drain()).toBe(0);
    expect(sink.received).toHaveLength(0);

    t.clock.advance(defaultRetryDelayMs(1) + 1);
    expect(await drain()).toBe(1);
    expect(sink.received).toHaveLength(1);
    expect(parseMime(sink.received[0]!.raw).headers["message-id"]).toBe(mailMessageId(key, SENDER_DOMAIN));
    const [sent] = await mailJob(t, key);
    expect(sent?.status).toBe("succeeded");
    expect(sent?.attempts).toBe(2);
    expect(sent?.lastError).toBeNull();
  });
});

describe("mail refused for good", () => {
  let sink: SmtpSink;
  let t: TestApp;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await buildTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${sink.port}` } });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it("buries a message the relay refuses permanently (5xx) instead of retrying it", async () => {
    const key = "relay-refuses-for-good:1";
    sink.rejectRecipients = { code: 550, message: "5.1.1 mailbox unknown" };
    expect(await enqueueCommitted(t, message(key))).not.toBeNull();
    expect(await t.runtime.createWorker("mail-refused").drain()).toBe(1);
    const [job] = await mailJob(t, key);
    expect(job?.status).toBe("dead");
    expect(job?.attempts).toBe(1);
    expect(job?.lastError).toMatch(/550/);
    sink.rejectRecipients = null;
    t.clock.advance(24 * 60 * 60_000);
    expect(await t.runtime.createWorker("mail-refused").drain()).toBe(0);
    expect(sink.received).toHaveLength(0);
  });
});

describe("mail without SMTP_URL", () => {
  let dataDir: string;
  let t: TestApp;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "payouts-mail-"));
    t = await buildTestApp({ env: { DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await t?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("writes each message as an .eml file under DATA_DIR/mail", async () => {
    const mailDir = path.join(dataDir, "mail");
    const key = "file-transport:1";
    expect(await enqueueCommitted(t, message(key))).not.toBeNull();
    // Nothing is written before a worker sends.
    await expect(stat(mailDir)).rejects.toMatchObject({ code: "ENOENT" });

    expect(await t.runtime.createWorker("mail-file-worker").drain()).toBe(1);

    const files = await readdir(mailDir);
    expect(files).toHaveLength(1);
    const file = files[0]!;
    // Time-sortable UUIDv7 first, then the Message-ID.
    expect(file).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}-[0-9a-f]{32}_localhost\.eml$/);
    expect((await stat(path.join(mailDir, file))).mode & 0o777).toBe(0o600);

    const raw = await readFile(path.join(mailDir, file), "utf8");
    expect(raw).not.toContain("\r\n");
    const mime = parseMime(raw);
    expect(mime.headers.from).toBe("Payouts <no-reply@localhost>");
    expect(mime.headers.to).toBe(RECIPIENT);
    expect(mime.headers.subject).toBe("Payout destination changed");
    expect(mime.headers["message-id"]).toBe(mailMessageId(key, "localhost"));
    expect(partOfType(mime, "text/plain")?.body).toContain("Café Lumière");
    expect(partOfType(mime, "text/html")?.body).toContain("Acme &lt;Payouts&gt; &amp; Co");

    const [job] = await mailJob(t, key);
    expect(job?.status).toBe("succeeded");
  });
});
