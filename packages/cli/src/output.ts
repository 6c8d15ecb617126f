// How the CLI prints: human lines on stdout, or one JSON document with --json; errors on stderr with the
// envelope's code, and the exit code.
import { CsvError, PayoutsApiError, PayoutsConnectionError } from "@payout-orchestration/client";

export const EXIT = {
  ok: 0,
  /** The command failed (the service refused, could not be reached, bad input). */
  failed: 1,
  /** Wrong usage: unknown command or option, missing argument. */
  usage: 2,
  /** The command ran, but some rows of a file failed (see the per-row results). */
  rowsFailed: 3,
} as const;

/** An error the CLI itself raises, with a code like the service's. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: number;
  constructor(code: string, message: string, exitCode: number = EXIT.failed) {
    super(message);
    this.code = code;
    this.exitCode = exitCode;
  }
}

export interface Output {
  readonly json: boolean;
  /** Prints a result: `value` as JSON with --json, else the human text. */
  result(value: unknown, human: () => string): void;
  /** One record of a stream (listen): a single JSON line with --json (NDJSON), else the human line. */
  record(value: unknown, human: () => string): void;
  line(text: string): void;
  warn(text: string): void;
}

export function createOutput(json: boolean, stdout: NodeJS.WritableStream = process.stdout, stderr = process.stderr): Output {
  return {
    json,
    result(value, human) {
      stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
    },
    record(value, human) {
      stdout.write(json ? `${JSON.stringify(value)}\n` : `${human()}\n`);
    },
    line(text) {
      stdout.write(`${text}\n`);
    },
    warn(text) {
      stderr.write(`${text}\n`);
    },
  };
}

export interface DescribedError {
  readonly code: string;
  readonly message: string;
  readonly status?: number;
  readonly request_id?: string | null;
  readonly details?: readonly unknown[];
  readonly exitCode: number;
}

export function describeError(error: unknown): DescribedError {
  if (error instanceof PayoutsApiError) {
    const hint =
      error.status === 401
        ? " (the API key is missing, wrong or revoked: run `payouts login` or set PAYOUTS_API_KEY)"
        : error.status === 403
          ? " (this key's role may not do that)"
          : "";
    return {
      code: error.code,
      message: `${error.message}${hint}`,
      status: error.status,
      request_id: error.requestId,
      details: error.details,
      exitCode: EXIT.failed,
    };
  }
  if (error instanceof PayoutsConnectionError) return { code: error.code, message: error.message, exitCode: EXIT.failed };
  if (error instanceof CsvError) return { code: error.code, message: error.message, exitCode: EXIT.failed };
  if (error instanceof CliError) return { code: error.code, message: error.message, exitCode: error.exitCode };
  const nodeCode = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof nodeCode === "string" && (error as NodeJS.ErrnoException).path !== undefined) {
    return { code: nodeCode.toLowerCase(), message: (error as Error).message, exitCode: EXIT.failed };
  }
  return { code: "cli_error", message: error instanceof Error ? error.message : String(error), exitCode: EXIT.failed };
}

export function printError(error: unknown, json: boolean, stderr: NodeJS.WritableStream = process.stderr): number {
  const described = describeError(error);
  const { exitCode, ...envelope } = described;
  if (json) {
    stderr.write(`${JSON.stringify({ error: envelope })}\n`);
  } else {
    const request = described.request_id ? `, request ${described.request_id}` : "";
    stderr.write(`error: ${described.message} [${described.code}${request}]\n`);
    for (const detail of described.details ?? []) {
      const d = detail as { field?: string; code?: string; message?: string };
      stderr.write(`  - ${d.field ? `${d.field}: ` : ""}${d.message ?? ""}${d.code ? ` (${d.code})` : ""}\n`);
    }
  }
  return exitCode;
}

/** Formats a table of rows with aligned columns. */
export function table(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return "";
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length))) ?? [];
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "))
    .join("\n");
}
