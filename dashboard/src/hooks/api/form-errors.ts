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

export interface FieldErrorOptions {
  /** An API field name -> the form's, where they differ (`{ label: "name" }`). */
  readonly aliases?: Readonly<Record<string, string>>;
  /** How a detail reads beside its field (default: its message; `withCode` adds the code to quote). */
  readonly format?: (detail: ErrorDetail) => string;
}

/** "The website must be an https:// address. (invalid_format)": the message and the code to quote. */
export const withCode = (detail: ErrorDetail): string => `${detail.message} (${detail.code})`;

/**
 * The form field a detail names, if the form has it: the whole path, then the field it is part of (`logo.data`
 * -> `logo`), then its last part (`/body/email` -> `email`).
 */
export function fieldOf(values: unknown, field: string, aliases: Readonly<Record<string, string>> = {}): string | undefined {
  const path = formPath(field);
  const parts = path.split(".");
  const enclosing = parts.slice(0, -1).map((_, i) => parts.slice(0, parts.length - 1 - i).join("."));
  const last = parts.at(-1) ?? path;
  return [aliases[path], path, ...enclosing, aliases[last], last].find(
    (candidate): candidate is string => candidate !== undefined && candidate !== "" && hasPath(values, candidate),
  );
}

/**
 * Sets the details of `error` on the fields they name (`/body/email` on a form with `email`; several details
 * about one field read one after the other). Returns the details no field took, for the form's alert.
 */
export function setFieldErrors<Values>(
  form: Pick<UseFormReturnType<Values>, "getValues" | "setFieldError">,
  error: unknown,
  { aliases = {}, format = (detail) => detail.message }: FieldErrorOptions = {},
): readonly ErrorDetail[] {
  if (!(error instanceof ApiError)) return [];
  const values = form.getValues();
  const unplaced: ErrorDetail[] = [];
  const messages = new Map<string, string[]>();
  for (const detail of error.body.details ?? []) {
    const target = fieldOf(values, detail.field, aliases);
    if (target === undefined) unplaced.push(detail);
    else messages.set(target, [...(messages.get(target) ?? []), format(detail)]);
  }
  for (const [field, texts] of messages) form.setFieldError(field, texts.join(" "));
  return unplaced;
}
