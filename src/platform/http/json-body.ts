// Request bodies are JSON and nothing else. An empty JSON body (common on DELETE from some clients) is
// treated as no body rather than a parse error; prototype-poisoning keys are refused.
import secureJsonParse from "secure-json-parse";
import { AppError } from "../errors.js";
import type { AppInstance } from "./types.js";

export function installJsonBodyParsing(app: AppInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    try {
      done(null, secureJsonParse.parse(text, null, { protoAction: "error", constructorAction: "error" }));
    } catch {
      done(new AppError("bad_request", { message: "The body is not valid JSON." }), undefined);
    }
  });
}
