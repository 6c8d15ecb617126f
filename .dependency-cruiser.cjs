// Layering rules (npm run layers: the service's src/, the dashboard's dashboard/src and the workspace packages'
// packages/*/src). See docs/ARCHITECTURE.md for the reasoning.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "No import circles, type-only imports included: a circle makes initialisation order fragile, and even one of types means neither file can be read (or moved) without the other. Shared types go in a leaf both import (platform/jobs/job-types.ts, packages/cli/src/command.ts).",
      from: {},
      to: { circular: true },
    },
    {
      name: "dashboard-stays-out-of-src",
      severity: "error",
      comment:
        "The dashboard is a client of the public API: it imports nothing of the service's src/. What it shares with the service comes through the generated API types or a workspace package (packages/time-zone).",
      from: { path: "^dashboard/" },
      to: { path: "^src/" },
    },
    {
      name: "service-and-packages-not-from-dashboard",
      severity: "error",
      comment: "Nothing depends on the dashboard: the service serves its built files, and no package imports it.",
      from: { path: "^(src|packages)/" },
      to: { path: "^dashboard/" },
    },
    {
      name: "packages-stand-alone",
      severity: "error",
      comment:
        "Workspace packages (client, CLI, time-zone) are built and used without the service: they import no file of src/ (the client's types come from the OpenAPI document, generated).",
      from: { path: "^packages/" },
      to: { path: "^src/" },
    },
    {
      name: "platform-is-below-modules",
      severity: "error",
      comment: "platform/ is shared infrastructure; it must not know about resources, the app or the processes.",
      from: { path: "^src/platform/" },
      to: { path: "^src/(modules|worker|rails|pages|app\\.ts|main\\.ts|runtime\\.ts)" },
    },
    {
      name: "modules-meet-through-index",
      severity: "error",
      comment:
        "A module uses another module only through its doors: index.ts (construction, services, types), <m>.shared.ts (the queries it offers other modules, run in the caller's transaction) and <m>.errors.ts (its error codes, for a module that throws or declares one of them).",
      from: { path: "^src/modules/([^/]+)/" },
      to: {
        path: "^src/modules/([^/]+)/",
        pathNot: [
          "^src/modules/$1/",
          "^src/modules/[^/]+/index\\.ts$",
          "^src/modules/([^/]+)/\\1\\.shared\\.ts$",
          "^src/modules/[^/]+/[^/]+\\.errors\\.ts$",
          "^src/modules/[^/]+/[^/]+\\.schema\\.ts$",
        ],
      },
    },
    {
      name: "tables-belong-to-their-module",
      severity: "error",
      comment:
        "A module's tables (src/modules/<m>/<m>.schema.ts) are read and written only by that module's own files. Another module asks the owner's index.ts for a named function that takes its transaction. Only another schema file may import them, to declare a foreign key.",
      from: { path: "^src/modules/([^/]+)/", pathNot: "\\.schema\\.ts$" },
      to: { path: "^src/modules/[^/]+/[^/]+\\.schema\\.ts$", pathNot: "^src/modules/$1/" },
    },
    {
      name: "tables-stay-in-modules",
      severity: "error",
      comment:
        "Outside the modules (app, worker, rails, pages, runtime), no code reads a module's tables: it calls the module's index.ts.",
      from: { path: "^src/", pathNot: "^src/modules/" },
      to: { path: "^src/modules/[^/]+/[^/]+\\.schema\\.ts$" },
    },
    {
      name: "shared-queries-are-leaves",
      severity: "error",
      comment:
        "<m>.shared.ts holds queries over the module's own tables; it imports its own schema, repository and pure files and the platform, never a service, a route, an index.ts or another module (but for its shared queries), so any module can use it without an import cycle.",
      from: { path: "^src/modules/([^/]+)/[^/]+\\.shared\\.ts$" },
      to: {
        path: "(^src/modules/|^src/(worker|rails|pages)/|^src/(app|main|runtime)\\.ts$)",
        pathNot: ["^src/modules/$1/[^/]+\\.(schema|repo|state|rail)\\.ts$", "^src/modules/[^/]+/[^/]+\\.shared\\.ts$"],
      },
    },
    {
      name: "error-codes-are-leaves",
      severity: "error",
      comment:
        "<m>.errors.ts holds the module's error codes (data, with the platform's defineErrorCodes); it imports nothing else (bank-rails' also spreads the bank-file refusals of src/rails/bank-files/refusals.ts, a leaf below every module), so any module can throw or declare another's code without an import cycle.",
      from: { path: "^src/modules/[^/]+/[^/]+\\.errors\\.ts$" },
      to: { pathNot: "^src/platform/errors\\.ts$|^src/rails/bank-files/refusals\\.ts$" },
    },
    {
      name: "config-knows-no-module",
      severity: "error",
      comment:
        "config.ts is the ground floor (it reads process.env into plain data); a module interprets its own settings, so config.ts imports nothing from src/modules.",
      from: { path: "^src/config\\.ts$" },
      to: { path: "^src/modules/" },
    },
    {
      name: "index-offers-functions-not-tables",
      severity: "error",
      comment:
        "A module's index.ts offers named functions (defined in its service, which owns the transaction rules), never its tables or its repository's functions: no value import of its own schema or repo from index.ts (types are fine).",
      from: { path: "^src/modules/([^/]+)/index\\.ts$" },
      to: { path: "^src/modules/$1/[^/]+\\.(schema|repo)\\.ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "pages-use-module-index",
      severity: "error",
      comment: "Hosted pages call modules only through their index.ts, and never touch the database.",
      from: { path: "^src/pages/" },
      to: { path: "(^src/modules/[^/]+/(?!index\\.ts$)|^src/platform/db/client)" },
    },
    {
      name: "mail-goes-through-the-outbox",
      severity: "error",
      comment:
        "Modules send e-mail through the emails module's outbox (capture in sandbox, the daily limit), never by enqueueing mail jobs themselves.",
      from: { path: "^src/(modules/(?!emails/)|pages/)" },
      to: { path: "^src/platform/mail/mail-job\\.ts$" },
    },
    {
      name: "routes-stay-thin",
      severity: "error",
      comment: "Routes do HTTP only: no database or repository access from a routes file.",
      from: { path: "\\.routes\\.ts$" },
      to: { path: "(^src/platform/db/|\\.repo\\.ts$)" },
    },
    {
      name: "repos-only-query",
      severity: "error",
      comment: "Repositories hold queries; they do not call services or know about HTTP.",
      from: { path: "\\.repo\\.ts$" },
      to: { path: "(\\.service\\.ts$|\\.routes\\.ts$|^src/platform/http/)" },
    },
    {
      name: "receiver-kit-stands-alone",
      severity: "error",
      comment: "The receiver kit is copied into integrators' code: only Node built-ins, nothing of the service, no package.",
      from: { path: "^src/receiver-kit/" },
      to: { pathNot: ["^src/receiver-kit/"], dependencyTypesNot: ["core"] },
    },
    {
      name: "src-not-from-tests",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^(test|bench)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      // .tsx and extensionless imports: the dashboard's (Vite resolves them); .d.ts: its generated API types.
      extensions: [".ts", ".tsx", ".d.ts", ".js"],
      // Packages by their "exports" (dependency-cruiser reads none by default), so a workspace package resolves
      // to its sources (the client's "source" condition; the time-zone package's only file), built or not.
      exportsFields: ["exports"],
      conditionNames: ["source", "import", "require", "node", "default"],
    },
  },
};
