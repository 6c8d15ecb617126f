// The `payouts` command-line tool. Every command takes --help and --json, prints errors with the service's error
// code, and exits non-zero when it failed (codes in output.ts: 1 failed, 2 usage, 3 some rows of a file failed).
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import { createInterface } from "node:readline/promises";
import {
  beneficiaryRowsFromCsv,
  createClient,
  createPayoutsFromCsv,
  PayoutsApiError,
  PayoutsConnectionError,
  type Schemas,
} from "@payout-orchestration/client";
import { SingleBar } from "cli-progress";
import { Command, CommanderError, Option } from "commander";
import { createActionWrapper, type GlobalOptions } from "./command.js";
import { configFile, DEFAULT_BASE_URL, readConfig, writeConfig } from "./config.js";
import { registerControlCommands } from "./controls.js";
import { registerEventCommands } from "./events.js";
import { registerFundingCommands } from "./funding.js";
import { CliError, EXIT, printError, table } from "./output.js";
import { registerScreeningCommands } from "./screening.js";
import { registerStatementCommands } from "./statements.js";

const IMPORT_BATCH = 500;
const PAYOUT_STATUSES = [
  "pending_approval",
  "approved",
  "rejected",
  "disbursed",
  "settled",
  "returned",
  "failed",
  "canceled",
  "compliance_hold",
];

export function buildProgram(env: NodeJS.ProcessEnv = process.env): { program: Command; exitCode: () => number } {
  let exitCode: number = EXIT.ok;
  const action = createActionWrapper(env, (code) => {
    exitCode = Math.max(exitCode, code);
  });
  const program = new Command("payouts")
    .description("Command-line tool for the payout orchestration API")
    .version("0.0.1")
    .option("--json", "print results (and errors, on stderr) as JSON")
    .option("--api-key <key>", "API key (default: PAYOUTS_API_KEY, then the key stored by `payouts login`)")
    .option("--base-url <url>", `service address (default: PAYOUTS_BASE_URL, then the stored one, then ${DEFAULT_BASE_URL})`)
    .showHelpAfterError()
    .exitOverride();

  program
    .command("login")
    .description("check an API key against the service and store it (with the address) in a file only you can read")
    .option("--api-key <key>", "the key; read from standard input when omitted")
    .action(
      action(async (ctx) => {
        let key = ctx.options.apiKey ?? env.PAYOUTS_API_KEY;
        if (!key) {
          const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
          if (process.stdin.isTTY) process.stderr.write("API key: ");
          key = (await rl[Symbol.asyncIterator]().next()).value?.trim();
          rl.close();
        }
        if (!key) throw new CliError("missing_api_key", "no API key given");
        const baseUrl = await ctx.baseUrl();
        // Any read proves the key: a wrong or revoked one is refused with 401 before anything is stored.
        await createClient({ baseUrl, apiKey: key }).listPayouts({ query: { limit: 1 } });
        const file = configFile(env);
        await writeConfig(file, { ...(await readConfig(file)), api_key: key, base_url: baseUrl });
        const environment = key.startsWith("pok_production_")
          ? "production"
          : key.startsWith("pok_sandbox_")
            ? "sandbox"
            : "unknown";
        ctx.out.result(
          { config_file: file, base_url: baseUrl, environment },
          () => `Logged in to ${baseUrl} (${environment}); key stored in ${file}`,
        );
      }),
    );

  const beneficiaries = program.command("beneficiaries").description("Beneficiaries");
  beneficiaries
    .command("import")
    .description(
      "create Beneficiaries from a CSV file: columns email, first_name, last_name or business_name, acknowledged, and bank.* / postal_address.* for nested fields (bank.country, bank.currency, bank.iban, …)",
    )
    .argument("<file>", "CSV file")
    .action(
      action(async (ctx, file: string) => {
        const rows = beneficiaryRowsFromCsv(await readFile(file, "utf8"));
        if (rows.length === 0) throw new CliError("csv_empty", `${file}: the file has a header but no rows`);
        const client = await ctx.client();
        type ImportResult = Schemas["BeneficiaryImportResult"]["results"][number];
        const results: ImportResult[] = [];
        for (let start = 0; start < rows.length; start += IMPORT_BATCH) {
          const answer = await client.importBeneficiaries({
            body: { rows: rows.slice(start, start + IMPORT_BATCH) as Schemas["BeneficiaryImportRequest"]["rows"] },
          });
          for (const result of answer.results) results.push({ ...result, index: result.index + start });
        }
        const count = (status: string) => results.filter((r) => r.status === status).length;
        const summary = {
          created: count("created"),
          already_exists: count("already_exists"),
          duplicate: count("duplicate"),
          failed: count("failed"),
        };
        if (summary.failed > 0) ctx.setExitCode(EXIT.rowsFailed);
        ctx.out.result({ ...summary, results }, () =>
          [
            table([
              ["ROW", "STATUS", "BENEFICIARY", "BANK ACCOUNT", "ERROR"],
              ...results.map((r) => [
                String(r.index + 2),
                r.status,
                r.beneficiary_id ?? "",
                r.bank_account_id ?? "",
                r.error ? `${r.error.code}${r.error.field ? ` ${r.error.field}` : ""}: ${r.error.message}` : "",
              ]),
            ]),
            `${summary.created} created, ${summary.already_exists} already existed, ${summary.duplicate} duplicate, ${summary.failed} failed (ROW is the line in the file)`,
          ].join("\n"),
        );
      }),
    );

  const payouts = program.command("payouts").description("Payouts");
  payouts
    .command("bulk")
    .description(
      "create payouts from a CSV file, the dashboard's bulk upload format (columns beneficiary_id, currency, amount in the currency's units and/or amount_minor, and optionally bank_account_id, external_ref, idempotency_key, replaces_payout_id); the upload id is the SHA-256 of the file (sha256-<hex>, as the dashboard computes it), so sending the same file again, here or from the dashboard, creates nothing new",
    )
    .argument("<file>", "CSV file")
    .option("--results <file>", "where to write the per-row results CSV (default: <file>.results.csv)")
    .action(
      action(async (ctx, file: string) => {
        const options = ctx.options as GlobalOptions & { results?: string };
        const bytes = new Uint8Array(await readFile(file));
        const client = await ctx.client();
        const bar =
          process.stderr.isTTY && !ctx.out.json
            ? new SingleBar({ format: "{bar} {value}/{total} rows", hideCursor: true })
            : null;
        let outcome: Awaited<ReturnType<typeof createPayoutsFromCsv>>;
        try {
          outcome = await createPayoutsFromCsv(client, bytes, {
            onProgress: ({ done, total }) => {
              if (bar === null) return;
              if (done === 0) bar.start(total, 0);
              else bar.update(done);
            },
          });
        } finally {
          bar?.stop();
        }
        const resultsFile = options.results ?? `${file}.results.csv`;
        const lines = [
          csvLine(["row", "status", "payout_id", "payout_status", "error_code", "error_message"]),
          ...outcome.results.map((r) =>
            csvLine([
              String(r.index + 2),
              r.status,
              r.payout_id ?? "",
              r.payout_status ?? "",
              r.error?.code ?? "",
              r.error?.message ?? "",
            ]),
          ),
        ];
        await writeFile(resultsFile, `${lines.join("\n")}\n`);
        if (outcome.failed > 0) ctx.setExitCode(EXIT.rowsFailed);
        ctx.out.result({ ...outcome, results_file: resultsFile }, () =>
          [
            table([
              ["ROW", "STATUS", "PAYOUT", "PAYOUT STATUS", "ERROR"],
              ...outcome.results.map((r) => [
                String(r.index + 2),
                r.status,
                r.payout_id ?? "",
                r.payout_status ?? "",
                r.error ? `${r.error.code}: ${r.error.message}` : "",
              ]),
            ]),
            `upload ${outcome.uploadId}: ${outcome.created} created, ${outcome.replayed} replayed, ${outcome.failed} failed; results in ${resultsFile}`,
          ].join("\n"),
        );
      }),
    );
  for (const decision of ["approve", "reject"] as const) {
    payouts
      .command(decision)
      .description(`${decision} payouts waiting for a decision`)
      .argument("<ids...>", "payout ids")
      .option("--reason <text>", "reason recorded with the decision")
      .action(
        action(async (ctx, ids: string[]) => {
          const reason = (ctx.options as { reason?: string }).reason;
          const client = await ctx.client();
          const results: { payout_id: string; status?: string; error?: { code: string; message: string } }[] = [];
          for (const payoutId of ids) {
            const input = { path: { payoutId }, ...(reason === undefined ? {} : { body: { reason } }) };
            try {
              const answer = decision === "approve" ? await client.approvePayout(input) : await client.rejectPayout(input);
              results.push({ payout_id: payoutId, status: answer.payout.status });
            } catch (error) {
              if (!(error instanceof PayoutsApiError)) throw error;
              results.push({ payout_id: payoutId, error: { code: error.code, message: error.message } });
            }
          }
          if (results.some((r) => r.error !== undefined)) ctx.setExitCode(EXIT.failed);
          ctx.out.result(results, () =>
            results
              .map((r) => (r.error ? `${r.payout_id}  error ${r.error.code}: ${r.error.message}` : `${r.payout_id}  ${r.status}`))
              .join("\n"),
          );
        }),
      );
  }
  payouts
    .command("get")
    .description("show one payout")
    .argument("<id>", "payout id")
    .action(
      action(async (ctx, payoutId: string) => {
        const payout = await (await ctx.client()).getPayout({ path: { payoutId } });
        ctx.out.result(payout, () => table(Object.entries(payout).map(([k, v]) => [k, v === null ? "" : String(v)])));
      }),
    );
  payouts
    .command("list")
    .description("list payouts, newest first")
    .addOption(new Option("--status <status>", "only this status").choices(PAYOUT_STATUSES))
    .option("--beneficiary <id>", "only this Beneficiary's payouts")
    .option("--upload <id>", "only the payouts of this bulk upload")
    .option("--replaces <id>", "only the replacements of this failed payout (live or ended)")
    .option("--limit <n>", "at most this many (default 50)", parsePositive, 50)
    .option("--all", "every payout, page after page")
    .action(
      action(async (ctx) => {
        const o = ctx.options as GlobalOptions & {
          status?: string;
          beneficiary?: string;
          upload?: string;
          replaces?: string;
          limit: number;
          all?: boolean;
        };
        const query = {
          ...(o.status ? { status: o.status as Schemas["Payout"]["status"] } : {}),
          ...(o.beneficiary ? { beneficiary_id: o.beneficiary } : {}),
          ...(o.upload ? { upload_id: o.upload } : {}),
          ...(o.replaces ? { replaces_payout_id: o.replaces } : {}),
          limit: Math.min(o.limit, 200),
        };
        const items: Schemas["Payout"][] = [];
        for await (const payout of (await ctx.client()).paginate("listPayouts", { query })) {
          items.push(payout);
          if (!o.all && items.length >= o.limit) break;
        }
        ctx.out.result(items, () =>
          table([
            ["PAYOUT", "STATUS", "AMOUNT", "BENEFICIARY", "EXTERNAL REF", "CREATED"],
            ...items.map((p) => [
              p.payout_id,
              p.status,
              `${p.amount} ${p.currency}`,
              p.beneficiary_id,
              p.external_ref ?? "",
              p.created_at,
            ]),
          ]),
        );
      }),
    );

  payouts
    .command("export")
    .description(
      "write the payouts matching the filters (the list's) as CSV to standard output, streamed: payee name, masked destination, amount in units and minor units (payouts payouts export --status settled > payouts.csv)",
    )
    .addOption(new Option("--status <status>", "only this status").choices(PAYOUT_STATUSES))
    .option("--beneficiary <id>", "only this Beneficiary's payouts")
    .option("--upload <id>", "only the payouts of this bulk upload")
    .option("--currency <code>", "only this currency (ISO 4217)")
    .addOption(new Option("--channel <channel>", "only payouts created through this channel").choices(["api", "csv"]))
    .option("--external-ref <ref>", "only payouts with this reference")
    .option("--created-from <time>", "only payouts created at or after this ISO 8601 time")
    .option("--created-to <time>", "only payouts created before this ISO 8601 time")
    .action(
      action(async (ctx) => {
        const o = ctx.options as GlobalOptions & Record<string, string | undefined>;
        const query = new URLSearchParams();
        const add = (name: string, value: string | undefined) => {
          if (value !== undefined) query.set(name, value);
        };
        add("status", o.status);
        add("beneficiary_id", o.beneficiary);
        add("upload_id", o.upload);
        add("currency", o.currency);
        add("channel", o.channel);
        add("external_ref", o.externalRef);
        add("created_from", o.createdFrom);
        add("created_to", o.createdTo);
        const url = new URL(`/v1/payouts/export${query.size > 0 ? `?${query}` : ""}`, await ctx.baseUrl());
        let response: Response;
        try {
          response = await fetch(url, { headers: { authorization: `Bearer ${await ctx.apiKey()}` } });
        } catch (error) {
          throw new PayoutsConnectionError(
            "exportPayouts",
            "connection_failed",
            true,
            `exportPayouts: cannot reach ${url.origin}`,
            error,
          );
        }
        if (!response.ok || response.body === null) {
          const text = await response.text();
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {}
          throw new PayoutsApiError("exportPayouts", response.status, parsed, response.headers);
        }
        // Chunk by chunk to standard output, waiting when it is full: the file is never held in memory.
        for await (const chunk of response.body) {
          if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
        }
      }),
    );

  const deliveries = program.command("deliveries").description("webhook deliveries");
  deliveries
    .command("list")
    .description("list webhook deliveries, newest first")
    .addOption(new Option("--status <status>", "only this status").choices(["pending", "succeeded", "abandoned", "dropped"]))
    .option("--event-type <type>", "only this event type")
    .option("--limit <n>", "at most this many (default 50)", parsePositive, 50)
    .action(
      action(async (ctx) => {
        const o = ctx.options as GlobalOptions & { status?: string; eventType?: string; limit: number };
        const query = {
          ...(o.status ? { status: o.status as Schemas["WebhookDelivery"]["status"] } : {}),
          ...(o.eventType ? { event_type: o.eventType as Schemas["Event"]["type"] } : {}),
          limit: Math.min(o.limit, 200),
        };
        const items: Schemas["WebhookDelivery"][] = [];
        for await (const delivery of (await ctx.client()).paginate("listWebhookDeliveries", { query })) {
          items.push(delivery);
          if (items.length >= o.limit) break;
        }
        ctx.out.result(items, () =>
          table([
            ["DELIVERY", "EVENT", "STATUS", "OCCURRED"],
            ...items.map((d) => [d.id, d.event_type, d.status, d.occurred_at]),
          ]),
        );
      }),
    );
  deliveries
    .command("redeliver")
    .description("send an abandoned delivery again")
    .argument("<id>", "delivery id")
    .action(
      action(async (ctx, id: string) => {
        const delivery = await (await ctx.client()).redeliverWebhookDelivery({ path: { id } });
        ctx.out.result(delivery ?? { id }, () => `redelivery of ${id} queued`);
      }),
    );

  registerEventCommands(program, action);
  registerFundingCommands(program, action);
  registerStatementCommands(program, action);
  registerScreeningCommands(program, action);
  registerControlCommands(program, action);

  // Every command (and the program) answers --help; usage errors exit 2.
  return { program, exitCode: () => exitCode };
}

function parsePositive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new CliError("invalid_option", `expected a positive integer, got "${value}"`, EXIT.usage);
  return n;
}

/** One CSV line; a cell that could start a spreadsheet formula is prefixed with ' (results are opened in spreadsheets). */
function csvLine(cells: readonly string[]): string {
  return cells
    .map((cell) => {
      const safe = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
      return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
    })
    .join(",");
}

export async function run(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { program, exitCode } = buildProgram(env);
  const json = argv.includes("--json");
  try {
    await program.parseAsync(argv as string[], { from: "user" });
    return exitCode();
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0; usage errors were already printed by commander.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return printError(error, json);
  }
}
