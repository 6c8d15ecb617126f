// What the Business sees of the bank's files: every inbound file with its status, what it moved and each
// problem in words (GET /v1/bank-inbound-files). Read from what intake and the apply functions record; the
// content (account numbers) is never selected.
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { unmatchedProblem } from "./bank-rails.problems.js";
import { findInboundFile, type InboundListRow, listInboundFiles } from "./bank-rails.repo.js";
import type { BankInboundFileBody, BankInboundFileListQuery } from "./bank-rails.schemas.js";

const KINDS = new Set(["pain.002", "camt.054", "nacha_returns"]);

export function presentInboundFile(row: InboundListRow): BankInboundFileBody {
  const unmatched = Array.isArray(row.unmatched) ? (row.unmatched as string[]) : [];
  const moved = Array.isArray(row.moved) ? (row.moved as BankInboundFileBody["moved"]) : [];
  const status: BankInboundFileBody["status"] =
    row.status === "refused" || row.status === "duplicate" ? row.status : unmatched.length > 0 ? "partially_applied" : "applied";
  const problems =
    row.status === "refused" || row.status === "duplicate"
      ? [{ reference: null, reason: row.refusalReason ?? "The file could not be read." }]
      : unmatched.map((recorded) => unmatchedProblem(row.kind, recorded));
  return {
    id: row.id,
    rail: row.rail as BankInboundFileBody["rail"],
    file_name: row.fileName,
    kind: (KINDS.has(row.kind) ? row.kind : "unknown") as BankInboundFileBody["kind"],
    size_bytes: row.sizeBytes,
    received_at: row.receivedAt.toISOString(),
    status,
    duplicate_of: row.duplicateOfId,
    moved: moved.map((m) => ({ payout_id: m.payout_id, outcome: m.outcome, bank_status: m.bank_status ?? null })),
    problems,
  };
}

export function createInboundView(deps: { readonly db: Db }) {
  async function list(
    tenant: Tenant,
    query: BankInboundFileListQuery,
  ): Promise<{ bank_inbound_files: BankInboundFileBody[]; next_cursor: string | null }> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await listInboundFiles(
      deps.db,
      tenant,
      { rail: query.rail, status: query.status },
      limit + 1,
      decodeCursor(query.cursor),
    );
    const page = toPage(rows, limit);
    return { bank_inbound_files: page.items.map(presentInboundFile), next_cursor: page.nextCursor };
  }

  async function get(tenant: Tenant, id: string): Promise<BankInboundFileBody> {
    const row = await findInboundFile(deps.db, tenant, id);
    if (row === null) throw new AppError("not_found", { message: "No such inbound bank file." });
    return presentInboundFile(row);
  }

  return { list, get };
}
export type InboundView = ReturnType<typeof createInboundView>;
