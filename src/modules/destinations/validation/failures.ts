// The result shape every destination validator returns. Validators collect every failed check instead of
// stopping at the first, so an API caller, a CSV import row and a hosted form can show all problems at once.

/** One failed check: which input field, a stable machine code, and a human sentence. */
export interface ValidationFailure<Field extends string, Code extends string> {
  field: Field;
  code: Code;
  message: string;
}

export type ValidationResult<Value, Field extends string, Code extends string> =
  | { ok: true; value: Value }
  | { ok: false; failures: ValidationFailure<Field, Code>[] };

/** A field-less problem found by a single-value check; the caller knows which field it looked at. */
export interface Problem<Code extends string> {
  code: Code;
  message: string;
}

/**
 * Trims a raw input value and treats blank as absent: a CSV cell or a form field left empty means "not
 * given", never "given as empty". Non-strings count as absent too (the HTTP schema rejects them earlier).
 */
export function readText(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** Names are compared and stored with single spaces, so "Ada  Lovelace" and "Ada Lovelace" are one name. */
export function collapseSpaces(value: string): string {
  return value.replace(/\s+/g, " ");
}

/** Free-text limit for names: SWIFT and SEPA carry 70 to 140 characters; longer cannot reach a rail intact. */
export const MAX_NAME_LENGTH = 140;
