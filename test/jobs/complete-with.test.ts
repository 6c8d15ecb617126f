// JobStore.completeWith and conditionalEnqueueSql (added for webhook delivery): the job's completion and
// the caller's effects happen in one statement, and a worker that lost its lease applies nothing.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/platform/clock.js";
import { type Db, queryRows } from "../../src/platform/db/client.js";
import { runMigrations } from "../../src/platform/db/migrate.js";
import { uuidV7Generator } from "../../src/platform/ids.js";
import { conditionalEnqueueSql, createJobStore, type JobStore } from "../../src/platform/jobs/job-store.js";
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
    await db.transaction((tx) => store.enqueue(tx, { type: "probe.first", payload: {} }));
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
    await db.transaction((tx) => store.enqueue(tx, { type: "probe.first", payload: {} }));
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
});
