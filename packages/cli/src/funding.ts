// `balances` and `top-ups`: each funding account's posted, held, available and waiting amounts, and recording,
// listing and deciding top-ups (a second person approves; the funding account is credited then).
import type { Schemas } from "@payout-orchestration/client";
import { type Command, Option } from "commander";
import type { ActionWrapper } from "./command.js";
import { CliError, EXIT, table } from "./output.js";

type FundingAccount = Schemas["FundingAccount"];
type TopUp = Schemas["TopUp"];

/** ISO 4217 currencies without 2 minor digits that a funding account is likely to hold (the rest print with 2). */
const EXPONENTS: Readonly<Record<string, number>> = { JPY: 0, KRW: 0, CLP: 0, ISK: 0, BHD: 3, KWD: 3, OMR: 3, JOD: 3, TND: 3 };

/** Minor units as a decimal in major units (`123456`, EUR -> `1234.56`), exact: no float in between. */
export function formatMinor(amountMinor: number, currency: string): string {
  const exponent = EXPONENTS[currency] ?? 2;
  const digits = String(Math.abs(amountMinor));
  const sign = amountMinor < 0 ? "-" : "";
  if (exponent === 0) return `${sign}${digits} ${currency}`;
  const padded = digits.padStart(exponent + 1, "0");
  return `${sign}${padded.slice(0, -exponent)}.${padded.slice(-exponent)} ${currency}`;
}

function parseAmountMinor(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new CliError("invalid_option", `--amount-minor takes a positive integer of minor units, got "${value}"`, EXIT.usage);
  return n;
}

const topUpRow = (t: TopUp) => [
  t.id,
  t.status,
  formatMinor(t.amount_minor, t.currency),
  t.funding_account_id,
  t.reference,
  t.created_at,
];
const TOP_UP_HEADER = ["TOP-UP", "STATUS", "AMOUNT", "FUNDING ACCOUNT", "REFERENCE", "CREATED"];

export function registerFundingCommands(program: Command, action: ActionWrapper): void {
  program
    .command("balances")
    .description("list funding accounts with their posted, held, available and waiting amounts")
    .action(
      action(async (ctx) => {
        const accounts: FundingAccount[] = [];
        for await (const account of (await ctx.client()).paginate("listFundingAccounts", { query: { limit: 200 } }))
          accounts.push(account);
        ctx.out.result(accounts, () =>
          accounts.length === 0
            ? "no funding account yet (one opens with the first payout of a currency, or when a bank rail is configured)"
            : table([
                ["FUNDING ACCOUNT", "NAME", "POSTED", "HELD", "AVAILABLE", "WAITING", "ENFORCEMENT"],
                ...accounts.map((a) => [
                  a.id,
                  a.name,
                  formatMinor(a.posted_minor, a.currency),
                  formatMinor(a.pending_minor, a.currency),
                  formatMinor(a.available_minor, a.currency),
                  `${a.awaiting_funds.count} (${formatMinor(a.awaiting_funds.amount_minor, a.currency)})`,
                  a.enforcement,
                ]),
              ]),
        );
      }),
    );

  const topUps = program.command("top-ups").description("top-ups of funding accounts (approved by a second person)");
  topUps
    .command("create")
    .description("record a top-up: money moved into a funding account's bank account; it waits for another person's approval")
    .requiredOption("--funding-account <id>", "the funding account (see `payouts balances`)")
    .requiredOption("--amount-minor <n>", "amount in minor units of the account's currency", parseAmountMinor)
    .requiredOption("--reference <text>", "the bank transfer's reference")
    .action(
      action(async (ctx) => {
        const o = ctx.options as { fundingAccount: string; amountMinor: number; reference: string };
        const topUp = await (await ctx.client()).createTopUp({
          path: { id: o.fundingAccount },
          body: { amount_minor: o.amountMinor, reference: o.reference },
        });
        ctx.out.result(topUp, () => `${topUp.id}  ${topUp.status}  ${formatMinor(topUp.amount_minor, topUp.currency)}`);
      }),
    );
  topUps
    .command("list")
    .description("list top-ups, newest first")
    .addOption(new Option("--status <status>", "only this status").choices(["pending_approval", "approved", "rejected"]))
    .option("--funding-account <id>", "only this funding account's top-ups")
    .action(
      action(async (ctx) => {
        const o = ctx.options as { status?: TopUp["status"]; fundingAccount?: string };
        const query = {
          limit: 200,
          ...(o.status === undefined ? {} : { status: o.status }),
          ...(o.fundingAccount === undefined ? {} : { funding_account_id: o.fundingAccount }),
        };
        const items: TopUp[] = [];
        for await (const topUp of (await ctx.client()).paginate("listTopUps", { query })) items.push(topUp);
        ctx.out.result(items, () => table([TOP_UP_HEADER, ...items.map(topUpRow)]));
      }),
    );
  topUps
    .command("approve")
    .description("approve a top-up (not one you recorded): the funding account is credited at once")
    .argument("<id>", "top-up id")
    .action(
      action(async (ctx, id: string) => {
        const topUp = await (await ctx.client()).approveTopUp({ path: { id } });
        ctx.out.result(topUp, () => `${topUp.id}  ${topUp.status}  transfer ${topUp.transfer_id ?? ""}`);
      }),
    );
  topUps
    .command("reject")
    .description("reject a top-up: nothing is credited")
    .argument("<id>", "top-up id")
    .requiredOption("--reason <text>", "why it is rejected")
    .action(
      action(async (ctx, id: string) => {
        const reason = (ctx.options as { reason: string }).reason;
        const topUp = await (await ctx.client()).rejectTopUp({ path: { id }, body: { reason } });
        ctx.out.result(topUp, () => `${topUp.id}  ${topUp.status}`);
      }),
    );
}
