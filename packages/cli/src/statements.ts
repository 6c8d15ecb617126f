// `statements upload|list` and `statement-lines list`: a bank statement file (camt.053, camt.052 or BAI2) sent to
// the service as it is, the statements received with their balance check, and the lines by status (the review
// queue is `--status needs_review`). Matching by hand is the dashboard's (it shows the candidates side by side).
import { readFile } from "node:fs/promises";
import type { Schemas } from "@payout-orchestration/client";
import { type Command, Option } from "commander";
import type { ActionWrapper } from "./command.js";
import { formatMinor } from "./funding.js";
import { CliError, table } from "./output.js";

type BankStatement = Schemas["BankStatement"];
type StatementLine = Schemas["StatementLine"];

const LINE_STATUSES = ["matched", "needs_review", "unmatched", "ignored", "pending"] as const;
/** Statement files are small; a bigger file is refused before it is read into memory. */
const MAX_BYTES = 20 * 1024 * 1024;

/** camt (XML) or BAI2 (text), told apart by the first character, as the service reads them. */
export function statementContentType(text: string): "application/xml" | "text/plain" {
  return text.trimStart().startsWith("<") ? "application/xml" : "text/plain";
}

function linesByStatus(s: BankStatement): string {
  const c = s.lines_by_status;
  return `${c.matched} matched, ${c.needs_review} to review, ${c.unmatched} unmatched, ${c.ignored} ignored, ${c.pending} pending`;
}

/** The balance check in words: what the bank says, what the ledger says, the difference, a missing statement. */
export function balanceCheckText(s: BankStatement): string {
  const check = s.balance_check;
  const money = (minor: number | null) => (minor === null ? "?" : formatMinor(minor, s.currency));
  const gap =
    check.sequence_gap === null
      ? ""
      : `; statement ${check.sequence_gap.expected} expected, ${check.sequence_gap.received} received`;
  if (check.status === "agrees") return `agrees (${money(check.bank_minor)})${gap}`;
  if (check.status === "not_checked") return `not checked${gap}`;
  const words = check.status === "resolved" ? "resolved difference" : "MISMATCH";
  return `${words}: bank ${money(check.bank_minor)}, ledger ${money(check.ledger_minor)}, difference ${money(check.difference_minor)}${gap}`;
}

const statementRow = (s: BankStatement) => [
  s.id,
  s.format,
  s.period_from === s.period_to ? (s.period_from ?? "") : `${s.period_from ?? "?"}..${s.period_to ?? "?"}`,
  s.funding_account_id,
  String(s.line_count),
  balanceCheckText(s),
];
const STATEMENT_HEADER = ["STATEMENT", "FORMAT", "PERIOD", "FUNDING ACCOUNT", "LINES", "BALANCE CHECK"];

const lineRow = (l: StatementLine) => [
  l.id,
  l.status,
  l.booking_date ?? "",
  l.direction,
  formatMinor(l.amount_minor, l.currency),
  l.match === null
    ? l.status === "needs_review"
      ? `${l.candidates.length} candidate(s)`
      : (l.ignored_reason ?? "")
    : `${l.match.rule}: ${l.match.top_up_id === null ? l.match.payout_ids.join(" ") : `top-up ${l.match.top_up_id}`}`,
  l.bank_reference ?? l.references.end_to_end_ids.join(" "),
];
const LINE_HEADER = ["LINE", "STATUS", "BOOKED", "DIRECTION", "AMOUNT", "MATCH / CANDIDATES / REASON", "REFERENCE"];

export function registerStatementCommands(program: Command, action: ActionWrapper): void {
  const statements = program
    .command("statements")
    .description("bank statements (camt.053, camt.052, BAI2) and their balance check");
  statements
    .command("upload")
    .description(
      "send a bank statement file (camt.053 or camt.052 XML, or BAI2 text) to be read and matched; the same file again adds nothing",
    )
    .argument("<file>", "the statement file as the bank sent it")
    .action(
      action(async (ctx, file: string) => {
        const bytes = await readFile(file);
        if (bytes.length > MAX_BYTES) throw new CliError("file_too_large", `${file}: at most 20 MB, this is not a statement`);
        if (bytes.length === 0) throw new CliError("file_empty", `${file} is empty`);
        const text = bytes.toString("utf8");
        const answer = await (await ctx.client()).raw.uploadBankStatement(
          { body: text },
          { headers: { "content-type": `${statementContentType(text)}; charset=utf-8` } },
        );
        const statement = answer.data;
        const duplicate = answer.status === 200;
        ctx.out.result({ ...statement, duplicate }, () =>
          [
            `${statement.id}  ${statement.format}  ${duplicate ? "received before: nothing added" : "read"}`,
            `lines: ${statement.line_count} (${linesByStatus(statement)})`,
            `balance check: ${balanceCheckText(statement)}`,
          ].join("\n"),
        );
      }),
    );
  statements
    .command("list")
    .description("list the statements received, newest first, with their lines by status and the balance check")
    .option("--funding-account <id>", "only this funding account's statements")
    .action(
      action(async (ctx) => {
        const o = ctx.options as { fundingAccount?: string };
        const query = { limit: 100, ...(o.fundingAccount === undefined ? {} : { funding_account_id: o.fundingAccount }) };
        const items: BankStatement[] = [];
        for await (const s of (await ctx.client()).paginate("listBankStatements", { query })) items.push(s);
        ctx.out.result(items, () =>
          items.length === 0 ? "no statement yet" : table([STATEMENT_HEADER, ...items.map(statementRow)]),
        );
      }),
    );

  program
    .command("statement-lines")
    .description("the lines of the bank statements")
    .command("list")
    .description("list statement lines, newest first; --status needs_review is the review queue")
    .addOption(new Option("--status <status>", "only this status").choices(LINE_STATUSES))
    .option("--funding-account <id>", "only this funding account's lines")
    .option("--statement <id>", "only this statement's lines")
    .action(
      action(async (ctx) => {
        const o = ctx.options as { status?: StatementLine["status"]; fundingAccount?: string; statement?: string };
        const query = {
          limit: 100,
          ...(o.status === undefined ? {} : { status: o.status }),
          ...(o.fundingAccount === undefined ? {} : { funding_account_id: o.fundingAccount }),
          ...(o.statement === undefined ? {} : { statement_id: o.statement }),
        };
        const items: StatementLine[] = [];
        for await (const l of (await ctx.client()).paginate("listStatementLines", { query })) items.push(l);
        ctx.out.result(items, () => (items.length === 0 ? "no line" : table([LINE_HEADER, ...items.map(lineRow)])));
      }),
    );
}
