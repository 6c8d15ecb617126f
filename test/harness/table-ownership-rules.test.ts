// The table-ownership rules of `npm run layers` fail on a module that reads another module's tables, whether
// through Drizzle (an import of the owner's <m>.schema.ts, caught by dependency-cruiser) or as SQL text (caught
// by scripts/check-table-ownership.mjs), and pass when it asks the owner's shared queries instead. Each case
// runs the real configuration and script on a small scratch tree of modules. (No database: it sits here rather
// than in the unit project because dependency-cruiser takes a second to load.)
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { cruise } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { afterEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, "../..");
const depcruiseConfig = path.join(repo, ".dependency-cruiser.cjs");
const ownershipScript = path.join(repo, "scripts/check-table-ownership.mjs");

let scratch: string | null = null;
afterEach(async () => {
  if (scratch !== null) await rm(scratch, { recursive: true, force: true });
  scratch = null;
});

/** A scratch tree: payouts owns `payouts`; rail-simulator's repo is the file under test. */
async function tree(railSimulatorRepo: string): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "ownership-"));
  scratch = root;
  const files: Record<string, string> = {
    "tsconfig.json": JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true } }),
    "package.json": JSON.stringify({ type: "module" }),
    "src/modules/payouts/payouts.schema.ts":
      'export const payouts = pgTable("payouts", {});\ndeclare function pgTable(n: string, c: object): object;\n',
    "src/modules/payouts/payouts.shared.ts":
      'import { payouts } from "./payouts.schema.js";\nexport const findPayoutEnvironment = () => payouts;\n',
    "src/modules/payouts/index.ts": 'export { findPayoutEnvironment } from "./payouts.shared.js";\n',
    "src/modules/rail-simulator/rail-simulator.repo.ts": railSimulatorRepo,
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
  return root;
}

/**
 * `depcruise src --config .dependency-cruiser.cjs` run in `root`, through dependency-cruiser's API in this process
 * rather than its CLI in a new one (a start cost about a second of CPU): the same configuration file, with what
 * the CLI takes from its working directory (the folder cruised from and its tsconfig.json) pointed at `root`, and
 * the CLI's default report and exit code (the number of errors).
 */
async function dependencyRules(root: string): Promise<{ ok: boolean; output: string }> {
  const tsConfigFile = path.join(root, "tsconfig.json");
  const options = await extractDepcruiseOptions(depcruiseConfig);
  const result = await cruise(
    ["src"],
    { ...options, baseDir: root, tsConfig: { fileName: tsConfigFile }, outputType: "err" },
    {},
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
  return { ok: result.exitCode === 0, output: String(result.output) };
}

/** Both checks of `npm run layers`, or only the raw-SQL one (dependency-cruiser takes a second to load). */
async function layers(root: string, checks: "both" | "sql-text" = "both"): Promise<{ ok: boolean; output: string }> {
  const a = checks === "both" ? await dependencyRules(root) : { ok: true, output: "" };
  try {
    const b = await run(process.execPath, [ownershipScript, root], { cwd: root });
    return { ok: a.ok, output: a.output + b.stdout };
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${a.output}${failure.stdout ?? ""}${failure.stderr ?? ""}` };
  }
}

describe("table ownership (npm run layers)", () => {
  it("refuses a module that queries another module's table through Drizzle", async () => {
    const root = await tree('import { payouts } from "../payouts/payouts.schema.js";\nexport const read = () => payouts;\n');
    const result = await layers(root);
    expect(result.ok).toBe(false);
    expect(result.output).toContain("tables-belong-to-their-module");
  });

  it("refuses a module that names another module's table in SQL text", async () => {
    const root = await tree("export const read = `select environment from payouts where id = $1`;\n");
    const result = await layers(root, "sql-text");
    expect(result.ok).toBe(false);
    expect(result.output).toContain("names table payouts, owned by module payouts");
  });

  it("accepts a module that asks the owner's shared queries", async () => {
    const root = await tree(
      'import { findPayoutEnvironment } from "../payouts/payouts.shared.js";\nexport const read = findPayoutEnvironment;\n',
    );
    const result = await layers(root);
    expect(result.output).not.toContain("error");
    expect(result.ok).toBe(true);
  });

  it("lets only business-profile update the platform's businesses table, and only registration insert into it", async () => {
    const root = await tree("export const read = () => null;\n");
    const write = async (name: string, text: string) => {
      await mkdir(path.dirname(path.join(root, name)), { recursive: true });
      await writeFile(path.join(root, name), text);
    };
    await write(
      "src/modules/business-profile/business-profile.repo.ts",
      "export const f = (tx: any, b: any) => tx.update(b);\nconst s = `update businesses set name = $1`;\n",
    );
    await write("src/modules/registration/registration.repo.ts", "export const f = (tx: any) => tx.insert(businesses);\n");
    expect((await layers(root, "sql-text")).ok).toBe(true);

    await write("src/modules/people/people.repo.ts", "export const f = (tx: any) => tx.update(businesses).set({});\n");
    await write("src/modules/collection/collection.repo.ts", 'export const s = `insert into "businesses" (id) values ($1)`;\n');
    await write("src/modules/business-profile/business-profile.shared.ts", "export const s = `delete from businesses`;\n");
    const result = await layers(root, "sql-text");
    expect(result.ok).toBe(false);
    expect(result.output).toContain("people.repo.ts:1: update on table businesses: only module business-profile does that");
    expect(result.output).toContain("collection.repo.ts:1: insert on table businesses: only module registration does that");
    expect(result.output).toContain("business-profile.shared.ts:1: delete on table businesses: nothing deletes it");
  });
});
