// The migration that introduces the trace and File ID Modifier counters starts them after what a deployment
// already sent: files written before it numbered traces from the cut-off's position (ODFI + modifier position
// * 100000 + entry position), and a return may still name those entries. On both engines.
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { MIGRATIONS_FOLDER, runMigrations } from "../../src/platform/db/migrate.js";
import { openTestDatabase, type TestDatabase } from "../helpers/test-database.js";

/** The migration that brought the counters (found by name: the lead may renumber it at merge). */
const INTRODUCED_BY = /^\d+_ach_identity$/;

describe("the ACH identity migration", () => {
  let database: TestDatabase;
  let before: string;

  beforeAll(async () => {
    // The migrations folder as it was before the counters came.
    before = mkdtempSync(path.join(tmpdir(), "migrations-before-"));
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
      entries: Array<{ tag: string }>;
    };
    const cut = journal.entries.findIndex((entry) => INTRODUCED_BY.test(entry.tag));
    expect(cut).toBeGreaterThan(0);
    mkdirSync(path.join(before, "meta"));
    writeFileSync(
      path.join(before, "meta", "_journal.json"),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }),
    );
    for (const name of readdirSync(MIGRATIONS_FOLDER).filter((n) => n.endsWith(".sql"))) {
      copyFileSync(path.join(MIGRATIONS_FOLDER, name), path.join(before, name));
    }
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
    rmSync(before, { recursive: true, force: true });
  });

  it("continues each trace sequence and each date's modifiers after the ones already sent", async () => {
    const db = database.database.db;
    await runMigrations(db, before);
    const businessId = randomUUID();
    await db.execute(sql`insert into businesses (id, name, created_at) values (${businessId}, 'Acme', now())`);
    const files = [
      { id: randomUUID(), messageId: "2026-11-27-A", traces: ["091000010000001", "091000010000002"] },
      { id: randomUUID(), messageId: "2026-11-27-B", traces: ["091000010100001"] },
      { id: randomUUID(), messageId: "2026-11-28-A", traces: ["091000010000001"] },
    ];
    for (const [index, file] of files.entries()) {
      await db.execute(sql`
        insert into bank_files (id, business_id, environment, rail, cutoff_at, file_name, message_id, format,
          content_encrypted, content_sha256, entry_count, control_sum_minor, currency, status, created_at, updated_at)
        values (${file.id}, ${businessId}, 'production', 'ach', ${new Date(Date.UTC(2026, 10, 27 + index)).toISOString()},
          ${`ach-${index}.ach`}, ${file.messageId}, 'nacha', 'x', 'x', ${file.traces.length}, 100, 'USD', 'uploaded', now(), now())`);
      for (const trace of file.traces) {
        await db.execute(sql`
          insert into bank_file_items (payout_id, business_id, environment, rail, file_id, amount_minor, reference, queued_at)
          values (${randomUUID()}, ${businessId}, 'production', 'ach', ${file.id}, 100, ${trace}, now())`);
      }
    }
    await runMigrations(db);
    const counters = await queryRows<{ name: string; value: string | number }>(
      db,
      sql`select name, value from bank_rail_counters where business_id = ${businessId} order by name`,
    );
    expect(counters.map((c) => [c.name, Number(c.value)])).toEqual([
      ["ach_file_id:2026-11-27", 2],
      ["ach_file_id:2026-11-28", 1],
      ["ach_trace:09100001", 100_001],
    ]);
  });
});
