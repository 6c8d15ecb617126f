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
