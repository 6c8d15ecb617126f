// `screening-hits list`: the sanctions screening hits, newest first (`--status open` is the review queue), with the
// listed entry, the list, the matched name and the score. Clearing or confirming needs a reason and another admin
// than the person whose change was screened: the dashboard's Screening page, or the API.
import type { Schemas } from "@payout-orchestration/client";
import { type Command, Option } from "commander";
import type { ActionWrapper } from "./command.js";
import { table } from "./output.js";

type ScreeningHit = Schemas["ScreeningHit"];

const HIT_STATUSES = ["open", "cleared", "confirmed", "withdrawn"] as const;
const LIST_NAMES: Readonly<Record<string, string>> = { ofac_sdn: "OFAC SDN", eu_consolidated: "EU consolidated" };

/** A score of 0 to 1 as a percentage with one decimal: 0.934 -> "93.4%". */
export function scorePercent(score: number): string {
  return `${(Math.round(score * 1000) / 10).toFixed(1)}%`;
}

const hitRow = (h: ScreeningHit) => [
  h.id,
  h.status,
  h.beneficiary_id,
  h.screened_name,
  `${h.entry.name} (${h.entry.ref})`,
  LIST_NAMES[h.entry.list_id] ?? h.entry.list_id,
  h.matched_name,
  scorePercent(h.score),
  h.created_at,
];
const HIT_HEADER = ["HIT", "STATUS", "BENEFICIARY", "SCREENED NAME", "LISTED ENTRY", "LIST", "MATCHED NAME", "SCORE", "FOUND"];

export function registerScreeningCommands(program: Command, action: ActionWrapper): void {
  program
    .command("screening-hits")
    .description("sanctions screening hits (Beneficiaries close to a name on the OFAC SDN or EU consolidated list)")
    .command("list")
    .description("list screening hits, newest first; --status open is the review queue")
    .addOption(new Option("--status <status>", "only this status").choices(HIT_STATUSES))
    .option("--beneficiary <id>", "only this Beneficiary's hits")
    .action(
      action(async (ctx) => {
        const o = ctx.options as { status?: ScreeningHit["status"]; beneficiary?: string };
        const query = {
          limit: 100,
          ...(o.status === undefined ? {} : { status: o.status }),
          ...(o.beneficiary === undefined ? {} : { beneficiary_id: o.beneficiary }),
        };
        const items: ScreeningHit[] = [];
        for await (const h of (await ctx.client()).paginate("listScreeningHits", { query })) items.push(h);
        ctx.out.result(items, () => (items.length === 0 ? "no screening hit" : table([HIT_HEADER, ...items.map(hitRow)])));
      }),
    );
}
