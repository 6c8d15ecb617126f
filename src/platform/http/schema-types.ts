// Schema builders that serialize fast. fast-json-stringify must validate every value against each branch
// of an `anyOf` to pick one, which made union-heavy responses several times slower; a `type` array
// (["string", "null"]) or an `enum` needs no such check. Use these instead of Type.Union for nullable
// scalars and string enums in response and request schemas.
import { type Static, type TSchema, type TString, type TUnsafe, Type } from "@sinclair/typebox";
import { BLANK_NAME_CODE, BLANK_NAME_MESSAGE, NAME_SCHEMA_PATTERN } from "../names.js";

type ScalarType = "string" | "integer" | "number" | "boolean";
const SCALAR_TYPES = new Set<ScalarType>(["string", "integer", "number", "boolean"]);

/** A nullable scalar: `{ type: [T, "null"] }`, keeping the schema's other keywords (format, enum, …). */
export function nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const type = (schema as { type?: unknown }).type;
  if (typeof type !== "string" || !SCALAR_TYPES.has(type as ScalarType)) throw new Error("nullable() takes a scalar schema");
  const withNull: Record<string, unknown> = { ...schema, type: [type, "null"] };
  if (Array.isArray(schema.enum)) withNull.enum = [...(schema.enum as unknown[]), null];
  return Type.Unsafe<Static<T> | null>(withNull);
}

/** A string enum: `{ type: "string", enum: [...] }`. */
export function stringEnum<const V extends readonly string[]>(
  values: V,
  options: { description?: string } = {},
): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({ type: "string", enum: [...values], ...options });
}

/**
 * A field that names someone or something (platform/names.ts): 1 to `maxLength` characters, at least one of
 * them a letter or digit. A name of spaces or invisible characters only is refused with the detail code
 * `blank` (validation.ts reads `patternCode`).
 */
export function nameString(maxLength: number, description?: string): TString {
  return Type.String({
    minLength: 1,
    maxLength,
    pattern: NAME_SCHEMA_PATTERN,
    "x-pattern-message": BLANK_NAME_MESSAGE,
    "x-pattern-code": BLANK_NAME_CODE,
    ...(description === undefined ? {} : { description }),
  });
}
