import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { ajvErrorsToDetails, toFieldPath } from "../../src/platform/http/validation.js";

describe("validation details", () => {
  it("turns JSON pointers into readable field paths", () => {
    expect(toFieldPath("")).toBe("");
    expect(toFieldPath("/email")).toBe("email");
    expect(toFieldPath("/rows/3/bank", "iban")).toBe("rows[3].bank.iban");
    expect(toFieldPath("/a~1b")).toBe("a/b");
  });

  it("maps Ajv keywords onto the stable detail codes", () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile({
      type: "object",
      additionalProperties: false,
      required: ["name", "role"],
      properties: {
        name: { type: "string", maxLength: 3 },
        role: { anyOf: [{ const: "a" }, { const: "b" }] },
        count: { type: "integer", minimum: 1 },
        tags: { type: "array", maxItems: 1 },
      },
    });
    validate({ name: "long", role: "c", count: 0, tags: [1, 2], extra: true });
    const details = ajvErrorsToDetails(validate.errors ?? []);
    const byField = Object.fromEntries(details.map((d) => [d.field, d.code]));
    expect(byField).toEqual({
      extra: "unknown_field",
      name: "too_long",
      role: "invalid_enum",
      count: "out_of_range",
      tags: "too_many_items",
    });
    expect(details.find((d) => d.field === "role")?.message).toContain("a, b");

    validate({});
    expect(ajvErrorsToDetails(validate.errors ?? []).map((d) => `${d.field}:${d.code}`)).toEqual([
      "name:required",
      "role:required",
    ]);
  });
});
