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
 * `column = any($1::<type>[])` with every value in one parameter: `inArray` for lists of hundreds or thousands of
 * ids (an empty list matches nothing, as `inArray` with none).
 */
export function anyOf(column: AnyPgColumn, values: Iterable<string>, type: "uuid" | "text" = "uuid"): SQL {
  return sql`${column} = any(${textArrayLiteral(values)}::${sql.raw(type)}[])`;
}
