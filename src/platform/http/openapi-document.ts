// The last pass over the OpenAPI document @fastify/swagger generates from the route schemas, so that what SDK
// generators read is a stable contract: every request body and success response a named component (no
// inline duplicates), the error codes of each error status (`x-error-codes`), the response headers, and a
// body that the server does not need declared optional. Route schemas mark what they want with `x-` keywords
// (below); this pass reads and removes the markers. Pure: document in, document out.

/** On a request body or success response schema: the name of its component (else derived from the operationId). */
export const COMPONENT_NAME = "x-component";
/**
 * On a schema published as a reference to a component although the server uses another form: rows the validator
 * must not check as a whole (each is checked on its own), or a nullable object inlined for serialization speed.
 */
export const DOCUMENTED_AS = "x-documented-as";
/** On a header parameter the server accepts elsewhere too (the idempotency key): declared required in the document. */
export const DOCUMENTED_REQUIRED = "x-documented-required";
/** On an error response schema (set by routeResponses): the error codes of that status. */
export const ERROR_CODES_KEYWORD = "x-error-codes";

const SCHEMAS = "#/components/schemas/";
const HEADERS = "#/components/headers/";
const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

type Json = Record<string, unknown>;

/** Response headers of the API, declared once and referenced by each response that can carry them. */
export const RESPONSE_HEADERS: Readonly<Record<string, Json>> = {
  XRequestId: {
    description:
      "The request's id (a UUID), on every response; the same value as `request_id` in an error. Quote it when asking for help.",
    required: true,
    schema: { type: "string", format: "uuid" },
  },
  RateLimitLimit: {
    description:
      "Requests allowed per window: per Business and environment for keyed routes, per client address for registration (RATE_LIMIT_REQUESTS, REGISTRATION_RATE_LIMIT_REQUESTS).",
    schema: { type: "integer", minimum: 0 },
  },
  RateLimitRemaining: {
    description: "Requests left in the current window.",
    schema: { type: "integer", minimum: 0 },
  },
  RateLimitReset: {
    description: "Seconds until the window resets.",
    schema: { type: "integer", minimum: 0 },
  },
  RetryAfter: {
    description: "Seconds to wait before retrying (429: the rate-limit or mail window; 503: a short pause).",
    schema: { type: "integer", minimum: 0 },
  },
  IdempotentReplayed: {
    description:
      "`true` when this response replays the result of an earlier request with the same idempotency key (status 200 instead of 201); absent otherwise.",
    schema: { type: "string", enum: ["true"] },
  },
};

const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": "RateLimitLimit",
  "RateLimit-Remaining": "RateLimitRemaining",
  "RateLimit-Reset": "RateLimitReset",
};

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pascal(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (!isObject(value)) return JSON.stringify(value);
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
    .join(",")}}`;
}

/** Every schema node of `value`, replaced where `replace` returns a node (deep, copy on write). */
function mapSchemas(value: unknown, replace: (node: Json) => Json | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => mapSchemas(item, replace));
  if (!isObject(value)) return value;
  const replaced = replace(value);
  const node = replaced ?? value;
  const out: Json = {};
  for (const [key, child] of Object.entries(node)) {
    out[key] = key === "enum" || key === "const" || key === "examples" || key === "example" ? child : mapSchemas(child, replace);
  }
  return out;
}

interface Operation extends Json {
  operationId?: string;
  parameters?: Json[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses?: Record<string, Json & { content?: Record<string, { schema?: Json }>; headers?: Json }>;
}

/** On an operation (set from the route's config): its requests are not rate limited, so no RateLimit-* headers. */
export const NOT_RATE_LIMITED = "x-not-rate-limited";

export interface FinishOptions {
  /** Examples by component name, published as the component schema's `examples`. */
  readonly examples?: Readonly<Record<string, unknown>>;
}

export function finishOpenApiDocument<T extends Json>(input: T, options: FinishOptions = {}): T {
  const doc = structuredClone(input) as Json & { paths?: Record<string, Record<string, Operation>>; components?: Json };
  doc.components ??= {};
  const components = doc.components as Json & { schemas?: Record<string, Json>; headers?: Json };
  components.schemas ??= {};
  const schemas = components.schemas;
  components.headers = { ...(components.headers as Json | undefined), ...structuredClone(RESPONSE_HEADERS) };

  const hoist = (schema: Json, fallbackName: string, responseDescription?: unknown): Json => {
    if (typeof schema.$ref === "string") return schema;
    const { [COMPONENT_NAME]: marked, ...rest } = schema;
    // routeResponses gives a success schema the response's description ("Created."); it describes the
    // response, not the shape, and would make the 200 and 201 of one shape two components.
    if (responseDescription !== undefined && rest.description === responseDescription) delete rest.description;
    const name = typeof marked === "string" ? marked : fallbackName;
    const existing = schemas[name];
    if (existing === undefined) schemas[name] = rest;
    else if (canonical(existing) !== canonical(rest)) {
      throw new Error(`OpenAPI: two different schemas want the component name ${name}`);
    }
    return { $ref: `${SCHEMAS}${name}` };
  };

  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (op === undefined) continue;
      const base = pascal(op.operationId ?? `${method}${path.replace(/[^A-Za-z0-9]+/g, "_")}`);

      for (const parameter of op.parameters ?? []) {
        const schema = parameter.schema as Json | undefined;
        if (schema?.[DOCUMENTED_REQUIRED] === true) {
          parameter.required = true;
          delete schema[DOCUMENTED_REQUIRED];
        }
      }

      const body = op.requestBody;
      for (const media of Object.values(body?.content ?? {})) {
        if (media.schema === undefined) continue;
        // A body that may be JSON null (or left out) is optional: document the object it may be.
        const branches = media.schema.anyOf;
        if (Array.isArray(branches) && branches.some((b) => isObject(b) && b.type === "null")) {
          const objects = branches.filter((b) => !(isObject(b) && b.type === "null")) as Json[];
          if (body !== undefined) body.required = false;
          const { anyOf: _anyOf, ...outer } = media.schema;
          media.schema = objects.length === 1 ? { ...objects[0], ...outer } : { ...outer, anyOf: objects };
        }
        media.schema = hoist(media.schema, `${base}Request`);
      }

      const errorCodes = (op[ERROR_CODES_KEYWORD] ?? {}) as Record<string, string[]>;
      delete op[ERROR_CODES_KEYWORD];
      const idempotent = (op.parameters ?? []).some((p) => String(p.name).toLowerCase() === "idempotency-key");
      const limited = op[NOT_RATE_LIMITED] !== true;
      delete op[NOT_RATE_LIMITED];
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const code = Number(status);
        const headers: Json = { "X-Request-Id": { $ref: `${HEADERS}XRequestId` } };
        if (limited && code !== 401) {
          for (const [name, ref] of Object.entries(RATE_LIMIT_HEADERS)) headers[name] = { $ref: `${HEADERS}${ref}` };
        }
        if (code === 429 || code === 503) headers["Retry-After"] = { $ref: `${HEADERS}RetryAfter` };
        if (idempotent && code === 200) headers["Idempotent-Replayed"] = { $ref: `${HEADERS}IdempotentReplayed` };
        response.headers = { ...headers, ...(response.headers ?? {}) };
        if (code >= 400) {
          const codes = errorCodes[status];
          if (codes !== undefined) response[ERROR_CODES_KEYWORD] = codes;
          continue;
        }
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (media.schema === undefined || type !== "application/json") continue;
          const successes = Object.keys(op.responses ?? {}).filter((s) => Number(s) < 300 && op.responses?.[s]?.content);
          const fallback = successes.length > 1 ? `${base}Response${status}` : `${base}Response`;
          media.schema = hoist(media.schema, fallback, response.description);
        }
      }
    }
  }

  for (const [name, example] of Object.entries(options.examples ?? {})) {
    const schema = schemas[name];
    if (schema !== undefined) schema.examples = [structuredClone(example)];
  }

  // Schemas documented as a component (rows validated one by one) become references to it.
  const finished = mapSchemas(doc, (node) => {
    const target = node[DOCUMENTED_AS];
    if (typeof target !== "string") return undefined;
    const description = node.description === undefined ? {} : { description: node.description };
    const ref = { $ref: `${SCHEMAS}${target}` };
    const nullable = Array.isArray(node.type) && node.type.includes("null");
    return nullable ? { ...description, anyOf: [ref, { type: "null" }] } : { ...description, ...ref };
  }) as T;
  return finished;
}
