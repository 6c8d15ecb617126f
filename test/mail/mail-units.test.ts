// The pieces of outbound mail that need no server: configuration, the layout's escaping, enqueue checks.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { createFieldCipher } from "../../src/platform/crypto.js";
import type { Db } from "../../src/platform/db/client.js";
import type { JobDefinition } from "../../src/platform/jobs/job-definition.js";
import type { EnqueueOptions } from "../../src/platform/jobs/job-store.js";
import { enqueueMail, MAIL_SEND_JOB, mailMessageId } from "../../src/platform/mail/mail-job.js";
import { maskAddresses } from "../../src/platform/mail/mailer.js";
import { dashboardLink, renderEmail, wrapText } from "../../src/platform/mail/templates.js";

describe("mail configuration", () => {
  it("defaults to the file transport and a localhost sender", () => {
    const config = loadConfig({});
    expect(config.mail).toEqual({
      smtpUrl: null,
      smtpAllowPlaintext: false,
      from: "Payouts <no-reply@localhost>",
      dailyLimitPerBusiness: 1000,
    });
  });

  it("reads the per-Business daily limit and the registration e-mail settings, refusing nonsense", () => {
    const config = loadConfig({
      MAIL_DAILY_LIMIT_PER_BUSINESS: "250",
      REGISTRATION_TOKEN_TTL_HOURS: "48",
      REGISTRATION_EMAILS_PER_ADDRESS_PER_DAY: "5",
    });
    expect(config.mail.dailyLimitPerBusiness).toBe(250);
    expect(config.registration).toEqual({ tokenTtlHours: 48, emailsPerAddressPerDay: 5 });
    expect(loadConfig({}).registration).toEqual({ tokenTtlHours: 24, emailsPerAddressPerDay: 3 });
    expect(() => loadConfig({ MAIL_DAILY_LIMIT_PER_BUSINESS: "0" })).toThrow(/MAIL_DAILY_LIMIT_PER_BUSINESS must be between/);
    expect(() => loadConfig({ REGISTRATION_TOKEN_TTL_HOURS: "1 day" })).toThrow(
      /REGISTRATION_TOKEN_TTL_HOURS must be a whole number/,
    );
    expect(() => loadConfig({ REGISTRATION_EMAILS_PER_ADDRESS_PER_DAY: "0" })).toThrow(
      /REGISTRATION_EMAILS_PER_ADDRESS_PER_DAY must be between/,
    );
  });

  it("accepts smtp and smtps URLs and a sender with or without a display name", () => {
    expect(loadConfig({ SMTP_URL: "smtp://user:pass@mail.example.com:587" }).mail.smtpUrl).toBe(
      "smtp://user:pass@mail.example.com:587",
    );
    expect(loadConfig({ SMTP_URL: "smtps://mail.example.com" }).mail.smtpUrl).toBe("smtps://mail.example.com");
    expect(loadConfig({ MAIL_FROM: "payouts@example.com" }).mail.from).toBe("payouts@example.com");
    expect(loadConfig({ MAIL_FROM: '"Acme, Payouts" <payouts@example.com>' }).mail.from).toBe(
      '"Acme, Payouts" <payouts@example.com>',
    );
  });

  it.each([
    [{ SMTP_URL: "https://mail.example.com" }, /SMTP_URL must use the smtp or smtps scheme/],
    [{ SMTP_URL: "mail.example.com:587" }, /SMTP_URL must/],
    [{ SMTP_URL: "not a url" }, /SMTP_URL must be a URL/],
    [{ MAIL_FROM: "Payouts" }, /MAIL_FROM must hold one e-mail address/],
    [{ MAIL_FROM: "a@example.com, b@example.com" }, /MAIL_FROM must hold one e-mail address/],
    [{ MAIL_FROM: "Payouts <no-reply@example.com>\r\nBcc: x@example.com" }, /MAIL_FROM must hold one e-mail address/],
  ])("refuses %o with a message naming the variable", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("never quotes the SMTP password in a configuration error", () => {
    expect(() => loadConfig({ SMTP_URL: "imap://user:hunter2secret@mail.example.com" })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("hunter2secret") }),
    );
  });
});

describe("renderEmail", () => {
  const content = {
    businessName: "<script>alert(1)</script> Ltd",
    heading: "Heading with \"quotes\" & 'apostrophes'",
    paragraphs: ["First <b>paragraph</b>.", "Second line one\nsecond line two"],
    footer: "Footer <img src=x onerror=alert(1)>",
  };

  it("escapes every interpolated value in the HTML body", () => {
    const { html } = renderEmail(content);
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Ltd");
    expect(html).toContain("Heading with &quot;quotes&quot; &amp; &#39;apostrophes&#39;");
    expect(html).toContain("First &lt;b&gt;paragraph&lt;/b&gt;.");
    expect(html).not.toContain("<img");
    expect(html).toContain("Second line one<br>\nsecond line two");
  });

  it("loads nothing remote", () => {
    const { html } = renderEmail({
      businessName: "Acme",
      heading: "You are invited",
      paragraphs: ["Join Acme on the payout service."],
      action: { label: "Accept the invitation", url: "https://pay.example.com/i/abc" },
      footer: "Sent because an administrator of Acme invited you.",
    });
    expect(html).not.toMatch(/<(img|link|script|iframe|style)\b/i);
    expect(html).not.toMatch(/\bsrc=/i);
    expect(html).not.toMatch(/url\(/i);
  });

  it("gives a readable text body with the same content, unescaped", () => {
    const { text } = renderEmail(content);
    expect(text).toContain("<script>alert(1)</script> Ltd");
    expect(text).toContain("First <b>paragraph</b>.");
    expect(text).toContain("\n-- \nFooter");
    expect(text).not.toContain("&lt;");
  });

  it("renders an action link, refusing anything but http(s)", () => {
    const url = 'https://pay.example.com/invitations/abc?x=1&y="2"';
    const { text, html } = renderEmail({ ...content, action: { label: "Open <it>", url } });
    expect(html).toContain('href="https://pay.example.com/invitations/abc?x=1&amp;y=%222%22"');
    expect(html).toContain("Open &lt;it&gt;");
    expect(text).toContain("Open <it>:\nhttps://pay.example.com/invitations/abc?x=1&y=%222%22");
    expect(() => renderEmail({ ...content, action: { label: "x", url: "javascript:alert(1)" } })).toThrow(/http/);
  });

  it("puts the closing paragraphs after the action, in both bodies", () => {
    const { text, html } = renderEmail({
      ...content,
      action: { label: "Open", url: "https://pay.example.com/x" },
      closing: ["If the link <breaks>, paste this."],
    });
    expect(text.indexOf("If the link <breaks>, paste this.")).toBeGreaterThan(text.indexOf("https://pay.example.com/x"));
    expect(html.indexOf("If the link &lt;breaks&gt;, paste this.")).toBeGreaterThan(
      html.indexOf('href="https://pay.example.com/x"'),
    );
  });
});

describe("dashboardLink", () => {
  it("puts the values in the fragment, encoded, under the dashboard of the base URL", () => {
    expect(dashboardLink("https://pay.example.com", "invitation", { token: "a-b_c", email: "a+b@example.com" })).toBe(
      "https://pay.example.com/dashboard/invitation#token=a-b_c&email=a%2Bb%40example.com",
    );
  });
});

describe("enqueueMail", () => {
  const tx = {} as Db;
  const cipher = createFieldCipher(Buffer.alloc(32, 3));
  const recording = () => {
    const enqueued: Array<{ type: string; payload: unknown; dedupeKey?: string | null; runAt?: Date }> = [];
    return {
      enqueued,
      store: {
        enqueue: async <P extends object>(_tx: Db, definition: JobDefinition<P>, payload: P, options: EnqueueOptions = {}) => {
          enqueued.push({
            type: definition.type,
            payload,
            dedupeKey: options.dedupeKey ?? definition.dedupeKeyOf(payload),
            ...(options.runAt === undefined ? {} : { runAt: options.runAt }),
          });
          return "job-id";
        },
      },
    };
  };
  const valid = { to: "a@example.com", subject: "Hello", text: "t", html: "<p>h</p>", idempotency_key: "k-1" };

  it("enqueues a mail.send job deduplicated by the idempotency key, with the message sealed", async () => {
    const { store, enqueued } = recording();
    expect(await enqueueMail({ jobStore: store, cipher }, tx, valid)).toBe("job-id");
    expect(enqueued).toEqual([
      { type: MAIL_SEND_JOB.type, payload: { idempotency_key: "k-1", sealed: expect.any(String) }, dedupeKey: "mail:k-1" },
    ]);
    const payload = enqueued[0]?.payload as { sealed: string };
    const stored = JSON.stringify(payload);
    for (const clear of ["a@example.com", "Hello", "<p>h</p>"]) expect(stored).not.toContain(clear);
    const sealed = payload.sealed;
    expect(JSON.parse(cipher.decrypt(sealed))).toEqual({ to: "a@example.com", subject: "Hello", text: "t", html: "<p>h</p>" });
  });

  it.each([
    [{ to: "a@example.com, b@example.com" }, /exactly one e-mail address/],
    [{ to: "nobody" }, /exactly one e-mail address/],
    [{ idempotency_key: "" }, /idempotency_key/],
    [{ subject: " " }, /subject/],
  ])("refuses %o before anything is enqueued", async (override, error) => {
    const { store, enqueued } = recording();
    await expect(enqueueMail({ jobStore: store, cipher }, tx, { ...valid, ...override })).rejects.toThrow(error);
    expect(enqueued).toEqual([]);
  });

  it("derives a stable Message-ID that does not reveal the key", () => {
    const id = mailMessageId("invitation:secret-ish-id", "example.com");
    expect(id).toBe(mailMessageId("invitation:secret-ish-id", "example.com"));
    expect(id).toMatch(/^<[0-9a-f]{32}@example\.com>$/);
    expect(id).not.toContain("secret-ish-id");
  });
});

describe("maskAddresses", () => {
  it("masks addresses in an SMTP reply", () => {
    expect(maskAddresses("550 5.1.1 <ana@example.com>: Recipient address rejected")).toBe(
      "550 5.1.1 <[address]>: Recipient address rejected",
    );
  });
});

describe("wrapText", () => {
  it("wraps prose at the width without splitting words, keeps explicit breaks, leaves code lines alone", () => {
    const command = `    curl -s -X POST https://payouts.example.com/v1/registration/verification -d '{"token":"${"a".repeat(43)}"}'`;
    const text = `${"word ".repeat(30).trim()}\nshort line\n${command}\n${"x".repeat(90)}`;
    const wrapped = wrapText(text, 72).split("\n");
    for (const line of wrapped.filter((l) => !l.startsWith("    ") && !l.startsWith("x")))
      expect(line.length).toBeLessThanOrEqual(72);
    expect(wrapped.join(" ").replace(/\s+/g, " ")).toBe(text.replace(/\s+/g, " ").trim());
    expect(wrapped).toContain("short line");
    expect(wrapped).toContain(command);
    expect(wrapped).toContain("x".repeat(90));
    expect(renderEmail({ businessName: "A", heading: "H", paragraphs: [text], footer: "f" }).text).toContain(
      "word ".repeat(30).trim(),
    );
  });
});
