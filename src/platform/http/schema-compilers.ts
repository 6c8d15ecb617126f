// The compiled request validators and response serializers of an app, memoised by schema content.
//
// Fastify compiles a serializer (fast-json-stringify: code generation plus a check of the schema against
// its meta-schema) for every status of every route, and Ajv a validator for every request part. Most of
// those schemas are the same content (every route answers its errors with the same envelope), and every
// app built in one process compiles the same routes again: building the app cost about 0.8-2 s of CPU,
// most of it here. A compiled function depends only on the schema, the shared `$id` schemas it may `$ref`
// and the compiler options, so it is memoised under exactly those, as JSON text (schemas are plain JSON;
// TypeBox's symbol keys mean nothing to either compiler). buildApp makes a fresh set per app unless it is
// given one; the test harness shares one across the apps of a worker process.
import SerializerSelector from "@fastify/fast-json-stringify-compiler";
import type { TSchema } from "@sinclair/typebox";
import type { FastifySchemaCompiler } from "fastify";
import { createValidatorCompiler } from "./validation.js";

type SerializerFactory = SerializerSelector.SerializerFactory;
type SerializerCompiler = SerializerSelector.SerializerCompiler;

export interface SchemaCompilers {
  /** Fastify's `schemaController.compilersFactory.buildSerializer`: Fastify's own compiler, memoised. */
  readonly buildSerializer: SerializerFactory;
  /** The request validator compiler (validation.ts) for an app whose `$id` schemas are `sharedSchemas`, memoised. */
  validatorCompiler(sharedSchemas: readonly TSchema[]): FastifySchemaCompiler<unknown>;
}

type Serializers = Map<string, SerializerSelector.Serializer>;

/** The shared schemas Fastify hands a context, as [id, schema] pairs. */
function entriesOf(externalSchemas: unknown): [string, unknown][] {
  return typeof externalSchemas === "object" && externalSchemas !== null ? Object.entries(externalSchemas) : [];
}

function sameEntries(a: readonly [string, unknown][], b: readonly [string, unknown][]): boolean {
  return a.length === b.length && a.every(([id, schema], i) => b[i]?.[0] === id && b[i]?.[1] === schema);
}

export function createSchemaCompilers(): SchemaCompilers {
  const buildDefaultSerializer = SerializerSelector();
  /** Per context (options and shared schemas, tens of kilobytes as JSON), the serializers by route schema. */
  const serializersByContext = new Map<string, Serializers>();
  const validatorCompilers = new Map<string, FastifySchemaCompiler<unknown>>();
  /** The context asked for last, by the identity of its parts. */
  let previous: { options: unknown; schemas: [string, unknown][]; serializers: Serializers } | null = null;

  /**
   * Fastify sets up a serializer once per encapsulated context, about 120 times in one app, each time with a new
   * object holding the same stored schemas: it clones a schema when it is added and does not change the clone
   * afterwards. The same options and the same schema objects in the same order therefore have the same text,
   * and only a context that differs from the previous one is turned into text (tens of kilobytes) and looked up.
   */
  function serializersOf(externalSchemas: unknown, serializerOpts: unknown): Serializers {
    const schemas = entriesOf(externalSchemas);
    if (previous !== null && previous.options === serializerOpts && sameEntries(previous.schemas, schemas)) {
      return previous.serializers;
    }
    const contextKey = JSON.stringify([serializerOpts ?? null, externalSchemas ?? null]);
    let serializers = serializersByContext.get(contextKey);
    if (serializers === undefined) {
      serializers = new Map();
      serializersByContext.set(contextKey, serializers);
    }
    previous = { options: serializerOpts, schemas, serializers };
    return serializers;
  }

  return {
    buildSerializer(externalSchemas, serializerOpts) {
      // Two levels rather than one key joining both: an app asks for about a thousand serializers in the same
      // context, and a joined key made each lookup hash the whole context text again.
      const inContext = serializersOf(externalSchemas, serializerOpts);
      let compile: SerializerCompiler | null = null;
      const memoised: SerializerCompiler = (routeSchema) => {
        const key = JSON.stringify(routeSchema.schema);
        let serializer = inContext.get(key);
        if (serializer === undefined) {
          compile ??= buildDefaultSerializer(externalSchemas, serializerOpts);
          serializer = compile(routeSchema);
          inContext.set(key, serializer);
        }
        return serializer;
      };
      return memoised;
    },

    validatorCompiler(sharedSchemas) {
      const sharedKey = JSON.stringify(sharedSchemas);
      let compiler = validatorCompilers.get(sharedKey);
      if (compiler === undefined) {
        const compile = createValidatorCompiler(sharedSchemas);
        const validators = new Map<string, ReturnType<FastifySchemaCompiler<unknown>>>();
        compiler = (routeSchema) => {
          // Bodies are validated strictly, the other parts with coercion: the part decides the compiler.
          const key = `${routeSchema.httpPart === "body" ? "body" : "coerced"}\n${JSON.stringify(routeSchema.schema)}`;
          let validate = validators.get(key);
          if (validate === undefined) {
            validate = compile(routeSchema);
            validators.set(key, validate);
          }
          return validate;
        };
        validatorCompilers.set(sharedKey, compiler);
      }
      return compiler;
    },
  };
}
