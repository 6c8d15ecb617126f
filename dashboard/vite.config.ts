// Builds the dashboard into dist/dashboard, served by the service at /dashboard (src/pages/dashboard).
// Vite 8 compiles TSX itself (Oxc), so no React plugin is needed for a production build.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync, constants as zlibConstants } from "node:zlib";
import { defaultClientConditions, defineConfig, type Plugin } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));
const base = "/dashboard/";

/**
 * The entry (src/main.tsx) is tiny and imports the app (src/root.tsx) dynamically, so that it runs, and starts
 * the landing page's requests, before the app's JavaScript has arrived. Vite preloads only an entry's static
 * imports from index.html: this adds `modulepreload` links for the app's chunk and everything it imports, so
 * their download starts with the HTML, not after the entry has run.
 */
function preloadAppChunks(): Plugin {
  return {
    name: "dashboard:preload-app-chunks",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, context) {
        const bundle = context.bundle;
        if (bundle === undefined) return [];
        const app = Object.values(bundle).find(
          (output) => output.type === "chunk" && output.moduleIds.includes(path.join(root, "src/root.tsx")),
        );
        if (app === undefined || app.type !== "chunk") throw new Error("dashboard build: no chunk for src/root.tsx");
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          const chunk = bundle[fileName];
          if (chunk?.type === "chunk") for (const imported of chunk.imports) visit(imported);
        };
        visit(app.fileName);
        // The entry itself and what index.html already preloads.
        for (const imported of context.chunk?.imports ?? []) files.delete(imported);
        if (context.chunk !== undefined) files.delete(context.chunk.fileName);
        return [...files].map((fileName) => ({
          tag: "link",
          attrs: { rel: "modulepreload", crossorigin: true, href: `${base}${fileName}` },
          injectTo: "head" as const,
        }));
      },
    },
  };
}

/** The modules `from` imports statically, itself included (through the chunking pass's module graph). */
function staticGraph(from: string, moduleInfo: (id: string) => { readonly importedIds: readonly string[] } | null): Set<string> {
  const seen = new Set<string>();
  const pending = [from];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    pending.push(...(moduleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * Two chunks instead of the dozen small shared ones automatic splitting makes: over HTTP/1.1 a browser opens 6
 * connections to a host, and the landing page's early requests should not queue behind modulepreloads.
 * - "boot": what the entry (src/main.tsx) imports, shared with the app (the early requests, the page table);
 *   it must not wait for the app's chunk.
 * - "app": everything the app (src/root.tsx) needs before its first render. What only pages use stays in their
 *   chunks.
 */
type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

function chunkGroups(): { name: (id: string, context: ModuleGraph) => string | null; debugName: string; priority: number }[] {
  let graphs: { boot: Set<string>; app: Set<string> } | null = null;
  const graph = (context: ModuleGraph) => {
    if (graphs === null) {
      const lookup = (id: string) => context.getModuleInfo(id);
      const boot = staticGraph(path.join(root, "src/main.tsx"), lookup);
      const app = staticGraph(path.join(root, "src/root.tsx"), lookup);
      for (const id of boot) app.delete(id);
      graphs = { boot, app };
    }
    return graphs;
  };
  return [
    { debugName: "boot", priority: 2, name: (id, context) => (graph(context).boot.has(id) ? "boot" : null) },
    { debugName: "app", priority: 1, name: (id, context) => (graph(context).app.has(id) ? "app" : null) },
  ];
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build, so the service answers compressed
 * without compressing on each request (src/pages/dashboard picks one by Accept-Encoding). At maximum quality:
 * it is paid once per build.
 */
function precompress(): Plugin {
  return {
    name: "dashboard:precompress",
    apply: "build",
    writeBundle(options, bundle) {
      const directory = options.dir;
      if (directory === undefined) return;
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json|txt)$/.test(fileName)) continue;
        const file = path.join(directory, fileName);
        const body = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: zlibConstants.Z_BEST_COMPRESSION }));
      }
    },
  };
}

export default defineConfig({
  root,
  base,
  plugins: [preloadAppChunks(), precompress()],
  publicDir: false,
  // Workspace packages by their sources (the client package's "source" export condition: its upload-id file).
  resolve: { conditions: ["source", ...defaultClientConditions] },
  build: {
    outDir: fileURLToPath(new URL("../dist/dashboard", import.meta.url)),
    emptyOutDir: true,
    // No inline script or data: module: everything is a file from this origin (the CSP allows nothing else).
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
    rolldownOptions: {
      output: { codeSplitting: { groups: chunkGroups() } },
      // Mantine marks its modules "use client" (for React Server Components); meaningless in a browser bundle.
      onwarn(warning, warn) {
        if (warning.code === "MODULE_LEVEL_DIRECTIVE") return;
        warn(warning);
      },
    },
  },
  oxc: { jsx: { runtime: "automatic" } },
  server: { proxy: { "/v1": "http://127.0.0.1:3000" } },
});
