// Field names in the API's refusals and in a form: the pure part of form-errors.ts (tested in
// test/unit/dashboard-form-paths.test.ts). An error envelope's `details` name fields the way the request body
// does: a JSON pointer (`/email`, `/body/email`, `/rules/0/amount`), a path (`rows[3].iban`) or a plain name
// (`email`). A Mantine form names the same field by its dotted path (`email`, `rules.0.amount`).

/** `/body/rules/0/amount`, `rules[0].amount` or `rules.0.amount` -> `rules.0.amount`. */
export function formPath(field: string): string {
  return field
    .replace(/\[(\d+)\]/g, ".$1")
    .replace(/^\/+/, "")
    .replace(/^body\//, "")
    .replace(/\//g, ".")
    .replace(/^\./, "");
}

/** The form's value at `path`, or `absent`. */
const absent = Symbol("absent");
function valueAt(values: unknown, path: string): unknown {
  let node: unknown = values;
  for (const part of path.split(".")) {
    if (typeof node !== "object" || node === null || !(part in node)) return absent;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * The form field a detail names, if the form has it: the whole path, then the field it is part of (`logo.data`
 * -> `logo`), then its last part (`/body/email` -> `email`). A detail about an item the form's list does not
 * have (`rules[4].name` with one rule) lands nowhere.
 */
export function fieldOf(values: unknown, field: string, aliases: Readonly<Record<string, string>> = {}): string | undefined {
  const path = formPath(field);
  const parts = path.split(".");
  const last = parts.at(-1) ?? path;
  const named = [aliases[path], path].find((candidate) => candidate !== undefined && valueAt(values, candidate) !== absent);
  if (named !== undefined) return named;
  // The field a part belongs to; a list of items (`rules`) is not where an item's refusal goes.
  for (let length = parts.length - 1; length > 0; length--) {
    const value = valueAt(values, parts.slice(0, length).join("."));
    if (value !== absent && !Array.isArray(value)) return parts.slice(0, length).join(".");
  }
  return [aliases[last], last].find((candidate) => candidate !== undefined && valueAt(values, candidate) !== absent);
}
