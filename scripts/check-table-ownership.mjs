#!/usr/bin/env node
// Part of `npm run layers`: the raw-SQL half of the table-ownership rule. dependency-cruiser (rule
// tables-belong-to-their-module) catches Drizzle queries on another module's tables, since they must import
// its <m>.schema.ts; this catches the same thing written as SQL text (`from payouts`, `update beneficiaries`,
// `insert into destinations`, `join memberships`), which imports nothing.
//
// A module's tables are those its src/modules/<m>/<m>.schema.ts declares with pgTable("<name>", ...). A file
// of module <m> (or outside the modules) naming another module's table after from/join/into/update fails.
// Platform tables (src/platform/**/*.schema.ts: jobs, events, rate limits) are not checked here, except the
// writers of `businesses`, the tenant root every table references (so the platform declares it): only the
// registration module inserts its rows and only the business-profile module updates them; nothing deletes
// them. Reads stay open to every module (a Business's name in memberships, e-mails and pages).
// Comment lines are skipped.
//
// Usage: node scripts/check-table-ownership.mjs [root]   (exit 1 and one line per violation)
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(process.argv[2] ?? ".");
const src = path.join(root, "src");

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.name.endsWith(".ts")) yield full;
  }
}

const moduleOf = (file) => {
  const match = /^src\/modules\/([^/]+)\//.exec(path.relative(root, file).split(path.sep).join("/"));
  return match === null ? null : match[1];
};

/** table name -> owning module */
const owner = new Map();
const files = [...walk(src)];
for (const file of files) {
  const module = moduleOf(file);
  if (module === null || !file.endsWith(".schema.ts")) continue;
  for (const match of readFileSync(file, "utf8").matchAll(/pgTable\(\s*"([a-z_][a-z0-9_]*)"/g)) owner.set(match[1], module);
}

if (owner.size === 0) {
  console.error("check-table-ownership: no module tables found under src/modules/*/*.schema.ts");
  process.exit(1);
}

const names = [...owner.keys()].join("|");
const reference = new RegExp(`\\b(?:from|join|into|update)\\s+"?(${names})"?(?![a-z0-9_"])`, "gi");

const violations = [];
for (const file of files) {
  if (file.endsWith(".schema.ts")) continue;
  const module = moduleOf(file);
  const lines = readFileSync(file, "utf8").split("\n");
  lines.forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed.startsWith("//") || trimmed.startsWith("*") || trimmed.startsWith("/*")) return;
    for (const match of line.matchAll(reference)) {
      const table = match[1].toLowerCase();
      const tableOwner = owner.get(table);
      if (tableOwner !== undefined && tableOwner !== module) {
        violations.push(
          `${path.relative(root, file)}:${index + 1}: SQL names table ${table}, owned by module ${tableOwner}: ask its <m>.shared.ts or index.ts for a named function`,
        );
      }
    }
  });
}

/** Platform tables whose writes belong to one module each: table -> { insert, update } owners. */
const PLATFORM_WRITERS = { businesses: { insert: "registration", update: "business-profile" } };
for (const file of files) {
  if (file.endsWith(".schema.ts")) continue;
  const module = moduleOf(file);
  const lines = readFileSync(file, "utf8").split("\n");
  lines.forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed.startsWith("//") || trimmed.startsWith("*") || trimmed.startsWith("/*")) return;
    for (const [table, writers] of Object.entries(PLATFORM_WRITERS)) {
      // Drizzle (`tx.update(businesses)`) or SQL text (`update businesses`, `insert into "businesses"`).
      const write = new RegExp(
        `\\.(insert|update|delete)\\(\\s*${table}\\s*\\)|\\b(insert\\s+into|update|delete\\s+from)\\s+"?${table}"?(?![a-z0-9_"])`,
        "gi",
      );
      for (const match of line.matchAll(write)) {
        const verb = (match[1] ?? match[2]).toLowerCase().split(/\s+/)[0];
        const allowed = writers[verb];
        if (allowed !== module) {
          violations.push(
            `${path.relative(root, file)}:${index + 1}: ${verb} on table ${table}: ${allowed === undefined ? "nothing deletes it" : `only module ${allowed} does that`}`,
          );
        }
      }
    }
  });
}

if (violations.length > 0) {
  for (const violation of violations) console.error(violation);
  console.error(`\nx ${violations.length} raw-SQL table ownership violation(s)`);
  process.exit(1);
}
console.log(
  `✔ raw SQL names only its own module's tables, businesses is inserted only by registration and updated only by business-profile (${owner.size} module tables, ${files.length} files)`,
);
