// One funding account's ledger transfers, newest first: what moved its balance, why (the payout or top-up behind
// each, a payout linking to its page), and the balances just after it.
import { Anchor, Text } from "@mantine/core";
import { Link } from "react-router";
import { useFundingTransfers } from "../../hooks/api/funding/queries";
import type { Transfer } from "../../hooks/api/funding/types";
import { useCursorPages } from "../../lib/use-cursor-pages";
import { type DataColumn, DataList } from "../DataList";
import { Money } from "../Money";
import { Time } from "../Time";

const STEP_LABELS: Record<Transfer["step"], string> = {
  hold: "Held",
  post: "Posted",
  void: "Hold released",
  reverse: "Returned",
  credit: "Credit",
  fee: "Fee",
};

const CAUSE_LABELS: Record<Transfer["cause"]["type"], string> = {
  payout: "Payout",
  top_up: "Top-up",
  sandbox_credit: "Sandbox credit",
  statement_line: "Statement line",
};

/** The change to the funding account itself: the sum of its entries (pending ones are holds). */
function fundingChange(transfer: Transfer): number {
  return transfer.entries.filter((e) => e.account === "funding").reduce((sum, e) => sum + e.amount_minor, 0);
}

export function TransfersList(props: { accountId: string; accountName: string }) {
  const pages = useCursorPages(props.accountId);
  const transfers = useFundingTransfers(props.accountId, pages.cursor);
  const columns: readonly DataColumn<Transfer>[] = [
    { header: "When", cell: (t) => <Time value={t.created_at} /> },
    { header: "What", cell: (t) => STEP_LABELS[t.step] },
    {
      header: "Why",
      // A payout links to its page; a top-up is listed below the accounts, a credit's other causes have no page.
      cell: (t) =>
        t.cause.type === "payout" ? (
          <Anchor component={Link} to={`/payouts/${t.cause.id}`} size="sm">
            {`Payout ${t.cause.id.slice(0, 8)}`}
          </Anchor>
        ) : (
          `${CAUSE_LABELS[t.cause.type]} ${t.cause.id.slice(0, 8)}`
        ),
    },
    { header: "Amount", align: "right", cell: (t) => <Money minor={fundingChange(t)} currency={t.currency} /> },
    { header: "Posted after", align: "right", cell: (t) => <Money minor={t.posted_after_minor} currency={t.currency} /> },
    { header: "Available after", align: "right", cell: (t) => <Money minor={t.available_after_minor} currency={t.currency} /> },
  ];
  return (
    <DataList
      rows={transfers.data?.transfers ?? []}
      rowKey={(t) => t.id}
      columns={columns}
      query={transfers}
      empty={<Text c="dimmed">Nothing has moved this account's balance yet.</Text>}
      rowTestId="transfer-row"
      minWidth={720}
      caption={`Transfers of ${props.accountName}`}
      pager={{ pages, nextCursor: transfers.data?.next_cursor, label: `Transfers of ${props.accountName}`, size: "xs" }}
    />
  );
}
