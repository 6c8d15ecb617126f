// Retention sweeps that overlap (two workers, an overdue slot's sweep beside its successor's) share one backlog:
// every row past its period is deleted, none inside it, each person's latest sign-in stays, and no sweep fails
// or waits on another's rows (SKIP LOCKED). PostgreSQL only, where the transactions truly overlap.
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { RETENTION_BATCH_SIZE, RETENTION_BATCHES_PER_RUN, RETENTION_SWEEP_JOB } from "../../src/worker/retention.js";
import { registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";

describe.skipIf(!onPostgres)("retention sweep races on PostgreSQL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  const rows = <T>(query: SQL) => queryRows<T>(t.runtime.deps.database.db, query);
  const count = async (query: SQL) => (await rows<{ n: number }>(query))[0]?.n;

  it("sweeps run by two workers at once delete each row past its period, and only those", async () => {
    const db = t.runtime.deps.database.db;
    const owner = await registerBusiness(t.app, "Retention Race Co");
    const now = t.clock.now().toISOString();
    // More than one run's worth of each kind, so the sweeps also hand over to continuation jobs.
    const backlog = RETENTION_BATCH_SIZE * RETENTION_BATCHES_PER_RUN + 150;
    await db.execute(sql`
      insert into pending_registrations (id, token_hash, email, business_name, password_hash, expires_at, created_at)
      select gen_random_uuid(), md5('race-' || n::text), 'race-' || n::text || '@example.com', 'Race Co',
             'scrypt$1024$8$1$c2FsdA$aGFzaA',
             ${now}::timestamptz - make_interval(days => case when n <= ${backlog} then 8 else 6 end),
             ${now}::timestamptz - make_interval(days => 10)
      from generate_series(1, ${backlog + 20}) as n`);
    // Sessions of the owner, signed in a second apart 40 days ago and ended 35 days ago.
    await db.execute(sql`
      insert into sessions (id, token_hash, user_id, business_id, membership_id, role, created_at, last_seen_at,
                            expires_at, confirmed_at, ended_at, ended_reason)
      select gen_random_uuid(), md5('race-session-' || n::text), ${owner.userId}, ${owner.businessId},
             ${owner.membershipId}, 'business_admin', ${now}::timestamptz - interval '40 days' + make_interval(secs => n),
             ${now}::timestamptz - interval '40 days', ${now}::timestamptz - interval '39 days',
             ${now}::timestamptz - interval '40 days', ${now}::timestamptz - interval '35 days', 'signed_out'
      from generate_series(1, ${backlog}) as n`);
    const [latest] = await rows<{ id: string }>(
      sql`select id from sessions where user_id = ${owner.userId} order by created_at desc, id desc limit 1`,
    );

    // Four sweeps due at once (an overdue slot, its successor, a sweep that ran twice), two workers.
    for (let i = 0; i < 4; i++) {
      await t.runtime.deps.jobStore.enqueue(db, RETENTION_SWEEP_JOB, {}, { dedupeKey: `race-sweep:${i}` });
    }
    await Promise.all([t.runtime.createWorker("sweeper-a").drain(), t.runtime.createWorker("sweeper-b").drain()]);

    expect(
      await count(
        sql`select count(*)::int as n from pending_registrations where expires_at < ${now}::timestamptz - interval '7 days'`,
      ),
    ).toBe(0);
    expect(await count(sql`select count(*)::int as n from pending_registrations where email like 'race-%'`)).toBe(20);
    expect(await rows<{ id: string }>(sql`select id from sessions where user_id = ${owner.userId}`)).toEqual([latest]);
    const sweeps = await rows<{ status: string; last_error: string | null }>(
      sql`select status::text as status, last_error from jobs where type = ${RETENTION_SWEEP_JOB.type} and dedupe_key not like 'retention-sweep:2%'`,
    );
    expect(sweeps.length).toBeGreaterThanOrEqual(4);
    expect(sweeps.filter((sweep) => sweep.status !== "succeeded" || sweep.last_error !== null)).toEqual([]);
  });
});
