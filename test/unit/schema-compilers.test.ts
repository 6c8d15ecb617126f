// The memo of compiled validators and serializers (src/platform/http/schema-compilers.ts) that the apps of a
// test worker share: a compiled function is reused only for the same schema content in the same context, and
// the request part still decides strict or coercing validation.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { createSchemaCompilers } from "../../src/platform/http/schema-compilers.js";

const route = { method: "GET", url: "/things", httpStatus: "200" };

describe("schema compilers", () => {
  it("reuses a serializer for equal schema content and compiles another for different content", () => {
    const compilers = createSchemaCompilers();
    const first = compilers.buildSerializer({}, {})({ ...route, schema: Type.Object({ id: Type.String() }) });
    // Another app: new schema objects with the same content.
    const again = compilers.buildSerializer({}, {})({ ...route, schema: Type.Object({ id: Type.String() }) });
    const other = compilers.buildSerializer({}, {})({ ...route, schema: Type.Object({ name: Type.String() }) });
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    // Response schemas list the safe fields: anything else is not serialized.
    expect(JSON.parse(first({ id: "a", secret: "s" }))).toEqual({ id: "a" });
    expect(JSON.parse(other({ id: "a", name: "n" }))).toEqual({ name: "n" });
  });

  it("keys a serializer by the shared schemas it may reference", () => {
    const compilers = createSchemaCompilers();
    const shared = (extra: boolean) => ({
      Thing: Type.Object(extra ? { id: Type.String(), label: Type.String() } : { id: Type.String() }, { $id: "Thing" }),
    });
    const schema = Type.Object({ thing: Type.Ref("Thing") });
    const narrow = compilers.buildSerializer(shared(false), {})({ ...route, schema });
    const wide = compilers.buildSerializer(shared(true), {})({ ...route, schema });
    expect(wide).not.toBe(narrow);
    expect(JSON.parse(narrow({ thing: { id: "a", label: "l" } }))).toEqual({ thing: { id: "a" } });
    expect(JSON.parse(wide({ thing: { id: "a", label: "l" } }))).toEqual({ thing: { id: "a", label: "l" } });
  });

  it("reuses a context's serializers whether it comes again as the same stored schemas or as equal ones", () => {
    const compilers = createSchemaCompilers();
    const stored = (label: boolean) =>
      Type.Object(label ? { id: Type.String(), label: Type.String() } : { id: Type.String() }, { $id: "Thing" });
    const schema = Type.Object({ thing: Type.Ref("Thing") });
    const narrowStore = { Thing: stored(false) };
    const serialize = (store: Record<string, unknown>) =>
      // Fastify hands every context a new object holding the stored schemas.
      compilers.buildSerializer({ ...store }, undefined)({ ...route, schema });
    const narrow = serialize(narrowStore);
    expect(serialize(narrowStore)).toBe(narrow);
    const wide = serialize({ Thing: stored(true) });
    expect(wide).not.toBe(narrow);
    expect(serialize(narrowStore)).toBe(narrow);
    // Another app: its own clones, the same content.
    expect(serialize({ Thing: stored(false) })).toBe(narrow);
    expect(JSON.parse(serialize(narrowStore)({ thing: { id: "a", label: "l" } }))).toEqual({ thing: { id: "a" } });
  });

  it("validates a body strictly and the other parts with coercion, for the same schema", () => {
    const compilers = createSchemaCompilers();
    const schema = Type.Object({ count: Type.Integer() });
    const compile = compilers.validatorCompiler([]);
    const body = compile({ schema, method: "POST", url: "/things", httpPart: "body" });
    const query = compile({ schema, method: "GET", url: "/things", httpPart: "querystring" });
    expect(body).not.toBe(query);
    expect(body({ count: "12" })).toHaveProperty("error");
    expect(query({ count: "12" })).toEqual({ value: { count: 12 } });
    // A second app with the same shared schemas gets the same compiled validator.
    expect(compilers.validatorCompiler([])({ schema, method: "POST", url: "/things", httpPart: "body" })).toBe(body);
  });
});
