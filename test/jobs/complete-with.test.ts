// JobStore.completeWith and conditionalEnqueueSql (added for webhook delivery): the job's completion and
// the caller's effects happen in one statement, and a worker that lost its lease applies nothing.
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/platform/clock.js";
import { type Db, queryRows, transaction } from "../../src/platform/db/client.js";
import { runMigrations } from "../../src/platform/db/migrate.js";
import { uuidV7Generator } from "../../src/platform/ids.js";
import { conditionalEnqueueSql, createJobStore, type GroupedEffects, type JobStore } from "../../src/platform/jobs/job-store.js";
import { TEST_START } from "../helpers/test-app.js";
import { openTestDatabase, type TestDatabase } from "../helpers/test-database.js";

describe("JobStore.completeWith", () => {
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

  it("completes the job and applies the effects, including a conditional enqueue, together", async () => {
    await transaction(db, (tx) => store.enqueue(tx, { type: "probe.first", payload: {} }));
    const [job] = await store.claim("w1", 1, 30_000, ["probe.first"]);
    if (job === undefined) throw new Error("nothing claimed");
    const completed = await store.completeWith(job, (done) => [
      { name: "noted", statement: sql`insert into complete_with_probe (note) select 'effect' where ${done} returning note` },
      {
        name: "next_job",
        statement: conditionalEnqueueSql(
          { type: "probe.second", payload: { n: 2 }, id: uuidV7Generator.newId(), now: clock.now(), dedupeKey: "second" },
          sql`exists (select 1 from noted)`,
        ),
      },
    ]);
    expect(completed).toBe(true);
    expect(await notes()).toEqual(["effect"]);
    expect(await statuses()).toEqual(["probe.first:succeeded", "probe.second:pending"]);
    const [next] = await store.claim("w1", 1, 30_000, ["probe.second"]);
    expect(next?.payload).toEqual({ n: 2 });
  });

  it("applies nothing when the lease was lost (another worker took the job over)", async () => {
    await transaction(db, (tx) => store.enqueue(tx, { type: "probe.first", payload: {} }));
    const [stale] = await store.claim("w1", 1, 1_000, ["probe.first"]);
    if (stale === undefined) throw new Error("nothing claimed");
    clock.advance(2_000);
    await store.reclaimExpired();
    const [owner] = await store.claim("w2", 1, 30_000, ["probe.first"]);
    expect(owner?.id).toBe(stale.id);
    const completed = await store.completeWith(stale, (done) => [
      { name: "noted", statement: sql`insert into complete_with_probe (note) select 'stale' where ${done} returning note` },
    ]);
    expect(completed).toBe(false);
    expect(await notes()).toEqual([]);
    expect(await statuses()).toEqual(["probe.first:running"]);
  });

  it("completions made together are written together, each fenced by its own lease, and a failing one fails alone", async () => {
    for (const n of [1, 2, 3, 4]) {
      await transaction(db, (tx) => store.enqueue(tx, { type: `probe.batch${n}`, payload: {} }));
    }
    const claimed = await store.claim("w1", 4, 1_000, ["probe.batch1", "probe.batch2", "probe.batch3", "probe.batch4"]);
    const [first, second, lost, failing] = [1, 2, 3, 4].map((n) => claimed.find((job) => job.type === `probe.batch${n}`));
    if (first === undefined || second === undefined || lost === undefined || failing === undefined)
      throw new Error("not claimed");
    // The third job's lease is taken over by another worker before the completions are written.
    clock.advance(2_000);
    await db.execute(sql`update jobs set lease_token = gen_random_uuid() where id = ${lost.id}`);
    const effects = (note: string) => (done: SQL, ref: (name: string) => SQL) => [
      { name: "noted", statement: sql`insert into complete_with_probe (note) select ${note} where ${done} returning note` },
      {
        name: "noted_again",
        statement: sql`insert into complete_with_probe (note) select ${`${note}-again`} where exists (select 1 from ${ref("noted")}) returning note`,
      },
    ];
    // Same tick: one grouped statement. The fourth entry's effect fails (a null note), which must not cost the others.
    const results = await Promise.all([
      store.completeWith(first, effects("first")),
      store.completeWith(second, effects("second")),
      store.completeWith(lost, effects("lost")),
      store
        .completeWith(failing, (done) => [
          { name: "noted", statement: sql`insert into complete_with_probe (note) select null where ${done} returning note` },
        ])
        .then(
          () => "completed",
          () => "rejected",
        ),
    ]);
    expect(results).toEqual([true, true, false, "rejected"]);
    expect(await notes()).toEqual(["first", "first-again", "second", "second-again"]);
    expect(await statuses()).toEqual([
      "probe.batch1:succeeded",
      "probe.batch2:succeeded",
      "probe.batch3:running",
      "probe.batch4:running",
    ]);
  });

  it("completions made in the same tick share one statement (one transaction)", async () => {
    for (const n of [1, 2, 3]) {
      await transaction(db, (tx) => store.enqueue(tx, { type: `probe.group${n}`, payload: {} }));
    }
    const claimed = await store.claim("w1", 3, 30_000, ["probe.group1", "probe.group2", "probe.group3"]);
    expect(claimed).toHaveLength(3);
    const results = await Promise.all(
      claimed.map((job) =>
        store.completeWith(job, (done, ref) => [
          {
            name: "noted",
            statement: sql`insert into complete_with_probe (note) select txid_current()::text where ${done} returning note`,
          },
          {
            name: "again",
            statement: sql`insert into complete_with_probe (note) select note from ${ref("noted")} returning note`,
          },
        ]),
      ),
    );
    expect(results).toEqual([true, true, true]);
    const written = await notes();
    expect(written).toHaveLength(6);
    expect(new Set(written).size).toBe(1);
  });

  it("completeGrouped: jobs completed together in one statement, the effects applied only where the lease held", async () => {
    for (const n of [1, 2, 3]) {
      await transaction(db, (tx) => store.enqueue(tx, { type: `probe.grouped${n}`, payload: {} }));
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
});
