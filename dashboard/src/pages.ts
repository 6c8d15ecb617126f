// The signed-in pages' chunks, and what a first visit starts before React renders (see main.tsx): the page's
// chunk and, for a page whose first request is known from the URL alone, that request. Each page is a chunk of
// its own that App.tsx loads on demand; loading one twice downloads nothing twice (the module system keeps one
// copy), so starting it early only moves the download forward.
import type { Environment } from "./api/client";
import { startEarlyRequest } from "./lib/early-requests";

const pageChunks = {
  home: () => import("./pages/home"),
  approvals: () => import("./pages/approvals"),
  payouts: () => import("./pages/payouts"),
  balances: () => import("./pages/balances"),
  payout: () => import("./pages/payout"),
  newPayout: () => import("./pages/new-payout"),
  developers: () => import("./pages/developers"),
  team: () => import("./pages/team"),
  uploads: () => import("./pages/uploads"),
  beneficiaries: () => import("./pages/beneficiaries"),
  beneficiary: () => import("./pages/beneficiary"),
  settings: () => import("./pages/settings"),
  bankFiles: () => import("./pages/bank-files"),
  reconciliation: () => import("./pages/reconciliation"),
  screening: () => import("./pages/screening"),
} as const;

export type PageName = keyof typeof pageChunks;
export type PageModule<K extends PageName> = Awaited<ReturnType<(typeof pageChunks)[K]>>;

// Keyed by page; each value is that page's module (loadPage writes it, loadedPage reads it under the same key).
const loadedModules = new Map<PageName, unknown>();

/** Downloads (once) and evaluates a page's chunk; remembers it for loadedPage. */
export function loadPage<K extends PageName>(name: K): Promise<PageModule<K>> {
  return (pageChunks[name]() as Promise<PageModule<K>>).then((module) => {
    loadedModules.set(name, module);
    return module;
  });
}

/** The page's module if its chunk has already arrived, so App.tsx can render it without suspending. */
export function loadedPage<K extends PageName>(name: K): PageModule<K> | undefined {
  return loadedModules.get(name) as PageModule<K> | undefined;
}

/** The page at `path` (below /dashboard), as App.tsx routes it; null for the sign-in pages and the unknown. */
function pageAt(path: string): PageName | null {
  const [first = "", second, ...rest] = path.split("/").filter((part) => part !== "");
  if (rest.length > 0) return null;
  if (first === "") return "home";
  if (first === "payouts") return second === undefined ? "payouts" : second === "new" ? "newPayout" : "payout";
  if (first === "beneficiaries") return second === undefined ? "beneficiaries" : "beneficiary";
  if (second !== undefined) return null;
  const single: Readonly<Record<string, PageName>> = {
    approvals: "approvals",
    balances: "balances",
    developers: "developers",
    team: "team",
    uploads: "uploads",
    settings: "settings",
    "bank-files": "bankFiles",
    reconciliation: "reconciliation",
    screening: "screening",
  };
  return single[first] ?? null;
}

/**
 * Before React renders: the session check every page makes, the landing page's chunk and, for the Payouts list
 * opened without filters, its first page. That request must stay what pages/payouts.tsx asks for first (the
 * browser test "opens the Payouts page with one request per answer" notices when it does not).
 */
export function startLanding(location: { readonly pathname: string; readonly search: string }, environment: Environment): void {
  startEarlyRequest("/v1/session", environment);
  const path = location.pathname.replace(/^\/dashboard(?=\/|$)/, "");
  const page = pageAt(path);
  if (page === null) return;
  // A failed download shows in the page's own import (React.lazy), which tries again.
  loadPage(page).catch(() => undefined);
  if (page === "payouts" && location.search === "") startEarlyRequest("/v1/payouts?limit=25", environment);
}
