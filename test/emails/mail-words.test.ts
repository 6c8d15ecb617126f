// E-mails in words (issue 30): no raw enum values, an .eml file that reads as text (no quoted-printable breaks
// in the token or the example command), and an HTML body that does not cut words to fit a phone.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderVerificationMail } from "../../src/modules/registration/registration.mail.js";
import { createMailer, plainTextPart } from "../../src/platform/mail/mailer.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { queuedMails } from "../helpers/queued-mail.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

const TOKEN = "Zq3v9K2mX8pL4rT7wY1bN6cH5dF0gJ2sA9eU3iO8kMx";

describe("e-mails in words", () => {
  let t: TestApp;
  let owner: RegisteredBusiness;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await registerBusiness(t.app, "Mail Words Ltd");
  });
  afterAll(async () => t.close());

  it("an invitation names the role as the dashboard does, never business_approver", async () => {
    const invited = await t.app.inject({
      method: "POST",
      url: "/v1/invitations",
      headers: bearer(owner.keys.sandbox),
      payload: { email: "approver@example.com", role: "business_approver" },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const [mail] = (await queuedMails(t, "approver@example.com")).filter((m) => m.idempotency_key.startsWith("invitation:"));
    expect(mail?.text.replace(/\s+/g, " ")).toContain("as Approver (reads and decides payouts)");
    expect(mail?.text).not.toMatch(/business_(approver|admin|read_only)/);
    expect(mail?.html).not.toMatch(/business_(approver|admin|read_only)/);
  });

  it("the registration .eml reads as text: the token and the curl command are whole lines", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "mail-words-"));
    try {
      const mailer = createMailer({ smtpUrl: null, dataDir, from: "Payouts <no-reply@localhost>" });
      const mail = renderVerificationMail({
        businessName: "Acme",
        token: TOKEN,
        publicBaseUrl: "http://localhost:3000",
        ttlHours: 24,
      });
      await mailer.send({ to: "admin@acme.test", subject: mail.subject, text: mail.text, html: mail.html });
      await mailer.close();
      const [file] = await readdir(path.join(dataDir, "mail"));
      const raw = await readFile(path.join(dataDir, "mail", file ?? ""), "utf8");
      const textPart = raw.slice(raw.indexOf("Content-Type: text/plain"), raw.indexOf("Content-Type: text/html"));
      expect(textPart).toContain("Content-Transfer-Encoding: 7bit");
      expect(textPart).toContain(`\n    ${TOKEN}\n`);
      expect(textPart).toContain("\n    curl -s -X POST http://localhost:3000/v1/registration/verification \\\n");
      expect(textPart).toContain(`\n      -d '{"token":"${TOKEN}"}'\n`);
      expect(textPart).toContain(`http://localhost:3000/dashboard/sign-up/verify#token=${TOKEN}\n`);
      // No quoted-printable: no `=3D`, and no soft line break (a line ending in `=` that is not the heading's rule).
      expect(textPart).not.toContain("=3D");
      expect(textPart.split("\n").filter((line) => line.endsWith("=") && !/^=+$/.test(line))).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("a text part with non-ASCII words travels as 8bit; one that cannot travel unencoded keeps nodemailer's encoding", () => {
    expect(plainTextPart("Grüße aus Köln")).toEqual({
      raw: "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\nGrüße aus Köln",
    });
    expect(plainTextPart(`a\r\nb`)).toBe("a\r\nb");
    expect(plainTextPart("x".repeat(999))).toBe("x".repeat(999));
  });

  it("the HTML body wraps at word boundaries: nothing is cut mid-word to fit a phone", () => {
    const mail = renderVerificationMail({
      businessName: "Acme",
      token: TOKEN,
      publicBaseUrl: "http://localhost:3000",
      ttlHours: 24,
    });
    expect(mail.html).not.toContain("break-all");
    expect(mail.html).toContain("overflow-wrap:break-word");
  });
});
