// One rule for every field that names a person, a business or a thing a person reads (a legal name, a
// nickname, an account holder, a key label, a policy rule): it must contain at least one letter or digit.
//
// "Not blank after trimming" is not enough: zero-width spaces (U+200B, category Cf), no-break and ideographic
// spaces (Zs), line and paragraph separators (Zl, Zp), control characters (Cc), combining marks on nothing
// (Mn), the Braille blank (U+2800, So) and the like all pass a trim yet show nothing. Asking for a letter or
// digit (Unicode L or N) refuses all of them at once, in every script, without a list of invisible
// characters to keep up to date. The exception is the Hangul fillers, which Unicode files as letters (Lo) but
// which render as nothing, so they are excluded by name.
//
// The same pattern is the JSON Schema `pattern` of the API's name fields (so the OpenAPI document states the
// rule) and the check of the inputs that do not pass through a schema (hosted pages, bank-detail validation).

/** Hangul fillers: letters by category, invisible on screen. */
const INVISIBLE_LETTERS = "\\u115F\\u1160\\u3164\\uFFA0";

/** ECMA-262 pattern (Unicode mode) found somewhere in a name: a letter or digit that is not a filler. */
export const NAME_PATTERN = `(?![${INVISIBLE_LETTERS}])[\\p{L}\\p{N}]`;

const VISIBLE = new RegExp(NAME_PATTERN, "u");

/** The schema form: an empty string passes here because `minLength` already reports it (`too_short`). */
export const NAME_SCHEMA_PATTERN = `^$|${NAME_PATTERN}`;

/** True when `value` holds at least one visible letter or digit. */
export function isVisibleName(value: string): boolean {
  return VISIBLE.test(value);
}

/** The detail code and message every entry point uses when a name holds no letter or digit. */
export const BLANK_NAME_CODE = "blank";
export const BLANK_NAME_MESSAGE = "Must contain a letter or a digit: spaces and invisible characters alone are not a name.";
