// Cursor pagination shared by every list endpoint: ids are UUIDv7 (time-ordered), so "newest first" is
// `order by id desc` and the cursor is simply the last id seen, wrapped so clients treat it as opaque.
import { Type } from "@sinclair/typebox";
import { AppError } from "../errors.js";
import { isUuid } from "../ids.js";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export const PageQuerySchema = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: "Page size, 1 to 200." }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: "The `next_cursor` of the previous page; omit for the first page." }),
  ),
};

export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ id: lastId }), "utf8").toString("base64url");
}

/** Returns the id after which the page starts, or null for the first page. A cursor we did not issue is a 400. */
export function decodeCursor(cursor: string | undefined): string | null {
  if (cursor === undefined || cursor === "") return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { id?: unknown };
    if (typeof parsed.id === "string" && isUuid(parsed.id)) return parsed.id;
  } catch {
    // fall through to the error below
  }
  throw new AppError("validation_failed", {
    details: [{ field: "cursor", code: "invalid_format", message: "Not a cursor returned by this API." }],
  });
}

/** Given limit+1 rows fetched, returns the page and the cursor of the next one (null on the last page). */
export function toPage<T extends { id: string }>(rows: readonly T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last.id) : null };
}
