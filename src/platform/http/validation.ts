// Request validation with Ajv, and the translation of Ajv's errors into the envelope's stable detail
// codes. Bodies are validated strictly (no type coercion: "12" is not an integer); query strings and
// path parameters arrive as text, so they are coerced.

import type { TSchema } from "@sinclair/typebox";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";
import type { ErrorDetail } from "../errors.js";
import {
  addRequestFormats,
  FORMAT_MESSAGES,
  PATTERN_CODE_KEYWORD,
  PATTERN_MESSAGE_KEYWORD,
  patternFallbackMessage,
  SINGLE_LINE_MESSAGE,
  withSingleLineStrings,
} from "./request-formats.js";

// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

function createAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? "array" : false,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    messages: true,
    // parentSchema in errors lets a schema carry its own message for a pattern (`x-pattern-message`).
    verbose: true,
  });
  addFormats(ajv);
  // ajv-formats' uuid also accepts a `urn:uuid:` prefix, which PostgreSQL's uuid type refuses (a 500 instead
  // of a 400): accept exactly the 8-4-4-4-12 hex form.
  ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  addRequestFormats(ajv);
  return ajv;
}

/** `sharedSchemas` are the schemas with an `$id` that request schemas may `$ref` (e.g. PostalAddress). */
export function createValidatorCompiler(sharedSchemas: readonly TSchema[] = []): FastifySchemaCompiler<unknown> {
  const strictAjv = createAjv(false);
  const coercingAjv = createAjv(true);
  for (const schema of sharedSchemas) {
    strictAjv.addSchema(withSingleLineStrings(schema));
    coercingAjv.addSchema(withSingleLineStrings(schema));
  }
  return ({ schema, httpPart }) => {
    const ajv = httpPart === "body" ? strictAjv : coercingAjv;
    const validate: ValidateFunction = ajv.compile(withSingleLineStrings(schema as object));
    return (data: unknown) => (validate(data) ? { value: data } : { error: toValidationError(validate.errors ?? []) });
  };
}

/** Carries Ajv's errors to the error handler, which maps them to details. */
export class RequestValidationError extends Error {
  readonly ajvErrors: readonly ErrorObject[];
  constructor(errors: readonly ErrorObject[]) {
    super("request validation failed");
    this.ajvErrors = errors;
  }
}

function toValidationError(errors: readonly ErrorObject[]): Error {
  return new RequestValidationError(errors);
}

/** `/rows/0/email` -> `rows[0].email` */
export function toFieldPath(instancePath: string, child?: string): string {
  const parts = instancePath.split("/").slice(1);
  if (child !== undefined) parts.push(child);
  let out = "";
  for (const raw of parts) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out === "" ? part : `.${part}`;
  }
  return out;
}

function describeType(expected: unknown): string {
  return Array.isArray(expected) ? expected.join(" or ") : String(expected);
}

/** One detail per offending field, in a stable vocabulary. Union branches collapse into one entry per field. */
export function ajvErrorsToDetails(errors: readonly ErrorObject[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  const push = (detail: ErrorDetail) => {
    const key = `${detail.field}|${detail.code}`;
    if (seen.has(key)) return;
    seen.add(key);
    details.push(detail);
  };
  // A failed union ("anyOf", e.g. a nullable field) reports every branch. Errors inside a union are
  // reported through the union: as invalid_enum for a union of literals, else as the failure of the branch
  // that was meant (the non-null one), so `phone: "0151"` says invalid_format rather than "not null".
  const unions = errors.filter((e) => e.keyword === "anyOf");
  const insideUnion = (e: ErrorObject) => unions.some((u) => u !== e && e.schemaPath.startsWith(`${u.schemaPath}/`));
  for (const error of errors) {
    const field = toFieldPath(error.instancePath);
    const params = error.params as Record<string, unknown>;
    if (insideUnion(error)) continue;
    if (error.keyword === "anyOf") {
      const branches = errors.filter((e) => e.schemaPath.startsWith(`${error.schemaPath}/`));
      // A union of literals fails at its own path (`const`/`enum` on the value itself); a union of objects
      // fails inside them, and is reported as the branch that was meant.
      const enumLike = branches.some(
        (e) => (e.keyword === "const" || e.keyword === "enum") && e.instancePath === error.instancePath,
      );
      const meant = meantBranchErrors(error, branches);
      if (!enumLike && meant.length > 0) {
        for (const detail of ajvErrorsToDetails(meant)) push(detail);
        continue;
      }
    }
    switch (error.keyword) {
      case "required": {
        const missing = String(params.missingProperty);
        push({ field: toFieldPath(error.instancePath, missing), code: "required", message: `${missing} is required.` });
        break;
      }
      case "additionalProperties": {
        const extra = String(params.additionalProperty);
        push({ field: toFieldPath(error.instancePath, extra), code: "unknown_field", message: `${extra} is not a known field.` });
        break;
      }
      case "type":
        push({ field, code: "invalid_type", message: `Expected ${describeType(params.type)}.` });
        break;
      case "format":
        push(
          params.format === "uuid"
            ? { field, code: "invalid_uuid", message: "Expected a UUID." }
            : {
                field,
                code: "invalid_format",
                message: FORMAT_MESSAGES[String(params.format)] ?? `Expected a valid ${String(params.format)}.`,
              },
        );
        break;
      case "singleLine":
        push({ field, code: "invalid_character", message: SINGLE_LINE_MESSAGE });
        break;
      case "pattern": {
        // A schema may name its own detail code and message for a pattern (nameString: `blank`); without
        // one, the message still says what the field expects.
        const own = error.parentSchema as Record<string, unknown> | undefined;
        const code = own?.[PATTERN_CODE_KEYWORD];
        const message = own?.[PATTERN_MESSAGE_KEYWORD];
        push({
          field,
          code: typeof code === "string" ? code : "invalid_format",
          message: typeof message === "string" ? message : patternFallbackMessage(String(params.pattern)),
        });
        break;
      }
      case "enum":
      case "const":
      case "anyOf": {
        const allowed = collectAllowedValues(errors, error.instancePath, params);
        push({
          field,
          code: "invalid_enum",
          message: allowed.length > 0 ? `Expected one of: ${allowed.join(", ")}.` : "Value is not one of the allowed values.",
        });
        break;
      }
      case "maxLength":
        push({ field, code: "too_long", message: `At most ${String(params.limit)} characters.` });
        break;
      case "minLength":
        push({ field, code: "too_short", message: `At least ${String(params.limit)} characters.` });
        break;
      case "minimum":
      case "maximum":
      case "exclusiveMinimum":
      case "exclusiveMaximum":
        push({ field, code: "out_of_range", message: `Must be ${String(params.comparison)} ${String(params.limit)}.` });
        break;
      case "multipleOf":
        push({ field, code: "invalid_type", message: "Expected an integer." });
        break;
      case "maxItems":
        push({ field, code: "too_many_items", message: `At most ${String(params.limit)} items.` });
        break;
      case "minItems":
        push({ field, code: "too_few_items", message: `At least ${String(params.limit)} items.` });
        break;
      case "maxProperties":
        push({ field, code: "out_of_range", message: error.message ?? "Wrong number of fields." });
        break;
      case "minProperties":
        // An empty PATCH body: say what to send rather than Ajv's "must NOT have fewer than 1 properties".
        push({
          field,
          code: "out_of_range",
          message:
            params.limit === 1 ? "The body is empty: send at least one field." : `Send at least ${String(params.limit)} fields.`,
        });
        break;
      default:
        push({ field, code: "invalid", message: error.message ?? "Invalid value." });
    }
  }
  return details;
}

/**
 * The errors of the union branch the caller meant. The `null` branch of a nullable field is never meant. A
 * union of objects told apart by a literal field (`delivery.kind`: `sftp` or `local_directory`) means the
 * branches whose literal matched; when none matched, the literal itself is the problem, reported as
 * `invalid_enum` on that field with every value it may take (never "not one of the allowed values" alone).
 */
function meantBranchErrors(union: ErrorObject, branches: readonly ErrorObject[]): ErrorObject[] {
  const notNull = branches.filter((e) => !(e.keyword === "type" && (e.params as { type?: unknown }).type === "null"));
  const prefix = `${union.schemaPath}/`;
  const branchOf = (e: ErrorObject) => e.schemaPath.slice(prefix.length).split("/")[0] ?? "";
  const isDiscriminator = (e: ErrorObject) =>
    e.keyword === "const" &&
    e.instancePath.startsWith(`${union.instancePath}/`) &&
    !e.instancePath.slice(union.instancePath.length + 1).includes("/");
  const discriminators = notNull.filter(isDiscriminator);
  if (discriminators.length === 0) return notNull;
  const missed = new Set(discriminators.map(branchOf));
  const matching = notNull.filter((e) => !missed.has(branchOf(e)));
  return matching.length > 0 ? matching : discriminators;
}

function collectAllowedValues(errors: readonly ErrorObject[], path: string, params: Record<string, unknown>): string[] {
  if (Array.isArray(params.allowedValues)) return params.allowedValues.map(String);
  return errors
    .filter((e) => e.instancePath === path && e.keyword === "const")
    .map((e) => String((e.params as { allowedValue?: unknown }).allowedValue));
}

/**
 * Compiles `schema` once and returns a checker of single values that answers in the envelope's detail
 * vocabulary (empty when valid). For inputs validated piece by piece inside a use case, such as the rows of
 * an import, where one bad piece must not fail the whole request. Strict like bodies: no type coercion.
 */
export function compileDetailsValidator(
  schema: TSchema,
  sharedSchemas: readonly TSchema[] = [],
): (value: unknown) => ErrorDetail[] {
  const ajv = createAjv(false);
  for (const shared of sharedSchemas) ajv.addSchema(withSingleLineStrings(shared));
  const validate: ValidateFunction = ajv.compile(withSingleLineStrings(schema as object));
  return (value) => (validate(value) ? [] : ajvErrorsToDetails(validate.errors ?? []));
}
