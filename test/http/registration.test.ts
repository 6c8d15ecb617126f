// Registration in two steps: POST /v1/registration e-mails a single-use token (202, the same answer whether
// or not the address already has an account), POST /v1/registration/verification turns the token into the
// Business, its admin user and one sandbox and one production admin key.
import { createHash, randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emails } from "../../src/modules/emails/emails.schema.js";
import { memberships, pendingRegistrations, users } from "../../src/modules/registration/registration.schema.js";
import { queryRows } from "../../src/platform/db/client.js";
import { MIGRATIONS_FOLDER, runMigrations } from "../../src/platform/db/migrate.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { readWrittenMail, tempDataDir } from "../helpers/mail-files.js";
import { queuedMail, registrationTokenIn, takeRegistrationToken } from "../helpers/mail-queue.js";
import { buildTestApp, TEST_START, type TestApp } from "../helpers/test-app.js";
import { openTestDatabase } from "../helpers/test-database.js";
import { detailCodes, expectErrorEnvelope } from "./error-envelope.js";

const PASSWORD = "registration password 1234";
const KEY_SHAPE = /^pok_(sandbox|production)_([0-9a-f]{32})_([0-9a-f]{64})$/;
const DAY_MS = 24 * 60 * 60 * 1000;

function uniqueEmail(prefix = "owner"): string {
  return `${prefix}-${randomBytes(6).toString("hex")}@example.com`;
}

interface IssuedKeyBody {
  id: string;
  environment: "sandbox" | "production";
  role: string;
  key: string;
  key_hint: string;
  membership_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

interface RegistrationBody {
  business: { id: string; name: string; created_at: string };
  user: { id: string; email: string; created_at: string };
  membership: { id: string; role: string };
  api_keys: IssuedKeyBody[];
}

function register(t: TestApp, body: Record<string, unknown>, remoteAddress?: string) {
  return t.app.inject({ method: "POST", url: "/v1/registration", payload: body, ...(remoteAddress ? { remoteAddress } : {}) });
}

function verify(t: TestApp, token: unknown, remoteAddress?: string) {
  return t.app.inject({
    method: "POST",
    url: "/v1/registration/verification",
    payload: { token },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** The `emails` rows of registration mail to `address`, oldest first (kind and disposition). */
async function registrationMailLog(t: TestApp, address: string) {
  const fingerprint = t.runtime.deps.cipher.fingerprint(`email-recipient:${address.toLowerCase()}`);
  const rows = await t.runtime.deps.database.db
    .select()
    .from(emails)
    .where(like(emails.idempotencyKey, "registration:%"))
    .orderBy(asc(emails.createdAt), asc(emails.id));
  return rows.filter((row) => row.recipientFingerprint === fingerprint);
}

describe("registration", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  describe("a known and a new e-mail address get the same answer", () => {
    it("the same address, before and after it has an account: byte-identical 202, one e-mail each, of the right kind", async () => {
      const email = uniqueEmail("Twice");
      const normalized = email.toLowerCase();

      const asNew = await register(t, { business_name: "First Co", email, password: PASSWORD });
      expect(asNew.statusCode, asNew.body).toBe(202);
      const firstMail = await queuedMail(t, "registration:");
      const toAddress = firstMail.filter((mail) => mail.to === normalized);
      expect(toAddress).toHaveLength(1);
      expect(toAddress[0]?.subject).toBe("Confirm your e-mail address to finish registering");
      expect((await verify(t, await takeRegistrationToken(t, normalized))).statusCode).toBe(201);

      // The address now has an account. Another registration with it, any letter case, answers exactly the same.
      const asKnown = await register(t, {
        business_name: "Second Co",
        email: email.toUpperCase(),
        password: "another password 99",
      });
      expect(asKnown.statusCode).toBe(asNew.statusCode);
      expect(asKnown.body).toBe(asNew.body);
      expect(asKnown.headers["content-type"]).toBe(asNew.headers["content-type"]);
      expect(asNew.json()).toEqual({ status: "verification_sent", email: normalized, message: expect.any(String) });
      expect(asNew.json().message).toContain(normalized);

      // One e-mail each: the verification for the new address, the notice for the known one.
      const log = await registrationMailLog(t, normalized);
      expect(log.map((row) => [row.kind, row.disposition])).toEqual([
        ["registration_verification", "sent"],
        ["registration_existing_account", "sent"],
      ]);
      const notices = (await queuedMail(t, "registration:")).filter((mail) => mail.to === normalized);
      expect(notices).toHaveLength(1);
      expect(notices[0]?.subject).toBe("A new Business was requested with your e-mail address");
      const notice = notices[0]?.text.replace(/\s+/g, " ");
      expect(notice).toContain("which already has an account");
      expect(notice).toContain("Your password does not change: the one given with this request is ignored.");
      expect(notice).toContain('named "Second Co"');
    });

    it("two different addresses, one known and one new: the same status and body but for the address itself", async () => {
      const known = await registerBusiness(t.app, "Known Ltd");
      const fresh = uniqueEmail("fresh");
      const a = await register(t, { business_name: "Probe", email: known.email, password: PASSWORD });
      const b = await register(t, { business_name: "Probe", email: fresh, password: PASSWORD });
      expect(a.statusCode).toBe(202);
      expect(b.statusCode).toBe(202);
      expect(a.body.replaceAll(known.email, "<address>")).toBe(b.body.replaceAll(fresh, "<address>"));
      expect(Object.keys(a.headers).sort()).toEqual(Object.keys(b.headers).sort());
      expect((await registrationMailLog(t, known.email)).map((row) => row.kind)).toEqual([
        "registration_verification",
        "registration_existing_account",
      ]);
      expect((await registrationMailLog(t, fresh)).map((row) => row.kind)).toEqual(["registration_verification"]);
    });
  });

  describe("verification", () => {
    let body: RegistrationBody;
    let rawBody: string;
    let token: string;
    const email = uniqueEmail("Mixed.Case");

    beforeAll(async () => {
      const started = await register(t, { business_name: "  Acme Payouts GmbH  ", email, password: PASSWORD });
      expect(started.statusCode, started.body).toBe(202);
      // Nothing exists before the token comes back.
      expect(await t.runtime.deps.database.db.select().from(users).where(eq(users.email, email.toLowerCase()))).toEqual([]);
      token = await takeRegistrationToken(t, email.toLowerCase());
      const res = await verify(t, token);
      expect(res.statusCode, res.body).toBe(201);
      rawBody = res.body;
      body = res.json() as RegistrationBody;
    });

    it("returns the Business, its admin user and a business_admin membership", () => {
      expect(Object.keys(body).sort()).toEqual(["api_keys", "business", "membership", "user"]);
      expect(body.business).toEqual({ id: expect.any(String), name: "Acme Payouts GmbH", created_at: TEST_START.toISOString() });
      expect(body.user).toEqual({ id: expect.any(String), email: email.toLowerCase(), created_at: TEST_START.toISOString() });
      expect(body.membership).toEqual({ id: expect.any(String), role: "business_admin" });
      expect(rawBody).not.toContain(PASSWORD);
      expect(rawBody).not.toContain("scrypt");
    });

    it("issues exactly one sandbox and one production business_admin key, each shown in full", () => {
      expect(body.api_keys).toHaveLength(2);
      expect(body.api_keys.map((k) => k.environment).sort()).toEqual(["production", "sandbox"]);
      for (const issued of body.api_keys) {
        expect(issued.role).toBe("business_admin");
        expect(issued.membership_id).toBe(body.membership.id);
        expect(issued.revoked_at).toBeNull();
        expect(issued.last_used_at).toBeNull();
        const segments = issued.key.split("_");
        expect(segments).toHaveLength(4);
        const match = KEY_SHAPE.exec(issued.key);
        expect(match, issued.key).not.toBeNull();
        expect(match?.[1]).toBe(issued.environment);
        expect(match?.[2]).toBe(issued.id.replaceAll("-", ""));
        const secret = segments[3] ?? "";
        expect(issued.key_hint).not.toContain(secret);
        expect(issued.key_hint.endsWith(secret.slice(-4))).toBe(true);
      }
      expect(body.api_keys[0]?.key).not.toBe(body.api_keys[1]?.key);
    });

    for (const environment of ["sandbox", "production"] as const) {
      it(`the ${environment} key authenticates into ${environment} only`, async () => {
        const issued = body.api_keys.find((k) => k.environment === environment);
        const key = issued?.key ?? "";
        const list = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(key) });
        expect(list.statusCode).toBe(200);
        const listed = (list.json() as { api_keys: Array<{ id: string; environment: string }> }).api_keys;
        expect(listed.map((k) => [k.id, k.environment])).toEqual([[issued?.id, environment]]);
        const failed = await t.app.inject({ method: "POST", url: "/v1/api-keys", headers: bearer(key), payload: {} });
        expectErrorEnvelope(failed, {
          status: 400,
          code: "validation_failed",
          actor: { user_id: body.user.id, membership_id: body.membership.id, role: "business_admin", environment },
        });
      });
    }

    it("marks the user's e-mail verified and stores the password only as an scrypt hash", async () => {
      const [user] = await t.runtime.deps.database.db.select().from(users).where(eq(users.email, email.toLowerCase()));
      expect(user?.emailVerifiedAt?.toISOString()).toBe(TEST_START.toISOString());
      expect(user?.passwordHash.startsWith("scrypt$")).toBe(true);
      expect(JSON.stringify(user)).not.toContain(PASSWORD);
    });

    it("keeps only the token's SHA-256, and drops the password hash from the consumed registration", async () => {
      const db = t.runtime.deps.database.db;
      const [pending] = await db
        .select()
        .from(pendingRegistrations)
        .where(eq(pendingRegistrations.tokenHash, createHash("sha256").update(token).digest("hex")));
      expect(pending?.consumedAt?.toISOString()).toBe(TEST_START.toISOString());
      expect(pending?.passwordHash).toBeNull();
      const tables = await queryRows<{ table_name: string }>(
        db,
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      );
      for (const { table_name } of tables) {
        const rows = await queryRows<unknown>(db, sql.raw(`select * from "${table_name}"`));
        expect(JSON.stringify(rows), `table ${table_name}`).not.toContain(token);
      }
    });

    it("a used token, an expired one, an unknown one and a malformed one all answer 410 REGISTRATION_TOKEN_INVALID alike", async () => {
      const other = uniqueEmail("expiring");
      expect((await register(t, { business_name: "Late Co", email: other, password: PASSWORD })).statusCode).toBe(202);
      const expiring = await takeRegistrationToken(t, other);
      const unknown = randomBytes(32).toString("base64url");

      const used = await verify(t, token);
      t.clock.advance(DAY_MS);
      const expired = await verify(t, expiring);
      t.clock.set(TEST_START);
      const answers = [used, expired, await verify(t, unknown), await verify(t, "not-a-token"), await verify(t, " ")];
      const messages = answers.map(
        (answer) => expectErrorEnvelope(answer, { status: 410, code: "REGISTRATION_TOKEN_INVALID", actor: null }).message,
      );
      expect(new Set(messages).size).toBe(1);

      // Nothing was created by any of them: the address that expired still has no user.
      expect(await t.runtime.deps.database.db.select().from(users).where(eq(users.email, other))).toEqual([]);
    });

    it("a token is good until its 24 hours are over", async () => {
      const address = uniqueEmail("in-time");
      expect((await register(t, { business_name: "Just In Time", email: address, password: PASSWORD })).statusCode).toBe(202);
      const inTime = await takeRegistrationToken(t, address);
      t.clock.advance(DAY_MS - 1);
      try {
        expect((await verify(t, inTime)).statusCode).toBe(201);
      } finally {
        t.clock.set(TEST_START);
      }
    });

    it("a missing token is validation_failed", async () => {
      const res = await t.app.inject({ method: "POST", url: "/v1/registration/verification", payload: {} });
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: null });
      expect(detailCodes(error)).toEqual(["token:required"]);
    });
  });

  describe("an address that already has an account", () => {
    it("its token adds the new Business to the existing user; the password sent with it is ignored", async () => {
      const first = await registerBusiness(t.app, "Original Business");
      const db = t.runtime.deps.database.db;
      const [before] = await db.select().from(users).where(eq(users.id, first.userId));

      const started = await register(t, {
        business_name: "Second Venture",
        email: first.email,
        password: "attacker password 42",
      });
      expect(started.statusCode).toBe(202);
      const second = await verify(t, await takeRegistrationToken(t, first.email));
      expect(second.statusCode, second.body).toBe(201);
      const body = second.json() as RegistrationBody;

      expect(body.user.id).toBe(first.userId);
      expect(body.business.id).not.toBe(first.businessId);
      expect(body.business.name).toBe("Second Venture");
      const [after] = await db.select().from(users).where(eq(users.id, first.userId));
      expect(after?.passwordHash).toBe(before?.passwordHash);
      const memberOf = await db.select().from(memberships).where(eq(memberships.userId, first.userId));
      expect(memberOf.map((m) => m.businessId).sort()).toEqual([first.businessId, body.business.id].sort());

      // Two Businesses, separate tenants: each one's keys see only its own.
      const oldKeys = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(first.keys.sandbox) });
      expect(oldKeys.json().api_keys.map((k: { id: string }) => k.id)).toEqual([first.keyIds.sandbox]);
      const newKey = body.api_keys.find((k) => k.environment === "sandbox")?.key ?? "";
      const newKeys = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(newKey) });
      expect(newKeys.json().api_keys.map((k: { id: string }) => k.id)).toEqual([
        body.api_keys.find((k) => k.environment === "sandbox")?.id,
      ]);
    });
  });

  describe("validation", () => {
    it("an empty body names every missing field", async () => {
      const error = expectErrorEnvelope(await register(t, {}), { status: 400, code: "validation_failed", actor: null });
      expect(detailCodes(error)).toEqual(["business_name:required", "email:required", "password:required"]);
    });

    it("an e-mail over 254 characters is too_long, a short password too_short, an empty name too_short", async () => {
      const res = await register(t, { business_name: "", email: `${"a".repeat(250)}@example.com`, password: "11 chars!!!" });
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: null });
      expect(detailCodes(error)).toEqual(
        expect.arrayContaining(["business_name:too_short", "password:too_short", "email:too_long"]),
      );
    });

    // Control characters are refused by the service-wide text rule (`invalid_character`); the characters that
    // are not controls but forge lines or reorder text in e-mails are refused by the name's own rule.
    const CONTROL_NAMES: ReadonlyArray<[string, string, "invalid_character" | "invalid_format"]> = [
      ["a line feed", "Acme\nBcc: victim@example.com", "invalid_character"],
      ["a carriage return and line feed", "Acme\r\nSubject: hi", "invalid_character"],
      ["a tab", "Acme\tPayouts", "invalid_character"],
      ["NUL", "Acme\u0000", "invalid_character"],
      ["DEL", "Acme\u007f", "invalid_character"],
      ["a C1 control (NEL)", "Acme\u0085Payouts", "invalid_character"],
      ["a line separator", "Acme\u2028Payouts", "invalid_format"],
      ["a right-to-left override", "Acme \u202egnp.exe", "invalid_format"],
    ];
    for (const [what, name, code] of CONTROL_NAMES) {
      it(`a business name with ${what} is ${code}, and nothing is stored or sent`, async () => {
        const email = uniqueEmail("control");
        const res = await register(t, { business_name: name, email, password: PASSWORD });
        const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: null });
        expect(error.details).toEqual([{ field: "business_name", code, message: expect.any(String) }]);
        if (code === "invalid_format") {
          expect(error.details?.[0]?.message).toBe(
            "Must contain a visible character and no control characters (line breaks, tabs, NUL, bidirectional overrides).",
          );
        }
        const pending = await t.runtime.deps.database.db
          .select()
          .from(pendingRegistrations)
          .where(eq(pendingRegistrations.email, email));
        expect(pending).toEqual([]);
        expect(await registrationMailLog(t, email)).toEqual([]);
      });
    }

    it("a business name of only spaces is blank, with a readable message", async () => {
      const res = await register(t, { business_name: "   ", email: uniqueEmail(), password: PASSWORD });
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: null });
      expect(error.details).toEqual([
        {
          field: "business_name",
          code: "blank",
          message: "Must contain a letter or a digit: spaces and invisible characters alone are not a name.",
        },
      ]);
    });

    it("names in any script, with punctuation, are fine; a password of exactly 12 characters is enough", async () => {
      for (const name of ["Café Lumière & Fils, S.A.R.L.", "株式会社テスト", "O'Brien <Holdings>"]) {
        const res = await register(t, { business_name: name, email: uniqueEmail(), password: "tg7#Vq2!mLpz" });
        expect(res.statusCode, res.body).toBe(202);
      }
    });

    it("a common or guessable password is refused (422 WEAK_PASSWORD), for a new and a known address alike", async () => {
      for (const password of ["123456789012", "password1234", "qwertyuiop12"]) {
        const res = await register(t, { business_name: "Weak Co", email: uniqueEmail(), password });
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().error.code).toBe("WEAK_PASSWORD");
      }
    });
  });

  describe("the per-recipient limit", () => {
    it("an address receives at most 3 registration e-mails a day; more requests are answered alike and send nothing", async () => {
      const email = uniqueEmail("flooded");
      const answers = [];
      for (let i = 0; i < 5; i += 1) {
        answers.push(await register(t, { business_name: `Flood ${i}`, email, password: PASSWORD }));
      }
      for (const answer of answers) {
        expect(answer.statusCode).toBe(202);
        expect(answer.body).toBe(answers[0]?.body);
      }
      expect(await registrationMailLog(t, email)).toHaveLength(3);
      expect((await queuedMail(t, "registration:")).filter((mail) => mail.to === email)).toHaveLength(3);

      // A day after the first, the address may receive one again.
      t.clock.advance(DAY_MS + 1);
      try {
        expect((await register(t, { business_name: "Next Day", email, password: PASSWORD })).body).toBe(answers[0]?.body);
        expect(await registrationMailLog(t, email)).toHaveLength(4);
      } finally {
        t.clock.set(TEST_START);
      }
    });
  });

  it("neither the password nor a token reaches the logs", async () => {
    const email = uniqueEmail("logged");
    expect((await register(t, { business_name: "Log Check", email, password: PASSWORD })).statusCode).toBe(202);
    const token = await takeRegistrationToken(t, email);
    expect((await verify(t, token)).statusCode).toBe(201);
    expect((await verify(t, token)).statusCode).toBe(410);
    const logs = t.logLines.join("");
    expect(logs).not.toContain(PASSWORD);
    expect(logs).not.toContain(token);
    expect(logs).toContain('"route":"/v1/registration/verification"');
  });
});

describe("registration e-mails are delivered (platform mail, never captured)", () => {
  let t: TestApp;
  let dataDir: { path: string; remove: () => Promise<void> };
  beforeAll(async () => {
    dataDir = await tempDataDir();
    t = await buildTestApp({ env: { DATA_DIR: dataDir.path } });
  });
  afterAll(async () => {
    await t?.close();
    await dataDir?.remove();
  });

  it("the worker writes the e-mail under DATA_DIR/mail: the token and how to use it, the name only escaped in the body", async () => {
    const email = uniqueEmail("inbox");
    const name = "<b>Evil</b> & Co";
    expect((await register(t, { business_name: name, email, password: PASSWORD })).statusCode).toBe(202);
    expect(await readWrittenMail(dataDir.path)).toEqual([]);
    expect(await t.runtime.createWorker("registration-mail").drain()).toBe(1);

    const [mail, ...more] = await readWrittenMail(dataDir.path);
    expect(more).toEqual([]);
    expect(mail?.to).toBe(email);
    expect(mail?.subject).toBe("Confirm your e-mail address to finish registering");
    expect(mail?.subject).not.toContain("Evil");
    expect(mail?.text.replace(/\s+/g, " ")).toContain(`named "${name}"`);
    // The text part is sent unencoded (7bit, or 8bit when not ASCII), never quoted-printable, although the link's
    // line is longer than 76 characters: someone who opens the .eml as text reads the example command as is.
    expect(mail?.raw).toMatch(/Content-Type: text\/plain; charset=utf-8\nContent-Transfer-Encoding: [78]bit/);
    expect(mail?.html).toContain("&lt;b&gt;Evil&lt;/b&gt; &amp; Co");
    expect(mail?.html).not.toContain("<b>Evil</b>");
    expect(mail?.text).toContain("curl -s -X POST http://service.test/v1/registration/verification");
    const token = registrationTokenIn(mail?.text ?? "");
    expect(mail?.html).toContain(token);
    expect(mail?.raw).toContain(`\n    ${token}\n`);
    // The link opens the dashboard's confirmation page with the token in the fragment, in both parts.
    const link = `http://service.test/dashboard/sign-up/verify#token=${token}`;
    expect(mail?.text).toContain(`\n${link}\n`);
    expect(mail?.html).toContain(`href="${link}"`);

    // The person follows the e-mail: the token gives the Business and its keys.
    const res = await verify(t, token);
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as RegistrationBody).business.name).toBe(name);
    const [log] = await registrationMailLog(t, email);
    expect(log).toMatchObject({ kind: "registration_verification", disposition: "sent", businessId: null, environment: null });
  });
});

describe("registration rate limit per client address, shared with verification", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { REGISTRATION_RATE_LIMIT_REQUESTS: "3" } });
  });
  afterAll(async () => t.close());

  it("the fourth call from one address answers 429 RATE_LIMITED; another address is unaffected", async () => {
    const address = "198.51.100.7";
    const email = uniqueEmail();
    const first = await register(t, { business_name: "Rate Limited", email, password: PASSWORD }, address);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.headers["ratelimit-limit"]).toBe("3");
    expect(first.headers["ratelimit-remaining"]).toBe("2");
    const token = await takeRegistrationToken(t, email);
    const verified = await verify(t, token, address);
    expect(verified.statusCode, verified.body).toBe(201);
    expect(verified.headers["ratelimit-remaining"]).toBe("1");
    expect((await register(t, { business_name: "Again", email: uniqueEmail(), password: PASSWORD }, address)).statusCode).toBe(
      202,
    );

    const blocked = await verify(t, randomBytes(32).toString("base64url"), address);
    expectErrorEnvelope(blocked, { status: 429, code: "RATE_LIMITED", actor: null });
    const retryAfter = Number(blocked.headers["retry-after"]);
    expect(Number.isInteger(retryAfter) && retryAfter > 0).toBe(true);
    const blockedRegistration = await register(
      t,
      { business_name: "Blocked", email: uniqueEmail(), password: PASSWORD },
      address,
    );
    expectErrorEnvelope(blockedRegistration, { status: 429, code: "RATE_LIMITED", actor: null });

    const elsewhere = await register(t, { business_name: "Elsewhere", email: uniqueEmail(), password: PASSWORD }, "203.0.113.20");
    expect(elsewhere.statusCode, elsewhere.body).toBe(202);

    // The keys of a throttled address's Business still work: the API limit is per tenant, not per address.
    const issued = (verified.json() as RegistrationBody).api_keys[0]?.key ?? "";
    const list = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(issued), remoteAddress: address });
    expect(list.statusCode).toBe(200);
  });
});

// An upgrade of a self-hosted instance: users registered before e-mail verification existed stay usable.
describe("users created before e-mail verification", () => {
  it("are verified from their creation time by the migration", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "payouts-migrations-"));
    const { database, close } = await openTestDatabase();
    try {
      // The migrations as they were before this change: 0000 to 0005.
      await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
      const journalFile = path.join(folder, "meta", "_journal.json");
      const journal = JSON.parse(await readFile(journalFile, "utf8")) as { entries: Array<{ idx: number }> };
      journal.entries = journal.entries.filter((entry) => entry.idx <= 5);
      await writeFile(journalFile, JSON.stringify(journal));
      await runMigrations(database.db, folder);
      const createdAt = "2025-01-02T03:04:05.000Z";
      await database.db.execute(
        sql`insert into users (id, email, password_hash, created_at)
            values ('0190a0b0-0000-7000-8000-000000000001', 'old@example.com', 'scrypt$x', ${createdAt})`,
      );

      expect((await runMigrations(database.db)).applied).toBeGreaterThanOrEqual(2);
      const [user] = await database.db.select().from(users).where(eq(users.email, "old@example.com"));
      expect(user?.emailVerifiedAt?.toISOString()).toBe(createdAt);
    } finally {
      await close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
