import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

// Many values in one statement as ONE parameter: a PostgreSQL array literal, compared with `= any($1::text[])`.
// Drizzle's `inArray` sends one parameter per value, and building a statement of thousands of them costs the
// process more than the database spends running it.

/**
 * A PostgreSQL array literal of texts, sent as one parameter (thousands of values in one statement). Each
 * value is quoted with its quotes and backslashes escaped, so no value can break out of its element.
 */
export function textArrayLiteral(values: Iterable<string>): string {
  return `{${[...values].map((v) => `"${v.replace(/(["\\])/g, "\\$1")}"`).join(",")}}`;
}

/**
 * `column = any(...)` with every value in one parameter: `inArray` for lists of hundreds or thousands of ids (an
 * empty list matches nothing, as `inArray` with none), for columns an index leads with.
 *
 * The array is handed over as `array(select unnest($1))`, whose length the planner cannot see (it assumes ten
 * values), so it probes the index. Given the literal, it multiplies the list's length by its selectivity for one
 * value, and on a table without column statistics (one that grew since its last ANALYZE, and every PGlite table:
 * PGlite runs no autovacuum) that guess is 0.5% per value: 200 ids read as the whole table, and it scanned it
 * (measured: 13,000 payouts read for a statement of 233, 8.6 ms instead of about 1 ms).
 */
export function anyOf(column: AnyPgColumn, values: Iterable<string>, type: "uuid" | "text" = "uuid"): SQL {
  return sql`${column} = any(array(select unnest(${textArrayLiteral(values)}::${sql.raw(type)}[])))`;
}
