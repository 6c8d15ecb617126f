// The ledger's invariants (issue 27), checked with plain SQL on the tables, independently of the funding and
// ledger modules' own reads: a test calls ledgerViolations() after every step of whatever it does and expects an
// empty list. Each violation names its rule and the rows behind it, so a failure says what broke.
//   entries_sum_to_zero        every transfer has >= 2 entries, one currency, summing to zero per currency
//   balance_is_fold            a funding account's posted/pending equal the fold of its entries
//   after_values_are_fold      each transfer's posted_after/pending_after equal the fold up to that transfer
//                              (so "balance at T" read from the last transfer at or before T is the fold up to T)
//   last_transfer_is_row       the account's row equals its last transfer's after-values
//   enforced_available         available >= -overdraft_limit where enforcement = 'enforce'
//   one_step_per_hold          per payout: at most one hold, post, void, reverse; never both post and void;
//                              post or void only after a hold; reverse only after a post
//   transfer_amounts           a payout's transfers move exactly its amount on the funding account
//   funding_status_of_status   a payout's funding_status is one its status allows
//   transfers_of_status        a payout's transfers are those its funding_status implies
//   held_is_reserved           pending_minor = the amounts of the account's reserved payouts
//   awaiting_counts            awaiting_count / awaiting_minor = the account's payouts awaiting funds
//   dispatched_only_when_held  a payout sent to a rail has a hold (no dispatch while it waits)
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../src/platform/db/client.js";

/** funding_status values each payout status allows (a tracked payout: its funding account exists). */
export const FUNDING_STATUSES_OF_STATUS: Readonly<Record<string, readonly string[]>> = {
  pending_approval: ["not_tracked"],
  rejected: ["not_tracked"],
  approved: ["reserved", "awaiting_funds"],
  canceled: ["not_tracked", "released"],
  failed: ["released"],
  disbursed: ["posted"],
  settled: ["posted"],
  returned: ["reversed"],
  // compliance_hold: by held_from_status (approved: reserved; disbursed: posted), checked below.
};

/** The steps of a payout's transfers each funding_status implies (sorted). */
const STEPS_OF_FUNDING_STATUS: Readonly<Record<string, readonly string[][]>> = {
  not_tracked: [[]],
  awaiting_funds: [[]],
  reserved: [["hold"]],
  posted: [["hold", "post"]],
  released: [[], ["hold", "void"]],
  reversed: [["hold", "post", "reverse"]],
};

type Scope = { readonly businessId?: string };

const scoped = (column: string, scope: Scope) =>
  scope.businessId === undefined ? sql`true` : sql`${sql.raw(column)} = ${scope.businessId}::uuid`;

const n = (value: unknown) => Number(value);

export async function ledgerViolations(db: Db, scope: Scope = {}): Promise<string[]> {
  const found: string[] = [];
  const report = (rule: string, rows: readonly unknown[]) => {
    for (const row of rows.slice(0, 5)) found.push(`${rule}: ${JSON.stringify(row)}`);
    if (rows.length > 5) found.push(`${rule}: ... and ${rows.length - 5} more`);
  };

  report(
    "entries_sum_to_zero",
    await queryRows(
      db,
      sql`select t.id, t.step, t.currency, count(e.id)::int as entries, coalesce(sum(e.amount_minor), 0)::text as sum,
                 count(distinct a.currency)::int as currencies,
                 bool_or(a.currency <> t.currency) as foreign_currency
          from ledger_transfers t
          left join ledger_entries e on e.transfer_id = t.id
          left join ledger_accounts a on a.id = e.ledger_account_id
          where ${scoped("t.business_id", scope)}
          group by t.id, t.step, t.currency
          having count(e.id) < 2 or coalesce(sum(e.amount_minor), 0) <> 0 or count(distinct a.currency) <> 1
              or bool_or(a.currency <> t.currency)`,
    ),
  );

  const accounts = await queryRows<{
    id: string;
    enforcement: string;
    posted: string;
    pending: string;
    overdraft: string;
    awaiting_count: number;
    awaiting_minor: string;
    fold_posted: string;
    fold_pending: string;
    last_posted: string | null;
    last_pending: string | null;
    reserved_minor: string;
    waiting_count: number;
    waiting_minor: string;
  }>(
    db,
    sql`select f.id, f.enforcement, f.posted_minor::text as posted, f.pending_minor::text as pending,
               f.overdraft_limit_minor::text as overdraft, f.awaiting_count, f.awaiting_minor::text as awaiting_minor,
               (select coalesce(sum(e.amount_minor) filter (where not e.pending), 0)::text
                  from ledger_entries e join ledger_accounts a on a.id = e.ledger_account_id
                  where a.funding_account_id = f.id) as fold_posted,
               (select coalesce(-sum(e.amount_minor) filter (where e.pending), 0)::text
                  from ledger_entries e join ledger_accounts a on a.id = e.ledger_account_id
                  where a.funding_account_id = f.id) as fold_pending,
               (select t.posted_after_minor::text from ledger_transfers t where t.funding_account_id = f.id
                  order by t.seq desc limit 1) as last_posted,
               (select t.pending_after_minor::text from ledger_transfers t where t.funding_account_id = f.id
                  order by t.seq desc limit 1) as last_pending,
               (select coalesce(sum(p.amount_minor), 0)::text from payouts p
                  where p.funding_account_id = f.id and p.funding_status = 'reserved') as reserved_minor,
               (select count(*)::int from payouts p
                  where p.funding_account_id = f.id and p.funding_status = 'awaiting_funds') as waiting_count,
               (select coalesce(sum(p.amount_minor), 0)::text from payouts p
                  where p.funding_account_id = f.id and p.funding_status = 'awaiting_funds') as waiting_minor
        from funding_accounts f where ${scoped("f.business_id", scope)}`,
  );
  for (const a of accounts) {
    if (n(a.posted) !== n(a.fold_posted) || n(a.pending) !== n(a.fold_pending)) {
      report("balance_is_fold", [{ account: a.id, row: [a.posted, a.pending], fold: [a.fold_posted, a.fold_pending] }]);
    }
    if (n(a.posted) !== n(a.last_posted ?? 0) || n(a.pending) !== n(a.last_pending ?? 0)) {
      report("last_transfer_is_row", [{ account: a.id, row: [a.posted, a.pending], last: [a.last_posted, a.last_pending] }]);
    }
    if (a.enforcement === "enforce" && n(a.posted) - n(a.pending) < -n(a.overdraft)) {
      report("enforced_available", [{ account: a.id, posted: a.posted, pending: a.pending, overdraft: a.overdraft }]);
    }
    if (n(a.pending) !== n(a.reserved_minor)) {
      report("held_is_reserved", [{ account: a.id, pending: a.pending, reserved_payouts: a.reserved_minor }]);
    }
    if (a.awaiting_count !== a.waiting_count || n(a.awaiting_minor) !== n(a.waiting_minor)) {
      report("awaiting_counts", [
        { account: a.id, row: [a.awaiting_count, a.awaiting_minor], payouts: [a.waiting_count, a.waiting_minor] },
      ]);
    }
  }

  report(
    "after_values_are_fold",
    await queryRows(
      db,
      sql`with per_transfer as (
            select t.id, t.funding_account_id, t.seq, t.posted_after_minor, t.pending_after_minor,
                   coalesce(sum(e.amount_minor) filter (where not e.pending), 0) as d_posted,
                   coalesce(-sum(e.amount_minor) filter (where e.pending), 0) as d_pending
            from ledger_transfers t
            left join ledger_entries e on e.transfer_id = t.id
              and e.ledger_account_id = (select a.id from ledger_accounts a where a.funding_account_id = t.funding_account_id)
            where ${scoped("t.business_id", scope)}
            group by t.id),
          running as (
            select id, funding_account_id, seq, posted_after_minor, pending_after_minor,
                   sum(d_posted) over w as fold_posted, sum(d_pending) over w as fold_pending
            from per_transfer window w as (partition by funding_account_id order by seq))
          select id, seq, posted_after_minor::text, pending_after_minor::text, fold_posted::text, fold_pending::text
          from running where posted_after_minor <> fold_posted or pending_after_minor <> fold_pending`,
    ),
  );

  // A payout's transfers, in order, with the amount each moved on the funding account.
  const payouts = await queryRows<{
    id: string;
    status: string;
    held_from_status: string | null;
    funding_status: string;
    funding_account_id: string | null;
    amount_minor: string;
    dispatched: boolean;
    steps: string[] | null;
    funding_moves: string[] | null;
  }>(
    db,
    sql`select p.id, p.status::text, p.held_from_status::text, p.funding_status, p.funding_account_id,
               p.amount_minor::text, (p.disbursement_started_at is not null or p.rail_ref is not null) as dispatched,
               (select array_agg(t.step order by t.step) from ledger_transfers t
                  where t.cause_type = 'payout' and t.cause_id = p.id::text) as steps,
               (select array_agg(t.step || ':' || coalesce((
                          select sum(e.amount_minor) from ledger_entries e join ledger_accounts a on a.id = e.ledger_account_id
                          where e.transfer_id = t.id and a.funding_account_id is not null and e.pending = (t.step <> 'reverse' and t.step <> 'post')), 0)
                        order by t.seq)
                  from ledger_transfers t where t.cause_type = 'payout' and t.cause_id = p.id::text) as funding_moves
        from payouts p where ${scoped("p.business_id", scope)}`,
  );
  for (const p of payouts) {
    const steps = p.steps ?? [];
    const count = (step: string) => steps.filter((s) => s === step).length;
    const once = ["hold", "post", "void", "reverse"].every((step) => count(step) <= 1);
    const ordered =
      !(count("post") > 0 && count("void") > 0) &&
      count("post") + count("void") <= count("hold") &&
      count("reverse") <= count("post");
    if (!once || !ordered) report("one_step_per_hold", [{ payout: p.id, steps }]);

    const amount = n(p.amount_minor);
    // hold: funding's pending entry is -amount; void: +amount (pending); post: -amount posted; reverse: +returned.
    const expected: Record<string, number> = { hold: -amount, void: amount, post: -amount, reverse: amount };
    for (const move of p.funding_moves ?? []) {
      const [step, value] = move.split(":") as [string, string];
      if (expected[step] !== undefined && n(value) !== expected[step]) {
        report("transfer_amounts", [{ payout: p.id, step, moved: n(value), expected: expected[step] }]);
      }
    }

    const allowed =
      p.status === "compliance_hold"
        ? p.held_from_status === "disbursed"
          ? ["posted"]
          : ["reserved"]
        : (FUNDING_STATUSES_OF_STATUS[p.status] ?? []);
    if (!allowed.includes(p.funding_status)) {
      report("funding_status_of_status", [{ payout: p.id, status: p.status, funding_status: p.funding_status }]);
    }
    const implied = STEPS_OF_FUNDING_STATUS[p.funding_status] ?? [];
    if (!implied.some((s) => s.join(",") === steps.join(","))) {
      report("transfers_of_status", [{ payout: p.id, status: p.status, funding_status: p.funding_status, steps }]);
    }
    if (p.dispatched && count("hold") === 0) {
      report("dispatched_only_when_held", [{ payout: p.id, status: p.status, funding_status: p.funding_status }]);
    }
  }
  return found;
}

/** The fold of a funding account's entries over transfers created at or before `at` (null: all). */
export async function foldAt(db: Db, fundingAccountId: string, at: Date | null): Promise<{ posted: number; pending: number }> {
  const [row] = await queryRows<{ posted: string; pending: string }>(
    db,
    sql`select coalesce(sum(e.amount_minor) filter (where not e.pending), 0)::text as posted,
               coalesce(-sum(e.amount_minor) filter (where e.pending), 0)::text as pending
        from ledger_entries e
        join ledger_accounts a on a.id = e.ledger_account_id
        join ledger_transfers t on t.id = e.transfer_id
        where a.funding_account_id = ${fundingAccountId}::uuid
          and (${at === null ? null : at.toISOString()}::timestamptz is null or t.created_at <= ${at === null ? null : at.toISOString()}::timestamptz)`,
  );
  return { posted: n(row?.posted ?? 0), pending: n(row?.pending ?? 0) };
}
