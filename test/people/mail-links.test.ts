// The invitation and password-reset e-mails link to the dashboard page that completes them, with the token in
// the URL's fragment (never sent to a server), built on PUBLIC_BASE_URL whatever Host the request named; the
// token stays in the text on a line of its own for mail clients that break links.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { queuedMails } from "../helpers/queued-mail.js";
import { invitationTokenFor, resetTokenFor } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

let t: TestApp;
let owner: RegisteredBusiness;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await registerBusiness(t.app, "Mail Links Co");
});
afterAll(async () => {
  await t?.close();
});

async function newestMail(to: string, keyPrefix: string) {
  const mails = (await queuedMails(t, to)).filter((mail) => mail.idempotency_key.startsWith(keyPrefix));
  const mail = mails[mails.length - 1];
  if (mail === undefined) throw new Error(`no ${keyPrefix} e-mail to ${to}`);
  return mail;
}

describe("links to the dashboard in e-mails", () => {
  it("the invitation links to the invitation page with the token and the invited address in the fragment", async () => {
    const email = "linked-invitee@example.com";
    const invited = await t.app.inject({
      method: "POST",
      url: "/v1/invitations",
      // A forged Host must not change where the link points.
      headers: { ...bearer(owner.keys.sandbox), host: "attacker.example" },
      payload: { email, role: "business_read_only" },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const token = await invitationTokenFor(t.app, email);
    const mail = await newestMail(email, "invitation:");
    const link = `http://service.test/dashboard/invitation#token=${token}&email=linked-invitee%40example.com`;
    expect(mail.text).toContain(`Accept the invitation:\n${link}\n`);
    expect(mail.html).toContain(`href="${link.replaceAll("&", "&amp;")}"`);
    // The pasteable token is still there, with the page to paste it on.
    expect(mail.text).toContain(`\n    ${token}\n`);
    expect(mail.text).toContain("http://service.test/dashboard/invitation");
    expect(`${mail.text}${mail.html}`).not.toContain("attacker.example");
    expect(mail.text).not.toContain("?token=");
  });

  it("the password reset links to the reset page with the token in the fragment", async () => {
    const asked = await t.app.inject({
      method: "POST",
      url: "/v1/password-resets",
      headers: { host: "attacker.example" },
      payload: { email: owner.email },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const token = await resetTokenFor(t.app, owner.email);
    expect(token).not.toBeNull();
    const mail = await newestMail(owner.email, "password-reset:");
    const link = `http://service.test/dashboard/reset-password#token=${token}`;
    expect(mail.text).toContain(`Choose a new password:\n${link}\n`);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.text).toContain(`\n    ${token}\n`);
    expect(`${mail.text}${mail.html}`).not.toContain("attacker.example");
  });
});
