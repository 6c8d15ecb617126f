// JobStore.completeGrouped and the SQL enqueue builders the webhook hot path uses: the job's completion and
// the caller's effects happen in one statement, a worker that lost its lease applies nothing, and jobs
// enqueued from SQL are the jobs JobStore.enqueue writes (payload with its version, dedupe key).

import { Type } from "@sinclair/typebox";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/platform/clock.js";
import { type Db, queryRows, transaction } from "../../src/platform/db/client.js";
import { runMigrations } from "../../src/platform/db/migrate.js";
import { uuidV7Generator } from "../../src/platform/ids.js";
import { defineJob } from "../../src/platform/jobs/job-definition.js";
import {
  conditionalEnqueueSql,
  createJobStore,
  enqueueFromRowsSql,
  enqueueJobs,
  type GroupedEffects,
  type JobStore,
} from "../../src/platform/jobs/job-store.js";
import { probeEnqueue } from "../helpers/probe-jobs.js";
import { TEST_START } from "../helpers/test-app.js";
import { openTestDatabase, type TestDatabase } from "../helpers/test-database.js";

describe("JobStore.completeGrouped and the SQL enqueue builders", () => {
  let testDatabase: TestDatabase;
  let db: Db;
  let store: JobStore;
  const clock = createManualClock(TEST_START);

  beforeAll(async () => {
    testDatabase = await openTestDatabase();
    db = testDatabase.database.db;
    await runMigrations(db);
    await db.execute(sql`create table complete_with_probe (note text not null)`);
    store = createJobStore({ db, clock, ids: uuidV7Generator });
  });
  afterAll(async () => testDatabase?.close());
  beforeEach(async () => {
    await db.execute(sql`truncate jobs, complete_with_probe`);
  });

  const notes = async () =>
    (await queryRows<{ note: string }>(db, sql`select note from complete_with_probe order by note`)).map((r) => r.note);
  const statuses = async () =>
    (await queryRows<{ type: string; status: string }>(db, sql`select type, status::text from jobs order by type`)).map(
      (r) => `${r.type}:${r.status}`,
    );

  it("completeGrouped: jobs completed together in one statement, the effects applied only where the lease held", async () => {
    for (const n of [1, 2, 3]) {
      await transaction(db, (tx) => store.enqueue(tx, ...probeEnqueue({ type: `probe.grouped${n}`, payload: {} })));
    }
    const claimed = await store.claim("w1", 3, 30_000, ["probe.grouped1", "probe.grouped2", "probe.grouped3"]);
    const [first, second, lost] = [1, 2, 3].map((n) => claimed.find((job) => job.type === `probe.grouped${n}`));
    if (first === undefined || second === undefined || lost === undefined) throw new Error("not claimed");
    await db.execute(sql`update jobs set lease_token = gen_random_uuid() where id = ${lost.id}`);
    const grouped: GroupedEffects = {
      name: "probe_grouped",
      columns: [{ name: "note", type: "text" }],
      effects: sql`noted as (insert into complete_with_probe (note) select note || ':' || txid_current() from done returning note)`,
    };
    const results = await Promise.all([
      store.completeGrouped(first, ["first"], grouped),
      store.completeGrouped(second, ["second"], grouped),
      store.completeGrouped(lost, ["lost"], grouped),
    ]);
    expect(results).toEqual([true, true, false]);
    const written = await notes();
    expect(written.map((note) => note.split(":")[0])).toEqual(["first", "second"]);
    expect(new Set(written.map((note) => note.split(":")[1])).size).toBe(1);
    expect(await statuses()).toEqual(["probe.grouped1:succeeded", "probe.grouped2:succeeded", "probe.grouped3:running"]);
  });

  const PAIR_JOB = defineJob({
    type: "probe.pair",
    version: 1,
    payload: Type.Object({ left: Type.String(), right: Type.Integer() }),
    maxAttempts: 4,
    dedupeKey: { prefix: "pair", fields: ["left", "right"] },
  });
  const storedPairs = async () =>
    queryRows<{ payload: unknown; dedupe_key: string; max_attempts: number }>(
      db,
      sql`select payload, dedupe_key, max_attempts from jobs where type = 'probe.pair' order by dedupe_key`,
    );

  it("a job enqueued from SQL rows is stored as JobStore.enqueue stores it, and deduplicated against it", async () => {
    await transaction(db, (tx) => store.enqueue(tx, PAIR_JOB, { left: "a", right: 1 }));
    const now = clock.now().toISOString();
    await db.execute(
      sql`with input as (select * from (values ('a', 1), ('b', 2)) as i(left_value, right_value)),
        inserted as (${enqueueFromRowsSql(
          PAIR_JOB,
          {
            id: sql`gen_random_uuid()`,
            runAt: sql`${now}::timestamptz`,
            now: sql`${now}::timestamptz`,
            payload: { left: sql`input.left_value`, right: sql`input.right_value` },
          },
          sql`from input`,
        )})
        select count(*) from inserted`,
    );
    expect(await storedPairs()).toEqual([
      { payload: { v: 1, left: "a", right: 1 }, dedupe_key: "pair:a:1", max_attempts: 4 },
      { payload: { v: 1, left: "b", right: 2 }, dedupe_key: "pair:b:2", max_attempts: 4 },
    ]);
    // Both are due at the same instant, so the claim order between them falls to their random ids: claim both.
    const claimed = await store.claim("w1", 2, 30_000, ["probe.pair"]);
    expect(claimed.map((job) => PAIR_JOB.decode(job.payload)).sort((x, y) => x.left.localeCompare(y.left))).toEqual([
      { left: "a", right: 1 },
      { left: "b", right: 2 },
    ]);
  });

  it("enqueueJobs stores many jobs as JobStore.enqueue stores them, in one statement, deduplicated", async () => {
    await transaction(db, (tx) => store.enqueue(tx, PAIR_JOB, { left: "a", right: 1 }));
    const runAt = new Date(clock.now().getTime() + 60_000);
    const awkward = 'quote " backslash \\ comma , brace } Zoë NULL';
    const inserted = await transaction(db, (tx) =>
      enqueueJobs(
        tx,
        PAIR_JOB,
        [
          { payload: { left: "a", right: 1 } }, // the job above: skipped
          { payload: { left: awkward, right: 2 } },
          { payload: { left: "c", right: 3 }, options: { runAt, dedupeKey: "own-key", maxAttempts: 9 } },
          { payload: { left: "c", right: 3 }, options: { dedupeKey: "own-key" } }, // the same key again: skipped
        ],
        { ids: uuidV7Generator, now: clock.now() },
      ),
    );
    expect(inserted).toBe(2);
    const stored = await storedPairs();
    expect(stored).toHaveLength(3);
    expect(stored).toEqual(
      expect.arrayContaining([
        { payload: { v: 1, left: "a", right: 1 }, dedupe_key: "pair:a:1", max_attempts: 4 },
        { payload: { v: 1, left: "c", right: 3 }, dedupe_key: "own-key", max_attempts: 9 },
        { payload: { v: 1, left: awkward, right: 2 }, dedupe_key: `pair:${awkward}:2`, max_attempts: 4 },
      ]),
    );
    const [due] = await queryRows<{ run_at: Date | string }>(db, sql`select run_at from jobs where dedupe_key = 'own-key'`);
    expect(new Date(String(due?.run_at instanceof Date ? due.run_at.toISOString() : due?.run_at)).getTime()).toBe(
      runAt.getTime(),
    );
    const claimed = await store.claim("w1", 10, 30_000, ["probe.pair"]);
    expect(claimed.map((job) => PAIR_JOB.decode(job.payload)).sort((x, y) => x.right - y.right)).toEqual([
      { left: "a", right: 1 },
      { left: awkward, right: 2 },
    ]);
  });

  it("conditionalEnqueueSql enqueues only when its condition holds, with the definition's encoding", async () => {
    for (const holds of [false, true]) {
      await db.execute(
        sql`with job as (${conditionalEnqueueSql(
          PAIR_JOB,
          { left: String(holds), right: 7 },
          { id: uuidV7Generator.newId(), now: clock.now() },
          holds ? sql`true` : sql`false`,
        )}) select count(*) from job`,
      );
    }
    expect(await storedPairs()).toEqual([
      { payload: { v: 1, left: "true", right: 7 }, dedupe_key: "pair:true:7", max_attempts: 4 },
    ]);
  });
});
