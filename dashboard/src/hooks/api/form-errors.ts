// The API's refusals onto a form's fields (the names' mapping is form-paths.ts).
import type { UseFormReturnType } from "@mantine/form";
import { ApiError, type ErrorBody } from "../../api/client";
import { fieldOf } from "./form-paths";

export type ErrorDetail = NonNullable<ErrorBody["details"]>[number];

export interface FieldErrorOptions {
  /** An API field name -> the form's, where they differ (`{ label: "name" }`). */
  readonly aliases?: Readonly<Record<string, string>>;
  /** How a detail reads beside its field (default: its message; `withCode` adds the code to quote). */
  readonly format?: (detail: ErrorDetail) => string;
}

/** "The website must be an https:// address. (invalid_format)": the message and the code to quote. */
export const withCode = (detail: ErrorDetail): string => `${detail.message} (${detail.code})`;

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
