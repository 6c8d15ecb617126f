// The platform knows nothing of the modules (issue 26): no file of src/platform imports a module (also a
// dependency-cruiser rule), holds a module's error code (as a string or a table key) or names a module's /v1
// route as a route (a string that is a whole route, as a table of routes would). Prose about the API, in
// comments or descriptions, is not a route table and is not checked. What the platform owns: its own codes
// (PLATFORM_ERRORS) and its own routes (the docs routes).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(suffix))
    .map((name) => path.join(dir, name));
}

/**
 * Every code a module declares in its <m>.errors.ts (the keys of its defineErrorCodes tables), and the bank-file
 * refusals the bank-rails module contributes from src/rails/bank-files/refusals.ts.
 */
function moduleErrorCodes(): Set<string> {
  const codes = new Set<string>();
  const files = [
    ...filesUnder(path.join(ROOT, "src/modules"), ".errors.ts"),
    path.join(ROOT, "src/rails/bank-files/refusals.ts"),
  ];
  for (const file of files) {
    for (const match of readFileSync(file, "utf8").matchAll(/^ {2,4}([A-Za-z_]+): \{$/gm)) codes.add(match[1] ?? "");
  }
  return codes;
}

const ROUTE = /^((GET|HEAD|POST|PUT|PATCH|DELETE) )?\/v1\/\S+$/;
// The routes the platform registers itself (docs-routes.ts), as route keys and as paths. Written out here rather
// than read from PLATFORM_ROUTE_ROLES, so a module's route moved into the platform's table is noticed.
const PLATFORM_ROUTES = new Set(["GET /v1/openapi.json", "/v1/openapi.json"]);

/** What a platform file says that names a module: imports of src/modules, module error codes, module routes. */
function moduleNamesIn(fileName: string, text: string, moduleCodes: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const at = (node: ts.Node) =>
    `${path.relative(ROOT, fileName)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined) {
      const specifier = (node.moduleSpecifier as ts.StringLiteral).text;
      if (/(^|\/)modules\//.test(specifier)) found.push(`${at(node)} imports ${specifier}`);
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (moduleCodes.has(node.text)) found.push(`${at(node)} names the module error code ${node.text}`);
      else if (ROUTE.test(node.text) && !PLATFORM_ROUTES.has(node.text))
        found.push(`${at(node)} names the module route ${node.text}`);
    } else if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && moduleCodes.has(node.name.text)) {
      found.push(`${at(node)} declares the module error code ${node.name.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the platform knows no module", () => {
  const moduleCodes = moduleErrorCodes();

  it("finds the modules' error codes to look for", () => {
    expect(moduleCodes.size).toBeGreaterThan(50);
    expect(moduleCodes).toContain("PAYOUT_NOT_CANCELABLE");
    expect(moduleCodes).not.toContain("not_found");
  });

  it("no file of src/platform imports a module, holds a module's error code or names a module's route", () => {
    const found = filesUnder(path.join(ROOT, "src/platform"), ".ts").flatMap((file) =>
      moduleNamesIn(file, readFileSync(file, "utf8"), moduleCodes),
    );
    expect(found).toEqual([]);
  });

  it("would notice each of the three (the check itself)", () => {
    const file = path.join(ROOT, "src/platform/example.ts");
    const text = [
      'import { PAYOUT_ERRORS } from "../modules/payouts/payouts.errors.js";',
      "export const CODES = { PAYOUT_NOT_CANCELABLE: { status: 409 } };",
      'export const thrown = "SEPA_BIC_REQUIRED";',
      'export const TABLE = { "POST /v1/payouts": 1 };',
      'export const path = "/v1/bank-rails/sepa";',
      "// Prose may name them: POST /v1/payouts answers PAYOUT_NOT_CANCELABLE.",
      'export const owned = ["GET /v1/openapi.json", "/v1/openapi.json", "not_found", `see POST /v1/session`];',
    ].join("\n");
    expect(moduleNamesIn(file, text, moduleCodes)).toEqual([
      "src/platform/example.ts:1 imports ../modules/payouts/payouts.errors.js",
      "src/platform/example.ts:2 declares the module error code PAYOUT_NOT_CANCELABLE",
      "src/platform/example.ts:3 names the module error code SEPA_BIC_REQUIRED",
      "src/platform/example.ts:4 names the module route POST /v1/payouts",
      "src/platform/example.ts:5 names the module route /v1/bank-rails/sepa",
    ]);
  });
});
