// A module's ports (src/modules/<m>/<m>.ports.ts) are what it needs from other modules: every one is required,
// so a module cannot be built with a money-path dependency missing and silently do nothing without it. Checked
// with the TypeScript compiler: no property of an exported port interface may be optional (`?`) or admit
// `undefined`, however its type is spelled (an indexed access into an optional field counts).
import { readdirSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const modulesDir = path.join(root, "src/modules");

function portFiles(): string[] {
  return readdirSync(modulesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) =>
      readdirSync(path.join(modulesDir, entry.name))
        .filter((file) => file.endsWith(".ports.ts"))
        .map((file) => path.join(modulesDir, entry.name, file)),
    );
}

function compilerOptions(): ts.CompilerOptions {
  const configPath = path.join(root, "tsconfig.json");
  const read = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root);
  return { ...parsed.options, noEmit: true };
}

/** "<file>: <Interface>.<port>" for every port property that is optional or admits undefined. */
function optionalPorts(files: readonly string[]): string[] {
  const program = ts.createProgram(files, compilerOptions());
  const checker = program.getTypeChecker();
  const problems: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error(`not compiled: ${file}`);
    for (const statement of source.statements) {
      if (!ts.isInterfaceDeclaration(statement) && !ts.isTypeAliasDeclaration(statement)) continue;
      const exported = statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ?? false;
      if (!exported) continue;
      const type = checker.getTypeAtLocation(statement.name);
      for (const property of checker.getPropertiesOfType(type)) {
        const propertyType = checker.getTypeOfSymbol(property);
        const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
        const admitsUndefined =
          (propertyType.flags & ts.TypeFlags.Undefined) !== 0 ||
          (propertyType.isUnion() && propertyType.types.some((member) => (member.flags & ts.TypeFlags.Undefined) !== 0));
        if (optional || admitsUndefined) {
          problems.push(`${path.relative(root, file)}: ${statement.name.text}.${property.name}`);
        }
      }
    }
  }
  return problems;
}

describe("module ports", () => {
  it("every module with cross-module needs declares them in a ports file", () => {
    const files = portFiles().map((file) => path.relative(root, file));
    expect(files.length).toBeGreaterThanOrEqual(10);
    expect(files).toContain("src/modules/payouts/payouts.ports.ts");
    expect(files).toContain("src/modules/bank-rails/bank-rails.ports.ts");
  });

  // Compiling the ports and what they import takes a while on a loaded machine.
  it("no port is optional or admits undefined", { timeout: 240_000 }, () => {
    expect(optionalPorts(portFiles())).toEqual([]);
  });
});
