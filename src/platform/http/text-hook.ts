// The text rule (text-input.ts) for the parts of a request that are not a JSON body: the query string (read
// from the raw URL, so bytes that are not UTF-8 are refused instead of replaced), the path parameters, and
// the headers a route declares in its schema. Declared headers are re-decoded as UTF-8 before validation:
// Node reads header bytes as Latin-1, and a key must be the same text in a header as in a JSON body.
import { AppError, type ErrorDetail } from "../errors.js";
import { decodeHeaderUtf8, findQueryProblems, findTextProblems, printable, textProblem } from "./text-input.js";
import type { AppInstance } from "./types.js";

function declaredHeaders(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties === undefined ? [] : Object.keys(properties).map((name) => name.toLowerCase());
}

export function installRequestTextChecks(app: AppInstance): void {
  app.addHook("preValidation", async (request) => {
    const params = findTextProblems(request.params ?? {}, { singleLine: true });
    const first = params[0];
    if (first !== undefined) {
      throw new AppError("bad_request", {
        message: `Path parameter ${first.field} is malformed: ${first.message}`,
        details: params,
      });
    }
    const url = request.raw.url ?? "";
    const queryStart = url.indexOf("?");
    const details: ErrorDetail[] = queryStart === -1 ? [] : findQueryProblems(url.slice(queryStart + 1));
    for (const name of declaredHeaders(request.routeOptions.schema?.headers)) {
      const raw = request.headers[name];
      if (typeof raw !== "string") continue;
      const decoded = decodeHeaderUtf8(raw);
      if (decoded === null) {
        details.push({ field: name, code: "invalid_encoding", message: "The header value is not valid UTF-8." });
        continue;
      }
      const problem = textProblem(decoded, true);
      if (problem !== null) details.push({ field: printable(name), ...problem });
      else request.headers[name] = decoded;
    }
    if (details.length > 0) throw new AppError("validation_failed", { details });
  });
}
