// Recognising PostgreSQL errors through Drizzle's wrapping (DrizzleQueryError keeps the driver error as cause).
function pgErrorOf(error: unknown): { code?: string; constraint?: string } | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === "object"; depth += 1) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof candidate.code === "string" && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return {
        code: candidate.code,
        ...(typeof candidate.constraint === "string" ? { constraint: candidate.constraint } : {}),
      };
    }
    current = candidate.cause;
  }
  return null;
}

/** True for a unique-constraint violation, optionally of one named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pgError = pgErrorOf(error);
  if (pgError?.code !== "23505") return false;
  return constraint === undefined || pgError.constraint === undefined || pgError.constraint === constraint;
}
