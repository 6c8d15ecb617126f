// The dashboard's mapping of the API's field names onto a form's fields (dashboard/src/hooks/api/form-paths.ts):
// a refusal's detail lands on the field it names, whichever way the API spelled it.
import { describe, expect, it } from "vitest";
import { fieldOf, formPath } from "../../dashboard/src/hooks/api/form-paths.js";

describe("formPath", () => {
  it("turns pointers, bracketed paths and plain names into a form's dotted path", () => {
    expect(formPath("/email")).toBe("email");
    expect(formPath("/body/email")).toBe("email");
    expect(formPath("email")).toBe("email");
    expect(formPath("rows[3].iban")).toBe("rows.3.iban");
    expect(formPath("rules[0].min_amount_minor")).toBe("rules.0.min_amount_minor");
    expect(formPath("/rules/0/amount")).toBe("rules.0.amount");
  });
});

describe("fieldOf", () => {
  const values = {
    email: "",
    logo: null,
    rules: [{ name: "", channels: { api: true, csv: true } }],
  };

  it("finds the field a detail names, in a list too", () => {
    expect(fieldOf(values, "/email")).toBe("email");
    expect(fieldOf(values, "/body/email")).toBe("email");
    expect(fieldOf(values, "rules[0].name")).toBe("rules.0.name");
  });

  it("gives a detail about a part of a field to the field", () => {
    expect(fieldOf(values, "logo.data")).toBe("logo");
    expect(fieldOf(values, "rules[0].channels.1")).toBe("rules.0.channels");
  });

  it("falls back on the last part, then gives up on a field the form does not have", () => {
    expect(fieldOf(values, "/user/email")).toBe("email");
    expect(fieldOf(values, "/business_name")).toBeUndefined();
    expect(fieldOf(values, "rules[4].name")).toBeUndefined();
  });

  it("follows aliases where the form names a field differently", () => {
    expect(fieldOf({ events: [] }, "/enabled_events", { enabled_events: "events" })).toBe("events");
  });
});
