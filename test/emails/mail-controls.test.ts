// The controls that keep an instance open to registration from relaying mail for strangers:
//  - sandbox mail is captured (readable through GET /v1/sandbox/emails) and not delivered, except to the
//    Business's own verified people;
//  - production mail is limited per Business per day: a collection invitation over the limit is refused
//    (429), a declared-destination notice (owed to the Beneficiary) is deferred until the window frees.
// Mail that is delivered is written as .eml files under DATA_DIR/mail (the embedded default).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { mintLink, PageSession } from "../collection/helpers.js";
import {
  bearer,
  createApiKey,
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { readWrittenMail, tempDataDir } from "../helpers/mail-files.js";
import { queuedMail } from "../helpers/mail-queue.js";
import { buildTestApp, TEST_START, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";

/** /metrics answers only with the operator token on the API port. */
const METRICS_TOKEN = "metrics-token-for-the-mail-controls-test-0123456789";

const DAY_MS = 24 * 60 * 60 * 1000;
const DAILY_LIMIT = 3;

interface SandboxEmail {
  id: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
}

let t: TestApp;
let dataDir: { path: string; remove: () => Promise<void> };

beforeAll(async () => {
  dataDir = await tempDataDir();
  t = await buildTestApp({
    env: { DATA_DIR: dataDir.path, MAIL_DAILY_LIMIT_PER_BUSINESS: String(DAILY_LIMIT), METRICS_TOKEN },
  });
});
afterAll(async () => {
  await t?.close();
  await dataDir?.remove();
});

/** Runs the worker, then returns the messages delivered (written) since the last call. */
let delivered = 0;
async function newlyDelivered() {
  await t.runtime.createWorker("mail-controls").drain();
  const all = await readWrittenMail(dataDir.path);
  const fresh = all.slice(delivered);
  delivered = all.length;
  return fresh;
}

async function sandboxEmails(key: string, query = "") {
  const response = await t.app.inject({ method: "GET", url: `/v1/sandbox/emails${query}`, headers: bearer(key) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { emails: SandboxEmail[]; next_cursor: string | null };
}

function invite(key: string, beneficiaryId: string) {
  return t.app.inject({
    method: "POST",
    url: `/v1/beneficiaries/${beneficiaryId}/collection-requests`,
    headers: bearer(key),
    payload: { scope: "full_onboarding", send_email: true },
  });
}

async function declareAccount(key: string, beneficiaryId: string) {
  const account = await registerBankAccount(t.app, key, beneficiaryId, GERMAN_IBAN_ACCOUNT);
  const response = await t.app.inject({
    method: "PUT",
    url: `/v1/beneficiaries/${beneficiaryId}/declared-destination`,
    headers: bearer(key),
    payload: { destination_id: account.id },
  });
  expect(response.statusCode, response.body).toBe(200);
}

describe("sandbox mail", () => {
  let biz: RegisteredBusiness;
  beforeAll(async () => {
    biz = await registerBusiness(t.app, "Sandbox Sender");
    await newlyDelivered();
  });

  it("an invitation to a stranger is captured, readable through the API with its working link, and not delivered", async () => {
    const stranger = await createBeneficiary(t.app, biz.keys.sandbox, { email: "Stranger.Payee@example.net" });
    const link = await mintLink(t.app, biz.keys.sandbox, stranger.id, "full_onboarding", { send_email: true });
    expect(link.body.email_sent).toBe(true);

    // Nothing queued for delivery, nothing delivered.
    expect(await queuedMail(t, "collection-invitation:")).toEqual([]);
    expect(await newlyDelivered()).toEqual([]);

    const { emails: captured, next_cursor } = await sandboxEmails(biz.keys.sandbox, "?to=stranger.payee%40EXAMPLE.net");
    expect(next_cursor).toBeNull();
    expect(captured).toHaveLength(1);
    const [mail] = captured;
    expect(mail).toEqual({
      id: expect.any(String),
      kind: "collection_invitation",
      to: "Stranger.Payee@example.net",
      subject: "Sandbox Sender: please add your details",
      text: expect.stringContaining(link.url),
      html: expect.stringContaining(link.url),
      created_at: TEST_START.toISOString(),
    });
    const byId = await t.app.inject({ method: "GET", url: `/v1/sandbox/emails/${mail?.id}`, headers: bearer(biz.keys.sandbox) });
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toEqual(mail);

    // The integrator follows the link from the captured e-mail, as the Beneficiary would.
    const url = /http:\/\/service\.test(\/collect\/[A-Za-z0-9_-]{43})/.exec(mail?.text ?? "")?.[1] ?? "";
    const page = await new PageSession(t.app).get(url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Sandbox Sender");

    // Captured bodies carry link tokens, so they are stored encrypted: the token is in no column in clear.
    const rows = await queryRows<Record<string, unknown>>(t.runtime.deps.database.db, sql`select * from emails`);
    expect(JSON.stringify(rows)).not.toContain(link.token);
    expect(JSON.stringify(rows)).not.toContain("Stranger.Payee");
  });

  it("a declared-destination notice to a stranger is captured too", async () => {
    const stranger = await createBeneficiary(t.app, biz.keys.sandbox, { email: "notice.payee@example.net" });
    await declareAccount(biz.keys.sandbox, stranger.id);
    expect(await newlyDelivered()).toEqual([]);
    const { emails: captured } = await sandboxEmails(biz.keys.sandbox, "?to=notice.payee@example.net");
    expect(captured.map((mail) => [mail.kind, mail.subject])).toEqual([
      ["declared_destination_changed", "Sandbox Sender: your payout account changed"],
    ]);
    expect(captured[0]?.text).toContain("ending in 3000");
  });

  it("mail to the Business's own verified person is delivered, not captured", async () => {
    const member = await createBeneficiary(t.app, biz.keys.sandbox, { email: biz.email.toUpperCase() });
    const before = (await sandboxEmails(biz.keys.sandbox)).emails.length;
    const link = await mintLink(t.app, biz.keys.sandbox, member.id, "payout_destination", { send_email: true });

    const mail = await newlyDelivered();
    expect(mail).toHaveLength(1);
    expect(mail[0]?.to.toLowerCase()).toBe(biz.email);
    expect(mail[0]?.subject).toBe("Sandbox Sender: please add your details");
    expect(mail[0]?.text).toContain(link.url);
    expect((await sandboxEmails(biz.keys.sandbox)).emails).toHaveLength(before);
  });

  it("lists newest first in cursor pages; a read-only key may read", async () => {
    const reader = await createApiKey(t.app, biz.keys.sandbox, "business_read_only");
    const all = (await sandboxEmails(reader.key)).emails;
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all.map((mail) => mail.id)).toEqual([...all.map((mail) => mail.id)].sort().reverse());
    const first = await sandboxEmails(reader.key, "?limit=1");
    expect(first.emails.map((mail) => mail.id)).toEqual([all[0]?.id]);
    const second = await sandboxEmails(reader.key, `?limit=1&cursor=${first.next_cursor}`);
    expect(second.emails.map((mail) => mail.id)).toEqual([all[1]?.id]);
  });

  it("another Business sees none of it; a production key is refused; an unknown id is 404", async () => {
    const other = await registerBusiness(t.app, "Other Business");
    const mine = (await sandboxEmails(biz.keys.sandbox)).emails[0];
    expect((await sandboxEmails(other.keys.sandbox)).emails).toEqual([]);
    const crossed = await t.app.inject({
      method: "GET",
      url: `/v1/sandbox/emails/${mine?.id}`,
      headers: bearer(other.keys.sandbox),
    });
    expectErrorEnvelope(crossed, {
      status: 404,
      code: "not_found",
      actor: { user_id: other.userId, membership_id: other.membershipId, role: "business_admin", environment: "sandbox" },
    });

    for (const url of ["/v1/sandbox/emails", `/v1/sandbox/emails/${mine?.id}`]) {
      const production = await t.app.inject({ method: "GET", url, headers: bearer(biz.keys.production) });
      const error = expectErrorEnvelope(production, {
        status: 403,
        code: "forbidden",
        actor: { user_id: biz.userId, membership_id: biz.membershipId, role: "business_admin", environment: "production" },
      });
      expect(error.message).toContain("only in sandbox");
    }
    const anonymous = await t.app.inject({ method: "GET", url: "/v1/sandbox/emails" });
    expectErrorEnvelope(anonymous, { status: 401, code: "unauthorized", actor: null });
  });
});

describe("production mail and the per-Business daily limit", () => {
  let biz: RegisteredBusiness;
  beforeAll(async () => {
    t.clock.set(TEST_START);
    biz = await registerBusiness(t.app, "Production Sender");
    await newlyDelivered();
  });
  afterAll(() => t.clock.set(TEST_START));

  it(`delivers to anyone up to ${DAILY_LIMIT} a day; the next invitation is refused with 429 and nothing is created`, async () => {
    for (let i = 0; i < DAILY_LIMIT; i += 1) {
      const payee = await createBeneficiary(t.app, biz.keys.production, { email: `prod-payee-${i}@example.net` });
      expect((await invite(biz.keys.production, payee.id)).statusCode).toBe(201);
    }
    const mail = await newlyDelivered();
    expect(mail.map((message) => message.to).sort()).toEqual(
      Array.from({ length: DAILY_LIMIT }, (_, i) => `prod-payee-${i}@example.net`),
    );

    const late = await createBeneficiary(t.app, biz.keys.production, { email: "prod-payee-late@example.net" });
    const refused = await invite(biz.keys.production, late.id);
    expectErrorEnvelope(refused, {
      status: 429,
      code: "MAIL_DAILY_LIMIT_REACHED",
      actor: { user_id: biz.userId, membership_id: biz.membershipId, role: "business_admin", environment: "production" },
    });
    expect(refused.headers["retry-after"]).toBe(String(DAY_MS / 1000));
    // The refusal rolled the request back: no link, no e-mail.
    const read = await t.app.inject({ method: "GET", url: `/v1/beneficiaries/${late.id}`, headers: bearer(biz.keys.production) });
    expect(read.json()).toMatchObject({ pending_requests: [], collection_status: "not_invited" });
    expect(await newlyDelivered()).toEqual([]);

    // The limit is the Business's own: another Business still sends.
    const other = await registerBusiness(t.app, "Unaffected Sender");
    const payee = await createBeneficiary(t.app, other.keys.production, { email: "other-payee@example.net" });
    expect((await invite(other.keys.production, payee.id)).statusCode).toBe(201);
    expect((await newlyDelivered()).map((message) => message.to)).toEqual(["other-payee@example.net"]);
  });

  it("a declared-destination notice over the limit is not refused: it is sent when the window frees", async () => {
    const payee = await createBeneficiary(t.app, biz.keys.production, { email: "deferred.payee@example.net" });
    await declareAccount(biz.keys.production, payee.id);

    const [queued, ...more] = await queuedMail(t, "declared-destination-change:");
    expect(more).toEqual([]);
    expect(queued?.to).toBe("deferred.payee@example.net");
    expect(queued?.runAt.toISOString()).toBe(new Date(TEST_START.getTime() + DAY_MS).toISOString());
    const warning = t.logLines.find((line) => line.includes("e-mail deferred by the daily limit"));
    expect(warning).toContain(biz.businessId);
    expect(warning).toContain('"kind":"declared_destination_changed"');
    expect(warning).not.toContain("deferred.payee");
    const metrics = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.body).toContain('mail_messages_total{kind="declared_destination_changed",outcome="deferred"} 1');

    expect(await newlyDelivered()).toEqual([]);
    t.clock.advance(DAY_MS - 1);
    expect(await newlyDelivered()).toEqual([]);
    t.clock.advance(1);
    const sent = await newlyDelivered();
    expect(sent.map((message) => [message.to, message.subject])).toEqual([
      ["deferred.payee@example.net", "Production Sender: your payout account changed"],
    ]);

    // A day after the first three, invitations go out again (the deferred notice holds one of the slots).
    const next = await createBeneficiary(t.app, biz.keys.production, { email: "next-day@example.net" });
    expect((await invite(biz.keys.production, next.id)).statusCode).toBe(201);
    expect((await newlyDelivered()).map((message) => message.to)).toEqual(["next-day@example.net"]);
  });
});

describe("a Business without a verified person", () => {
  it("sends no production mail (403 BUSINESS_NOT_VERIFIED), and its sandbox mail is captured even to its own address", async () => {
    const biz = await registerBusiness(t.app, "Unverified Sender");
    // Only possible by hand today: every Business created through registration has its registrant verified.
    await t.runtime.deps.database.db.execute(sql`update users set email_verified_at = null where id = ${biz.userId}`);

    const stranger = await createBeneficiary(t.app, biz.keys.production, { email: "unverified-target@example.net" });
    const refused = await invite(biz.keys.production, stranger.id);
    expectErrorEnvelope(refused, {
      status: 403,
      code: "BUSINESS_NOT_VERIFIED",
      actor: { user_id: biz.userId, membership_id: biz.membershipId, role: "business_admin", environment: "production" },
    });

    const self = await createBeneficiary(t.app, biz.keys.sandbox, { email: biz.email });
    expect((await invite(biz.keys.sandbox, self.id)).statusCode).toBe(201);
    expect((await sandboxEmails(biz.keys.sandbox)).emails.map((mail) => mail.to)).toEqual([biz.email]);
    expect(await newlyDelivered()).toEqual([]);
  });
});
