// The retention sweep deletes what nobody can use any more, a retention period after it became useless, and
// nothing the API still shows: expired registrations (with the hash of a password nobody verified), captured
// sandbox mail, expired invitations and password resets, sessions that ended long ago (but each person's
// latest sign-in) and failed sign-ins out of the throttling window. A second sweep deletes nothing, and a
// backlog larger than one run is cleared across batches and runs. Time moves on the injected clock.
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import {
  RETENTION_BATCH_SIZE,
  RETENTION_BATCHES_PER_RUN,
  RETENTION_SWEEP_JOB,
  RETENTION_SWEEP_SLOT_MS,
  scheduleRetentionSweep,
} from "../../src/worker/retention.js";
import { mintLink } from "../collection/helpers.js";
import { bearer, createBeneficiary, registerBusiness } from "../helpers/factories.js";
import { takeRegistrationToken } from "../helpers/mail-queue.js";
import {
  addMember,
  answerPasswordResetRequests,
  invitationTokenFor,
  REGISTRATION_PASSWORD,
  resetTokenFor,
  STRONG_PASSWORD,
  sessionHeaders,
  signIn,
} from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.runtime.deps.database.db;
const rows = <T>(query: SQL) => queryRows<T>(db(), query);
let unique = 0;
const address = (name: string) => `${name}-${process.pid}-${++unique}@example.com`;

/** Every sweep so far ran without an error (a failed one would be retried later, its deletions half done). */
async function expectNoFailedSweep(): Promise<void> {
  const failed = await rows<{ last_error: string }>(
    sql`select last_error from jobs where type = ${RETENTION_SWEEP_JOB.type} and last_error is not null`,
  );
  expect(failed).toEqual([]);
}

/** As a worker process does at start: the sweep of the next hourly slot; then time reaches it and a worker runs it. */
async function sweepAtNextSlot(): Promise<void> {
  await scheduleRetentionSweep(db(), t.runtime.deps.jobStore, t.clock.now());
  t.clock.advance(RETENTION_SWEEP_SLOT_MS - (t.clock.now().getTime() % RETENTION_SWEEP_SLOT_MS));
  await t.runtime.createWorker(`retention-${++unique}`).drain();
  await expectNoFailedSweep();
}

/** To a minute before the next slot, so what happens now is a minute old when that slot's sweep runs. */
function toJustBeforeNextSlot(): void {
  t.clock.advance(RETENTION_SWEEP_SLOT_MS - (t.clock.now().getTime() % RETENTION_SWEEP_SLOT_MS) - 60_000);
}

/** Another sweep at this very instant (two slots' sweeps, or a sweep that ran twice). */
async function sweepAgainNow(): Promise<void> {
  await t.runtime.deps.jobStore.enqueue(db(), RETENTION_SWEEP_JOB, {}, { dedupeKey: `test-sweep:${++unique}` });
  await t.runtime.createWorker(`retention-${++unique}`).drain();
  await expectNoFailedSweep();
}

async function register(email: string): Promise<void> {
  const response = await t.app.inject({
    method: "POST",
    url: "/v1/registration",
    payload: { business_name: "Retention Co", email, password: REGISTRATION_PASSWORD },
  });
  expect(response.statusCode, response.body).toBe(202);
}

const registrationsOf = (email: string) =>
  rows<{ id: string; has_password: boolean }>(
    sql`select id, password_hash is not null as has_password from pending_registrations where email = ${email}`,
  );

const sessionIdsOf = async (userId: string) =>
  (await rows<{ id: string }>(sql`select id from sessions where user_id = ${userId} order by id`)).map((r) => r.id);

async function signOut(s: Awaited<ReturnType<typeof signIn>>): Promise<void> {
  const response = await t.app.inject({ method: "DELETE", url: "/v1/session", headers: sessionHeaders(s, null) });
  expect(response.statusCode, response.body).toBe(204);
}

describe("the retention sweep", () => {
  it("deletes registrations expired past the grace period, hash and all; a registration still valid verifies", async () => {
    const stale = address("stale");
    const lapsed = address("lapsed");
    const fresh = address("fresh");
    await register(stale);
    expect(await registrationsOf(stale)).toEqual([{ id: expect.any(String), has_password: true }]);
    t.clock.advance(4 * DAY_MS);
    await register(lapsed);
    // The stale one expired (24 hours) more than 7 days ago; the lapsed one expired 3 days ago.
    t.clock.advance(4 * DAY_MS + 2 * HOUR_MS);
    await register(fresh);
    const token = await takeRegistrationToken(t, fresh);

    await sweepAtNextSlot();
    expect(await registrationsOf(stale)).toEqual([]);
    expect(await registrationsOf(lapsed)).toHaveLength(1);
    expect(await registrationsOf(fresh)).toHaveLength(1);
    const verified = await t.app.inject({ method: "POST", url: "/v1/registration/verification", payload: { token } });
    expect(verified.statusCode, verified.body).toBe(201);

    // A second sweep at the same instant finds nothing more to delete.
    const before = await rows<{ id: string }>(sql`select id from pending_registrations order by id`);
    await sweepAgainNow();
    expect(await rows<{ id: string }>(sql`select id from pending_registrations order by id`)).toEqual(before);
  });

  it("deletes captured sandbox mail older than 30 days; newer mail stays readable", async () => {
    const business = await registerBusiness(t.app, "Mailbox Co");
    const key = business.keys.sandbox;
    const mailbox = async () => {
      const response = await t.app.inject({ method: "GET", url: "/v1/sandbox/emails", headers: bearer(key) });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { emails: { id: string; text: string }[] }).emails;
    };
    await mintLink(t.app, key, (await createBeneficiary(t.app, key)).id, "full_onboarding", { send_email: true });
    const [old] = await mailbox();
    t.clock.advance(20 * DAY_MS);
    const link = await mintLink(t.app, key, (await createBeneficiary(t.app, key)).id, "full_onboarding", { send_email: true });
    const recent = (await mailbox()).find((mail) => mail.id !== old?.id);
    expect(recent?.text).toContain(link.url);
    t.clock.advance(10 * DAY_MS + 2 * HOUR_MS);

    await sweepAtNextSlot();
    expect((await mailbox()).map((mail) => mail.id)).toEqual([recent?.id]);
    const gone = await t.app.inject({ method: "GET", url: `/v1/sandbox/emails/${old?.id}`, headers: bearer(key) });
    expect(gone.statusCode).toBe(404);
    const kept = await t.app.inject({ method: "GET", url: `/v1/sandbox/emails/${recent?.id}`, headers: bearer(key) });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().text).toContain(link.url);

    const before = await rows<{ id: string }>(sql`select id from emails order by id`);
    await sweepAgainNow();
    expect(await rows<{ id: string }>(sql`select id from emails order by id`)).toEqual(before);
  });

  it("deletes sessions that ended more than 30 days ago, but keeps each person's latest sign-in", async () => {
    const owner = await registerBusiness(t.app, "Sessions Co");
    const gone = await addMember(t.app, owner.keys.sandbox, "business_read_only");
    const back = await addMember(t.app, owner.keys.sandbox, "business_read_only");

    const first = await signIn(t.app, owner.email);
    await signOut(first);
    t.clock.advance(HOUR_MS);
    const second = await signIn(t.app, owner.email);
    await signOut(second);
    // One member signs in once and never again; the other comes back 31 days later.
    const goneOnly = await signIn(t.app, gone.email, STRONG_PASSWORD);
    await signOut(goneOnly);
    const backFirst = await signIn(t.app, back.email, STRONG_PASSWORD);
    await signOut(backFirst);
    t.clock.advance(20 * DAY_MS);
    const recentlyEnded = await signIn(t.app, owner.email);
    await signOut(recentlyEnded);
    t.clock.advance(11 * DAY_MS);
    // Signed in a minute before the sweep: still live (within the idle timeout) when it runs.
    toJustBeforeNextSlot();
    const live = await signIn(t.app, owner.email);
    const backLive = await signIn(t.app, back.email, STRONG_PASSWORD);

    await sweepAtNextSlot();
    const ids = (...signedIn: { body: { session: { id: string } } }[]) => signedIn.map((s) => s.body.session.id).sort();
    // The owner's sessions that ended 31 days ago go: a newer one ended since.
    expect(await sessionIdsOf(owner.userId)).toEqual(ids(recentlyEnded, live));
    expect(await sessionIdsOf(gone.userId)).toEqual(ids(goneOnly));
    // The returning member's old session stays too: the newer one is live, and a live session restricted to
    // enrolment (the Business starts requiring two-factor) stops counting as a sign-in, so the old one would be
    // the last sign-in again.
    expect(await sessionIdsOf(back.userId)).toEqual(ids(backFirst, backLive));
    expect((await t.app.inject({ method: "GET", url: "/v1/session", headers: sessionHeaders(live, null) })).statusCode).toBe(200);
    // The member list's last sign-in is what it was before the sweep.
    const members = await t.app.inject({ method: "GET", url: "/v1/members", headers: bearer(owner.keys.sandbox) });
    const lastSignIn = new Map(
      (members.json().members as { user_id: string; last_sign_in_at: string | null }[]).map((m) => [
        m.user_id,
        m.last_sign_in_at,
      ]),
    );
    expect(lastSignIn.get(gone.userId)).toBe(goneOnly.body.session.created_at);
    expect(lastSignIn.get(back.userId)).toBe(backLive.body.session.created_at);
    expect(lastSignIn.get(owner.userId)).toBe(live.body.session.created_at);

    const before = await rows<{ id: string }>(sql`select id from sessions order by id`);
    await sweepAgainNow();
    expect(await rows<{ id: string }>(sql`select id from sessions order by id`)).toEqual(before);
  });

  it("deletes invitations and password resets expired more than 7 days ago; open ones still work", async () => {
    const owner = await registerBusiness(t.app, "Tokens Co");
    const invite = async (email: string) => {
      const response = await t.app.inject({
        method: "POST",
        url: "/v1/invitations",
        headers: bearer(owner.keys.sandbox),
        payload: { email, role: "business_read_only" },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as string;
    };
    const askReset = async () => {
      const response = await t.app.inject({ method: "POST", url: "/v1/password-resets", payload: { email: owner.email } });
      expect(response.statusCode).toBe(202);
      // The worker answers the request (creates the token) at once, at this time.
      expect(await answerPasswordResetRequests(t.app)).toBe(1);
    };
    const resets = () => rows<{ id: string }>(sql`select id from password_resets where user_id = ${owner.userId}`);

    const staleInvitation = await invite(address("stale-invitee"));
    await askReset();
    // The invitation (7 days) and the reset (1 hour) expired more than 7 days ago.
    t.clock.advance(14 * DAY_MS + 2 * HOUR_MS);
    // The new reset (1 hour) is asked for a minute before the sweep, so it is still valid afterwards.
    toJustBeforeNextSlot();
    const openEmail = address("open-invitee");
    const openInvitation = await invite(openEmail);
    await askReset();
    expect(await resets()).toHaveLength(2);

    await sweepAtNextSlot();
    const invitations = await rows<{ id: string }>(sql`select id from invitations where business_id = ${owner.businessId}`);
    expect(invitations.map((row) => row.id)).toEqual([openInvitation]);
    expect(invitations.map((row) => row.id)).not.toContain(staleInvitation);
    expect(await resets()).toHaveLength(1);
    const listed = await t.app.inject({ method: "GET", url: "/v1/invitations", headers: bearer(owner.keys.sandbox) });
    expect(listed.json().invitations.map((i: { id: string }) => i.id)).toEqual([openInvitation]);
    const accepted = await t.app.inject({
      method: "POST",
      url: "/v1/invitations/acceptance",
      payload: { token: await invitationTokenFor(t.app, openEmail), password: STRONG_PASSWORD },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const reset = await t.app.inject({
      method: "POST",
      url: "/v1/password-resets/confirmation",
      payload: { token: await resetTokenFor(t.app, owner.email), password: STRONG_PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(204);
  });

  it("forgets failed sign-ins out of the throttling window, and keeps those inside it", async () => {
    const failures = (email: string) =>
      rows<{ id: string }>(sql`select id from sign_in_failures where email = ${email}`).then((r) => r.length);
    // Each from its own address: a failed sign-in forgets the old failures of its own e-mail and address itself.
    const failSignIn = async (email: string, remoteAddress: string) => {
      const response = await t.app.inject({
        method: "POST",
        url: "/v1/session",
        remoteAddress,
        payload: { email, password: "not the password at all" },
      });
      expect(response.statusCode).toBe(401);
    };
    const old = address("old-typo");
    const recent = address("recent-typo");
    await failSignIn(old, "192.0.2.10");
    // 20 minutes on, then to a minute before the next slot: the old failure is out of the 15-minute window
    // when the sweep runs, the recent one a minute old.
    t.clock.advance(20 * 60_000);
    toJustBeforeNextSlot();
    await failSignIn(recent, "192.0.2.20");
    expect([await failures(old), await failures(recent)]).toEqual([1, 1]);

    await sweepAtNextSlot();
    expect([await failures(old), await failures(recent)]).toEqual([0, 1]);
  });

  it("clears a backlog larger than one run across batches and runs, and leaves the rows inside the period", async () => {
    const backlog = RETENTION_BATCH_SIZE * RETENTION_BATCHES_PER_RUN + 150;
    const now = t.clock.now().toISOString();
    const insert = (count: number, prefix: string, expiredDaysAgo: number) =>
      db().execute(sql`
        insert into pending_registrations (id, token_hash, email, business_name, password_hash, expires_at, created_at)
        select gen_random_uuid(), md5(${prefix} || n::text), ${prefix} || n::text || '@example.com', 'Backlog Co',
               'scrypt$1024$8$1$c2FsdA$aGFzaA', ${now}::timestamptz - make_interval(days => ${expiredDaysAgo}),
               ${now}::timestamptz - make_interval(days => ${expiredDaysAgo + 1})
        from generate_series(1, ${count}) as n`);
    await insert(backlog, `backlog-${process.pid}-old-`, 8);
    await insert(20, `backlog-${process.pid}-grace-`, 6);
    const left = (prefix: string) =>
      rows<{ n: number }>(
        sql`select count(*)::int as n from pending_registrations where email like ${`backlog-${process.pid}-${prefix}-%`}`,
      ).then((r) => r[0]?.n);
    expect(await left("old")).toBe(backlog);

    await sweepAtNextSlot();
    expect(await left("old")).toBe(0);
    expect(await left("grace")).toBe(20);
    // One run stopped after its batches and a fresh job continued; every run succeeded.
    const runs = await rows<{ dedupe_key: string; status: string }>(
      sql`select dedupe_key, status::text as status from jobs where type = ${RETENTION_SWEEP_JOB.type} and status <> 'pending'`,
    );
    expect(runs.filter((run) => run.dedupe_key.startsWith("retention-sweep:after:")).length).toBeGreaterThan(0);
    expect(new Set(runs.map((run) => run.status))).toEqual(new Set(["succeeded"]));
    // The chain goes on: the next slot's sweep is pending.
    const pending = await rows<{ run_at: Date | string }>(
      sql`select run_at from jobs where type = ${RETENTION_SWEEP_JOB.type} and status = 'pending'`,
    );
    expect(pending.map((row) => new Date(row.run_at).getTime())).toEqual([
      t.clock.now().getTime() - (t.clock.now().getTime() % RETENTION_SWEEP_SLOT_MS) + RETENTION_SWEEP_SLOT_MS,
    ]);
  });
});

describe("the retention periods", () => {
  let short: TestApp;
  beforeAll(async () => {
    short = await buildTestApp({
      env: { EXPIRED_TOKEN_RETENTION_DAYS: "2", SANDBOX_EMAIL_RETENTION_DAYS: "4", ENDED_SESSION_RETENTION_DAYS: "3" },
    });
  });
  afterAll(async () => {
    await short?.close();
  });

  it("are the configured ones", async () => {
    const { app, clock } = short;
    const shortDb = short.runtime.deps.database.db;
    const owner = await registerBusiness(app, "Short Memory Co");
    const key = owner.keys.sandbox;
    const email = address("short");
    const started = await app.inject({
      method: "POST",
      url: "/v1/registration",
      payload: { business_name: "Short Co", email, password: REGISTRATION_PASSWORD },
    });
    expect(started.statusCode).toBe(202);
    await mintLink(app, key, (await createBeneficiary(app, key)).id, "full_onboarding", { send_email: true });
    const ended = await signIn(app, owner.email);
    const out = await app.inject({ method: "DELETE", url: "/v1/session", headers: sessionHeaders(ended, null) });
    expect(out.statusCode).toBe(204);
    // 5 days on: the registration expired 4 days ago, the mail is 5 days old, the session ended 5 days ago;
    // under the defaults (7, 30 and 30 days) all three would stay.
    clock.advance(5 * DAY_MS);
    await signIn(app, owner.email);
    await scheduleRetentionSweep(shortDb, short.runtime.deps.jobStore, clock.now());
    clock.advance(RETENTION_SWEEP_SLOT_MS);
    await short.runtime.createWorker("short-retention").drain();

    const left = (query: SQL) => queryRows<{ n: number }>(shortDb, query).then((r) => r[0]?.n);
    expect(await left(sql`select count(*)::int as n from pending_registrations where email = ${email}`)).toBe(0);
    expect(await left(sql`select count(*)::int as n from emails where disposition = 'captured'`)).toBe(0);
    expect(await left(sql`select count(*)::int as n from sessions where id = ${ended.body.session.id}`)).toBe(0);
  });
});
