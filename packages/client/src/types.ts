// Types of a call, derived from the generated OpenAPI types: one input and one result type per operation.
import type { ListOperations, OperationId } from "./generated/operations.js";
import type { components, operations } from "./generated/schema.js";

export type Schemas = components["schemas"];
export type ErrorEnvelope = Schemas["ErrorEnvelope"];

type Op<K extends OperationId> = operations[K];
type Params<K extends OperationId> = Op<K> extends { parameters: infer P } ? P : never;

type Present<T> = [T] extends [undefined] ? false : [T] extends [never] ? false : true;
type Field<Name extends string, T, Optional extends boolean> =
  Present<T> extends false ? unknown : Optional extends true ? { [N in Name]?: T } : { [N in Name]: T };
type AllOptional<T> = Record<string, never> extends T ? true : false;

type PathOf<K extends OperationId> = Exclude<Params<K> extends { path?: infer P } ? P : never, undefined>;
type QueryOf<K extends OperationId> = Exclude<Params<K> extends { query?: infer Q } ? Q : never, undefined>;
type RequestBody<K extends OperationId> = NonNullable<Op<K> extends { requestBody?: infer R } ? R : never>;
type BodyOf<K extends OperationId> = [RequestBody<K>] extends [never]
  ? never
  : RequestBody<K> extends { content: { "application/json": infer B } }
    ? B
    : RequestBody<K> extends { content: Record<string, string> }
      ? string
      : never;
/** Whether the operation's body may be left out (its requestBody is not required). */
type BodyOptional<K extends OperationId> = Op<K> extends { requestBody: unknown } ? false : true;

/**
 * What a method takes: `path` (path parameters), `query`, `body`, as the OpenAPI document names them.
 * The Idempotency-Key header is filled by the client (pass `idempotencyKey` in the options to choose it).
 */
export type OperationInput<K extends OperationId> = Field<"path", PathOf<K>, AllOptional<PathOf<K>>> &
  Field<"query", QueryOf<K>, AllOptional<QueryOf<K>>> &
  Field<"body", BodyOf<K>, BodyOptional<K>>;

type SuccessStatus = 200 | 201 | 202;
type JsonOf<R> = R extends { content: { "application/json": infer J } } ? J : never;
type TextOf<R> = R extends { content: Record<string, unknown> } ? string : never;
type Responses<K extends OperationId> = Op<K>["responses"];

/** What a method resolves to: the parsed JSON body, the text of a non-JSON body, or undefined for 204. */
export type OperationResult<K extends OperationId> = [JsonOf<Responses<K>[keyof Responses<K> & SuccessStatus]>] extends [never]
  ? [TextOf<Responses<K>[keyof Responses<K> & SuccessStatus]>] extends [never]
    ? undefined
    : string
  : JsonOf<Responses<K>[keyof Responses<K> & SuccessStatus]>;

export type ListOperationId = keyof ListOperations & OperationId;
/** One element of the list an operation pages through. */
export type ListItem<K extends ListOperationId> =
  OperationResult<K> extends Record<ListOperations[K], infer Items>
    ? Items extends readonly (infer Item)[]
      ? Item
      : never
    : never;

/** Whether a call can be made with no input at all. */
export type InputIsOptional<K extends OperationId> = Record<string, never> extends OperationInput<K> ? true : false;
