// Request bodies are JSON in UTF-8 and nothing else. An empty JSON body (common on DELETE from some clients)
// is treated as no body rather than a parse error; prototype-poisoning keys are refused. The bytes are
// decoded strictly (invalid UTF-8 is refused, not replaced), and every string of the parsed value, keys
// included, passes the text rule of text-input.ts, so a NUL or an unpaired surrogate is a 400 naming the
// field instead of a database error.
import type { FastifyRequest } from "fastify";
import secureJsonParse from "secure-json-parse";
import { AppError } from "../errors.js";
import { decodeUtf8, findTextProblems } from "./text-input.js";
import type { AppInstance } from "./types.js";

/**
 * Refuses what the service would otherwise misread: a charset other than UTF-8 (JSON is UTF-8, RFC 8259) and
 * any Content-Encoding other than identity. Compressed bodies are refused rather than inflated: the body
 * limit would then bound the compressed size only, and no client of this API needs compression on upload.
 */
export function checkBodyEncoding(request: FastifyRequest): void {
  const encoding = request.headers["content-encoding"];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== "identity" && encoding.trim() !== "") {
    throw new AppError("unsupported_media_type", {
      message: `Content-Encoding ${JSON.stringify(encoding)} is not supported: send the body uncompressed.`,
    });
  }
  const charset = charsetOf(request.headers["content-type"] ?? "");
  if (charset !== null && charset !== "utf-8" && charset !== "utf8") {
    throw new AppError("unsupported_media_type", {
      message: `charset=${charset} is not supported: send the body as UTF-8 (or omit charset).`,
    });
  }
}

/** The charset parameter of a Content-Type, lower-cased and unquoted; null when absent. */
function charsetOf(contentType: string): string | null {
  for (const parameter of contentType.split(";").slice(1)) {
    const eq = parameter.indexOf("=");
    if (eq === -1) continue;
    if (parameter.slice(0, eq).trim().toLowerCase() !== "charset") continue;
    return parameter
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase();
  }
  return null;
}

/**
 * Words for a body secure-json-parse refused: valid JSON holding `__proto__` (or `constructor.prototype`) is not
 * "not valid JSON", it is a key refused on purpose, and the caller must learn which and what to do.
 */
function jsonRefusal(error: unknown): string {
  const reason = error instanceof Error ? error.message : "";
  if (reason.includes("forbidden prototype property")) {
    return 'The body is valid JSON but holds a "__proto__" key, which is refused (it could alter object prototypes): remove or rename that key.';
  }
  if (reason.includes("forbidden constructor property")) {
    return 'The body is valid JSON but holds a "constructor" key with a "prototype" inside, which is refused (it could alter object prototypes): remove or rename that key.';
  }
  return "The body is not valid JSON: check it with a JSON validator (quotes, commas and brackets).";
}

export function installJsonBodyParsing(app: AppInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    try {
      checkBodyEncoding(request);
      const text = typeof body === "string" ? body : decodeUtf8(body);
      if (text === null) {
        throw new AppError("bad_request", { message: "The body is not valid UTF-8." });
      }
      if (text.trim() === "") {
        done(null, undefined);
        return;
      }
      let parsed: unknown;
      try {
        parsed = secureJsonParse.parse(text, null, { protoAction: "error", constructorAction: "error" });
      } catch (error) {
        throw new AppError("bad_request", { message: jsonRefusal(error) });
      }
      const details = findTextProblems(parsed, { singleLine: false });
      if (details.length > 0) throw new AppError("validation_failed", { details });
      done(null, parsed);
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
