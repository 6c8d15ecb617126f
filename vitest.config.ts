import { availableParallelism } from "node:os";
import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// Three projects:
// - `unit`: tests that open no database (pure functions, in-memory fakes, loopback servers without a database),
//   run alone by `npm run test:unit`;
// - `browser`: tests that drive Debian's Chromium (the dashboard, the hosted collection pages, the client in a
//   page), run by `npm run test:browser`; they need the built dashboard and skip without Chromium;
// - `database`: everything else, which gets the migrated PGlite snapshot from its global setup.
// `npm test` runs `unit` and `database` (the loop a developer runs after every change); `.ci/run` runs all three,
// on PGlite and on PostgreSQL.
const UNIT_TESTS = [
  "test/unit/**/*.test.ts",
  "test/mail/mail-units.test.ts",
  "test/rails/production-simulator.test.ts",
  "test/beneficiary-export/csv-stream.test.ts",
  "test/client/retries.test.ts",
  "test/client/csv.test.ts",
];
const BROWSER_TESTS = ["test/dashboard/**/*.test.ts", "test/browser/**/*.test.ts"];

export default defineConfig({
  // Workspace packages by their sources (the client package's "source" export condition), as the dashboard's
  // build takes them: a test of dashboard/src/lib/csv.ts reaches the client's upload-id file unbuilt.
  ssr: { resolve: { conditions: ["source", ...defaultServerConditions] } },
  test: {
    pool: "forks",
    // The workers do the CPU work (PGlite runs inside them) while the main process mostly waits, so use every
    // core: vitest's default (cores - 1) leaves one of two cores idle.
    maxWorkers: Math.max(2, availableParallelism()),
    // A worker runs its files one after another in one process: modules (the app, Fastify, PGlite's WASM) load
    // once per worker instead of once per file. Each file still gets its own database (test/README.md); what a
    // file changes in the process through vitest is undone by the per-file setup, and no test changes other
    // process-wide state (environment, globals, process handlers) that could leak into the next file.
    isolate: false,
    setupFiles: ["test/setup/per-file.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ["default"],
    projects: [
      {
        extends: true,
        test: { name: "unit", include: UNIT_TESTS },
      },
      {
        extends: true,
        test: {
          name: "database",
          include: ["test/**/*.test.ts"],
          exclude: [...UNIT_TESTS, ...BROWSER_TESTS],
          globalSetup: ["test/setup/pglite-snapshot.global.ts", "test/setup/service-build.global.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: BROWSER_TESTS,
          globalSetup: ["test/setup/pglite-snapshot.global.ts", "test/setup/dashboard-build.global.ts"],
        },
      },
    ],
  },
});
