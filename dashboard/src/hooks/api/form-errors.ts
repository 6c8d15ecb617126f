// The API's refusals onto a form's fields. An error envelope's `details` name fields the way the request body
// does: a JSON pointer (`/email`, `/body/email`, `/rules/0/amount`), a path (`rows[3].iban`) or a plain name
// (`email`). A Mantine form names the same field by its dotted path (`email`, `rules.0.amount`).
import type { UseFormReturnType } from "@mantine/form";
import { ApiError, type ErrorBody } from "../../api/client";

export type ErrorDetail = NonNullable<ErrorBody["details"]>[number];

/** `/body/rules/0/amount`, `rules[0].amount` or `rules.0.amount` -> `rules.0.amount`. */
export function formPath(field: string): string {
  return field
    .replace(/\[(\d+)\]/g, ".$1")
    .replace(/^\/+/, "")
    .replace(/^body\//, "")
    .replace(/\//g, ".")
    .replace(/^\./, "");
}

function hasPath(values: unknown, path: string): boolean {
  let node: unknown = values;
  for (const part of path.split(".")) {
    if (typeof node !== "object" || node === null || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return true;
}

/**
 * Sets the message of each detail of `error` on the field it names, when the form has it: the whole path
 * first, then its last part (`/body/email` on a form with `email`). `aliases` maps an API name to the form's
 * where they differ (`{ label: "name" }`). Returns the details no field took, for the form's alert.
 */
export function setFieldErrors<Values extends Record<string, unknown>>(
  form: UseFormReturnType<Values>,
  error: unknown,
  aliases: Readonly<Record<string, string>> = {},
): readonly ErrorDetail[] {
  if (!(error instanceof ApiError)) return [];
  const values = form.getValues();
  const unplaced: ErrorDetail[] = [];
  for (const detail of error.body.details ?? []) {
    const path = formPath(detail.field);
    const last = path.split(".").at(-1) ?? path;
    const target = [aliases[path], path, aliases[last], last].find(
      (candidate): candidate is string => candidate !== undefined && candidate !== "" && hasPath(values, candidate),
    );
    if (target === undefined) unplaced.push(detail);
    else form.setFieldError(target, detail.message);
  }
  return unplaced;
}
