// The error-code table is assembled from what the platform and the modules contribute: each entry knows its
// code, a code declared twice stops the start, an AppError is answered from its code's definition, and a route
// may declare only codes the assembled table holds, under their status.
import { Type } from "@sinclair/typebox";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { AppError, assembleErrorCodes, defineErrorCodes, type ErrorCodeRef, PLATFORM_ERRORS } from "../../src/platform/errors.js";
import { ActorSchema, ErrorDetailSchema, ErrorEnvelopeSchema } from "../../src/platform/http/envelope.js";
import { installDeclaredErrorCodeCheck, routeResponses } from "../../src/platform/http/route-responses.js";
import type { AppInstance } from "../../src/platform/http/types.js";

const WIDGET_ERRORS = defineErrorCodes({
  WIDGET_JAMMED: { status: 409, message: "The widget is jammed.", description: "Unjam it first." },
});

describe("error codes contributed by modules", () => {
  it("gives each entry its code, and an AppError its status and message from the definition", () => {
    expect(WIDGET_ERRORS.WIDGET_JAMMED.code).toBe("WIDGET_JAMMED");
    const error = new AppError(WIDGET_ERRORS.WIDGET_JAMMED);
    expect([error.code, error.status, error.message]).toEqual(["WIDGET_JAMMED", 409, "The widget is jammed."]);
    expect(error.is(WIDGET_ERRORS.WIDGET_JAMMED)).toBe(true);
    expect(error.is("not_found")).toBe(false);
    expect(new AppError("not_found", { message: "No widget." }).status).toBe(404);
  });

  it("assembles the platform's codes then the modules', refusing a code declared twice", () => {
    const table = assembleErrorCodes([PLATFORM_ERRORS, WIDGET_ERRORS]);
    expect(Object.keys(table).at(-1)).toBe("WIDGET_JAMMED");
    expect(table.not_found?.status).toBe(404);
    expect(() => assembleErrorCodes([PLATFORM_ERRORS, WIDGET_ERRORS, WIDGET_ERRORS])).toThrow(/WIDGET_JAMMED is declared twice/);
  });

  it("stops the start when a route declares a code the assembled table does not hold", async () => {
    const build = async (codes: readonly (readonly ErrorCodeRef[])[]) => {
      const app = Fastify() as unknown as AppInstance;
      for (const schema of [ActorSchema, ErrorDetailSchema, ErrorEnvelopeSchema]) app.addSchema(schema);
      installDeclaredErrorCodeCheck(app, assembleErrorCodes([PLATFORM_ERRORS]));
      for (const [index, routeCodes] of codes.entries()) {
        app.get(
          `/v1/widgets/${index}`,
          { schema: { response: routeResponses({ 200: Type.Object({}) }, { access: "read", codes: routeCodes }) } },
          async () => ({}),
        );
      }
      await app.ready();
      await app.close();
    };
    await expect(build([["not_found"]])).resolves.toBeUndefined();
    await expect(build([["not_found", WIDGET_ERRORS.WIDGET_JAMMED]])).rejects.toThrow(
      /declares error code WIDGET_JAMMED under 409, which the error-code table does not hold/,
    );
  });
});
