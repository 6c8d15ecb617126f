// Makes every INSERT into a table fail inside the database for the duration of `run`, to exercise the
// service's handling of unexpected failures through real requests.
import { sql } from "drizzle-orm";
import type { Db } from "../../src/platform/db/client.js";

export async function withFailingInsert<T>(db: Db, table: string, message: string, run: () => Promise<T>): Promise<T> {
  const name = `failing_insert_${table}`;
  await db.execute(
    sql.raw(
      `create function ${name}() returns trigger language plpgsql as $$ begin raise exception '${message.replaceAll("'", "''")}'; end $$`,
    ),
  );
  await db.execute(sql.raw(`create trigger ${name} before insert on ${table} for each row execute function ${name}()`));
  try {
    return await run();
  } finally {
    await db.execute(sql.raw(`drop trigger ${name} on ${table}`));
    await db.execute(sql.raw(`drop function ${name}()`));
  }
}
