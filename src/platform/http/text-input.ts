// One rule for the text a request carries, wherever it arrives (JSON body values and keys, query strings,
// path parameters, the headers a route reads, form fields): it must be valid Unicode that PostgreSQL can
// store, and free of control characters. Text is refused, never repaired: a replaced character or a
// silently dropped byte would make the stored value differ from what the client believes it sent (and two
// spellings of one idempotency key would name two payouts).
//
// - U+0000: PostgreSQL cannot store it in text or jsonb, so it would otherwise surface as a 500.
// - An unpaired UTF-16 surrogate (JSON `"\ud800"`): not a Unicode scalar value, has no UTF-8 form.
// - C0 and C1 control characters and DEL, except TAB, LF and CR; those three are refused too in single-line
//   text: every query value, path parameter and header, and every body string that is not `x-multiline`.
// - Bytes that are not UTF-8 are refused where they are decoded (body, query, header), with TextDecoder's
//   `fatal` mode rather than the default replacement by U+FFFD.
import type { ErrorDetail } from "../errors.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LINE_CONTROL = /[\t\n\r]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** More details than this would only make the answer bigger, not more useful. */
const MAX_DETAILS = 20;

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** What is wrong with one string, in the envelope's detail vocabulary; null when it is acceptable. */
export function textProblem(value: string, singleLine: boolean): Omit<ErrorDetail, "field"> | null {
  if (value.includes("\u0000")) {
    return { code: "invalid_character", message: "Contains U+0000 (NUL), which is not allowed in text." };
  }
  const surrogate = LONE_SURROGATE.exec(value);
  if (surrogate !== null) {
    return {
      code: "invalid_character",
      message: `Contains an unpaired surrogate (${codePoint(surrogate[0])}), which is not valid Unicode text.`,
    };
  }
  const control = CONTROL.exec(value);
  if (control !== null) {
    return { code: "invalid_character", message: `Contains the control character ${codePoint(control[0])}.` };
  }
  if (singleLine) {
    const line = LINE_CONTROL.exec(value);
    if (line !== null) {
      return {
        code: "invalid_character",
        message: `Contains ${line[0] === "\t" ? "a tab" : "a line break"} (${codePoint(line[0])}); this field is a single line of text.`,
      };
    }
  }
  return null;
}

function childPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

/**
 * Every string of a parsed JSON value (object keys included), with the JSON path of each offender
 * (`rows[3].external_ref`). Body values may hold TAB/CR/LF here; single-line fields are checked by the schema.
 */
export function findTextProblems(value: unknown, options: { singleLine: boolean; path?: string }): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const visit = (node: unknown, path: string) => {
    if (details.length >= MAX_DETAILS) return;
    if (typeof node === "string") {
      const problem = textProblem(node, options.singleLine);
      if (problem !== null) details.push({ field: path, ...problem });
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        visit(item, childPath(path, index));
      });
      return;
    }
    if (node !== null && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) {
        // A key is single-line by nature. It is named by a printable stand-in so the answer stays readable.
        const keyProblem = textProblem(key, true);
        if (keyProblem !== null) {
          if (details.length < MAX_DETAILS) {
            details.push({
              field: childPath(path, printable(key)),
              code: keyProblem.code,
              message: `Field name: ${keyProblem.message}`,
            });
          }
          continue;
        }
        visit(item, childPath(path, key));
      }
    }
  };
  visit(value, options.path ?? "");
  return details;
}

/** A field name safe to echo in an error: control characters, NUL and lone surrogates as `\u{…}`. */
export function printable(text: string): string {
  let out = "";
  for (const char of text) {
    out += textProblem(char, true) === null ? char : `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`;
  }
  return out;
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Bytes to text, or null when they are not UTF-8 (never replaced by U+FFFD). */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * A header value as UTF-8. Node hands header values over as Latin-1 (one character per byte), so a UTF-8
 * key would otherwise be read as different text from the same key sent in a JSON body.
 */
export function decodeHeaderUtf8(latin1: string): string | null {
  return decodeUtf8(Buffer.from(latin1, "latin1"));
}

/**
 * One component of a query string or form body (`+` as space, `%XX` as bytes) decoded as UTF-8, or null
 * when an escape is malformed or the bytes are not UTF-8.
 */
export function decodeFormComponent(component: string): string | null {
  const text = component.replace(/\+/g, " ");
  if (!text.includes("%")) return text;
  if (/%(?![0-9a-fA-F]{2})/.test(text)) return null;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; ) {
    if (text[i] === "%") {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i) ?? 0);
    for (const byte of Buffer.from(char, "utf8")) bytes.push(byte);
    i += char.length;
  }
  return decodeUtf8(Uint8Array.from(bytes));
}

/**
 * The problems of a raw query string (after `?`) or form body: undecodable components first, then the
 * text rule on each decoded name and value (single-line). Field names are the decoded parameter names.
 */
export function findQueryProblems(raw: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (raw === "") return details;
  for (const pair of raw.split("&")) {
    if (details.length >= MAX_DETAILS) break;
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? "" : pair.slice(eq + 1);
    const name = decodeFormComponent(rawName);
    const value = decodeFormComponent(rawValue);
    const field = printable(name ?? rawName);
    if (name === null || value === null) {
      details.push({
        field,
        code: "invalid_encoding",
        message: "Not valid percent-encoded UTF-8: encode the text as UTF-8, then percent-encode each byte.",
      });
      continue;
    }
    const nameProblem = textProblem(name, true);
    if (nameProblem !== null) {
      details.push({ field, code: nameProblem.code, message: `Parameter name: ${nameProblem.message}` });
      continue;
    }
    const problem = textProblem(value, true);
    if (problem !== null) details.push({ field, ...problem });
  }
  return details;
}
