// Controls on where money goes (issue 29): the destination policy (`destination-policy get|set`), the payout
// limits (`limits get|set`) and the bank details waiting for approval (`bank-account-approvals list|approve|reject`).
// A relaxation (approval no longer required, a shorter cooling-off, a laxer name check, screening off, a limit
// raised or removed) is refused to API keys by the service: a person makes it in the dashboard (with a second
// admin when maker-checker is on). Tightening works with a key. A change waiting for a second admin (202) is
// printed as such.
import type { Schemas } from "@payout-orchestration/client";
import { type Command, Option } from "commander";
import type { ActionWrapper } from "./command.js";
import { formatMinor } from "./funding.js";
import { CliError, EXIT, table } from "./output.js";

type DestinationPolicy = Schemas["DestinationPolicy"];
type PolicyChange = Schemas["UpdateDestinationPolicyRequest"];
type PayoutLimits = Schemas["PayoutLimits"];
type LimitInput = Schemas["PutPayoutLimitsRequest"]["limits"][number];
type ControlChange = Schemas["ControlChange"];
type Destination = Schemas["Destination"];

const isControlChange = (body: object): body is ControlChange => "object" in body && body.object === "control_change";

function pendingText(change: ControlChange): string {
  return `Waiting for a second admin: control change ${change.id} (${change.summary}). Nothing changed yet; another admin approves it in the dashboard (Settings).`;
}

function policyText(p: DestinationPolicy): string {
  return table([
    ["CONTROL", "VALUE"],
    ["environment", p.environment],
    ["require_approval", p.require_approval ? "on" : "off"],
    ["cooling_off_hours", String(p.cooling_off_hours)],
    ["name_check", p.name_check],
    ["screening", p.screening],
    ["updated_at", p.updated_at ?? "never (defaults)"],
  ]);
}

function parseHours(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new CliError("invalid_option", `--cooling-off-hours takes a whole number of hours, got "${value}"`, EXIT.usage);
  return n;
}

/** `EUR:2500000:10000000` (minor units; `none` for no limit) -> one entry of the whole set PUT takes. */
export function parseLimit(value: string, previous: LimitInput[] = []): LimitInput[] {
  const usage = () =>
    new CliError(
      "invalid_option",
      `--limit takes CURRENCY:PER_PAYOUT_MAX:DAILY_MAX in minor units, "none" for no limit (EUR:2500000:none), got "${value}"`,
      EXIT.usage,
    );
  const parts = value.split(":");
  if (parts.length !== 3) throw usage();
  const [currency, perPayout, daily] = parts as [string, string, string];
  if (!/^[A-Za-z]{3}$/.test(currency)) throw usage();
  const amount = (text: string): number | null => {
    if (text === "none") return null;
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1) throw usage();
    return n;
  };
  const entry = { currency: currency.toUpperCase(), per_payout_max_minor: amount(perPayout), daily_max_minor: amount(daily) };
  if (previous.some((p) => p.currency === entry.currency))
    throw new CliError("invalid_option", `--limit names ${entry.currency} twice`, EXIT.usage);
  return [...previous, entry];
}

const orNone = (minor: number | null, currency: string) => (minor === null ? "none" : formatMinor(minor, currency));

function limitsText(l: PayoutLimits): string {
  const head = `${l.environment}, today ${l.today} (${l.time_zone})`;
  if (l.limits.length === 0) return `${head}: no limits`;
  return `${head}\n${table([
    ["CURRENCY", "PER PAYOUT", "DAILY", "USED TODAY", "REMAINING TODAY"],
    ...l.limits.map((x) => [
      x.currency,
      orNone(x.per_payout_max_minor, x.currency),
      orNone(x.daily_max_minor, x.currency),
      formatMinor(x.used_today_minor, x.currency),
      orNone(x.remaining_today_minor, x.currency),
    ]),
  ])}`;
}

const destinationRow = (d: Destination) => [
  d.id,
  d.beneficiary_id,
  d.account_holder_name,
  `${d.scheme} •••• ${d.last4}`,
  d.country,
  d.currency,
  d.name_check_result ?? "not checked",
  d.added_by?.kind ?? "",
  d.details_changed_at,
];
const DESTINATION_HEADER = [
  "BANK ACCOUNT",
  "BENEFICIARY",
  "HOLDER",
  "ACCOUNT",
  "COUNTRY",
  "CURRENCY",
  "NAME CHECK",
  "ADDED BY",
  "CHANGED",
];

export function registerControlCommands(program: Command, action: ActionWrapper): void {
  const policy = program
    .command("destination-policy")
    .description("the destination policy: approval of bank details, cooling-off, payee name check, sanctions screening");
  policy
    .command("get")
    .description("show the destination policy of the key's environment")
    .action(
      action(async (ctx) => {
        const p = await (await ctx.client()).getDestinationPolicy();
        ctx.out.result(p, () => policyText(p));
      }),
    );
  policy
    .command("set")
    .description("change the controls given (the others keep their value); a relaxation needs a person (the dashboard)")
    .addOption(
      new Option("--require-approval <on|off>", "new and changed bank details wait for a second person").choices(["on", "off"]),
    )
    .option("--cooling-off-hours <hours>", "hours after approval before bank details may be paid", parseHours)
    .addOption(new Option("--name-check <mode>", "payee name check").choices(["off", "warn", "block"]))
    .addOption(new Option("--screening <on|off>", "sanctions screening of Beneficiaries").choices(["on", "off"]))
    .action(
      action(async (ctx) => {
        const o = ctx.options as {
          requireApproval?: "on" | "off";
          coolingOffHours?: number;
          nameCheck?: PolicyChange["name_check"];
          screening?: PolicyChange["screening"];
        };
        const body: PolicyChange = {
          ...(o.requireApproval === undefined ? {} : { require_approval: o.requireApproval === "on" }),
          ...(o.coolingOffHours === undefined ? {} : { cooling_off_hours: o.coolingOffHours }),
          ...(o.nameCheck === undefined ? {} : { name_check: o.nameCheck }),
          ...(o.screening === undefined ? {} : { screening: o.screening }),
        };
        if (Object.keys(body).length === 0)
          throw new CliError(
            "invalid_option",
            "nothing to change: give --require-approval, --cooling-off-hours, --name-check or --screening",
            EXIT.usage,
          );
        const answer = await (await ctx.client()).updateDestinationPolicy({ body });
        ctx.out.result(answer, () => (isControlChange(answer) ? pendingText(answer) : policyText(answer)));
      }),
    );

  const limits = program.command("limits").description("payout limits per currency: per payout and per day");
  limits
    .command("get")
    .description("show the payout limits and today's usage")
    .action(
      action(async (ctx) => {
        const l = await (await ctx.client()).getPayoutLimits();
        ctx.out.result(l, () => limitsText(l));
      }),
    );
  limits
    .command("set")
    .description(
      "replace the whole set of limits (a currency left out has none); raising or removing one needs a person (the dashboard)",
    )
    .option(
      "--limit <CUR:PER_PAYOUT:DAILY>",
      "a currency's limits in minor units, none for no limit; repeat per currency",
      parseLimit,
    )
    .option("--none", "no limits at all")
    .action(
      action(async (ctx) => {
        const o = ctx.options as { limit?: LimitInput[]; none?: boolean };
        if ((o.limit === undefined) === (o.none !== true))
          throw new CliError("invalid_option", "give one or more --limit, or --none (no limits at all)", EXIT.usage);
        const answer = await (await ctx.client()).putPayoutLimits({ body: { limits: o.limit ?? [] } });
        ctx.out.result(answer, () => (isControlChange(answer) ? pendingText(answer) : limitsText(answer)));
      }),
    );

  const approvals = program
    .command("bank-account-approvals")
    .description("bank details waiting for a second person's approval (destination policy require_approval)");
  approvals
    .command("list")
    .description("list the bank accounts waiting for approval, newest first")
    .action(
      action(async (ctx) => {
        const { bank_accounts: items } = await (await ctx.client()).listBankAccountApprovals();
        ctx.out.result(items, () =>
          items.length === 0 ? "no bank account waiting for approval" : table([DESTINATION_HEADER, ...items.map(destinationRow)]),
        );
      }),
    );
  for (const [verb, operation] of [
    ["approve", "approveBankAccount"],
    ["reject", "rejectBankAccount"],
  ] as const) {
    approvals
      .command(verb)
      .description(
        verb === "approve"
          ? "approve bank details (not ones you added): the cooling-off starts, then they may be paid"
          : "reject bank details: they are never paid (register them again to start a new approval)",
      )
      .argument("<beneficiary-id>", "the Beneficiary")
      .argument("<bank-account-id>", "the bank account (see `payouts bank-account-approvals list`)")
      .option("--reason <text>", "why (kept in the audit log)")
      .action(
        action(async (ctx, beneficiaryId: string, accountId: string) => {
          const reason = (ctx.options as { reason?: string }).reason;
          const client = await ctx.client();
          const d = await client[operation]({
            path: { id: beneficiaryId, accountId },
            body: reason === undefined ? {} : { reason },
          });
          ctx.out.result(
            d,
            () => `${d.id}  ${d.approval_status}${d.usable_from === null ? "" : `  usable from ${d.usable_from}`}`,
          );
        }),
      );
  }
}
