import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/platform/logger.js";

function capture() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { logger: createLogger("info", sink), lines };
}

describe("logger", () => {
  it("drops the values of a failed statement from logged database errors", () => {
    const { logger, lines } = capture();
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: "23505",
      detail: "Key (email)=(jane@example.com) already exists.",
    });
    const queryError = Object.assign(
      new Error(
        'Failed query: insert into "users" values ($1, $2)\nparams: jane@example.com,scrypt$32768$8$1$c2FsdA==$aGFzaA==',
        {
          cause: driverError,
        },
      ),
      { params: ["jane@example.com", "scrypt$32768$8$1$c2FsdA==$aGFzaA=="] },
    );
    logger.error({ err: queryError }, "unhandled error");
    const text = lines.join("");
    expect(text).toContain("Failed query");
    expect(text).toContain("users_email_key");
    expect(text).not.toContain("jane@example.com");
    expect(text).not.toContain("scrypt$");
  });

  it("redacts credentials wherever they appear in a log object", () => {
    const { logger, lines } = capture();
    logger.info(
      {
        req: { headers: { authorization: "Bearer pok_sandbox_x_y" } },
        body: { password: "hunter2hunter2", iban: "DE89370400440532013000" },
        secret: "whsec_x",
      },
      "something",
    );
    const text = lines.join("");
    for (const value of ["pok_sandbox_x_y", "hunter2hunter2", "DE89370400440532013000", "whsec_x"])
      expect(text).not.toContain(value);
    expect(text).toContain("[redacted]");
  });

  it("censors sensitive keys at any depth and in arrays, in any letter case", () => {
    const { logger, lines } = capture();
    logger.info(
      { a: { b: { c: { d: { Token: "tok_deep_secret" } } } }, list: [{ account_number: "000123456789" }], fine: "visible" },
      "nested",
    );
    const text = lines.join("");
    expect(text).not.toContain("tok_deep_secret");
    expect(text).not.toContain("000123456789");
    expect(text).toContain("visible");
  });
});
