// Layering rules (npm run layers). See docs/ARCHITECTURE.md for the reasoning.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Circular imports make initialisation order fragile.",
      from: {},
      to: { circular: true, dependencyTypesNot: ["type-only"] },
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
      comment: "A module uses another module only through its index.ts, its one door.",
      from: { path: "^src/modules/([^/]+)/" },
      to: { path: "^src/modules/([^/]+)/", pathNot: ["^src/modules/$1/", "^src/modules/[^/]+/index\\.ts$"] },
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
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
