// Statement lines of one status as a table, newest first: when the bank booked each, money in or out, the amount,
// what it carried, and what it was matched to (payouts linked to their pages) or why it was ignored; the actions
// of a line for people with the approver or admin role.
import { Anchor, Badge, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useStatementLines } from "../../hooks/api/reconciliation/queries";
import type { LineFilters, StatementLine } from "../../hooks/api/reconciliation/types";
import { useCursorPages } from "../../lib/use-cursor-pages";
import { type DataColumn, DataList } from "../DataList";
import { Money } from "../Money";
import { Time } from "../Time";
import { LineActions } from "./LineActions";
import { directionName, lineStatus, referenceWords, ruleWords } from "./words";

function Outcome({ line }: { line: StatementLine }) {
  if (line.status === "ignored")
    return (
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        Ignored: {line.ignored_reason ?? "no reason kept"}
      </Text>
    );
  if (line.match === null) {
    const status = lineStatus(line.status);
    return (
      <Badge color={status.color} variant="filled" autoContrast>
        {status.label}
      </Badge>
    );
  }
  const m = line.match;
  return (
    <Stack gap={2}>
      <Text size="sm">
        Matched {ruleWords(m.rule)} on <Time value={m.matched_at} />
      </Text>
      <Text size="sm">
        {m.top_up_id !== null
          ? `Top-up ${m.top_up_id.slice(-8)}`
          : m.payout_ids.map((id, i) => (
              <span key={id}>
                {i > 0 && ", "}
                <Anchor component={Link} to={`/payouts/${id}`} size="sm">
                  Payout {id.slice(-8)}
                </Anchor>
              </span>
            ))}
      </Text>
      {m.difference_minor !== 0 && (
        <Text size="xs">
          A difference of <Money minor={m.difference_minor} currency={line.currency} /> was booked as a bank fee.
        </Text>
      )}
    </Stack>
  );
}

export function LinesTable(props: {
  filters: LineFilters;
  decider: boolean;
  accountName: (id: string) => string;
  empty: ReactNode;
  caption: string;
  testId?: string;
}) {
  const pages = useCursorPages(JSON.stringify(props.filters));
  const lines = useStatementLines(props.filters, pages.cursor);
  const rows = lines.data?.statement_lines ?? [];
  const columns: readonly DataColumn<StatementLine>[] = [
    { header: "Booked", cell: (l) => <span style={{ whiteSpace: "nowrap" }}>{l.booking_date ?? "—"}</span> },
    { header: "Account", cell: (l) => props.accountName(l.funding_account_id) },
    { header: "Direction", cell: (l) => directionName(l.direction) },
    {
      header: "Amount",
      align: "right",
      cell: (l) => <Money minor={l.direction === "debit" ? -l.amount_minor : l.amount_minor} currency={l.currency} />,
    },
    {
      header: "What the bank says",
      cell: (l) => (
        <Stack gap={0}>
          {l.remittance !== null && <Text size="sm">{l.remittance}</Text>}
          <Text size="xs" c="dimmed">
            {referenceWords(l).join(" · ") || "No reference"}
          </Text>
        </Stack>
      ),
      breakAll: true,
    },
    { header: "Outcome", cell: (l) => <Outcome line={l} /> },
    ...(props.decider
      ? [{ header: "Actions", hiddenHeader: true, cell: (l: StatementLine) => <LineActions line={l} decider offerMatch /> }]
      : []),
  ];
  return (
    <DataList
      rows={rows}
      rowKey={(l) => l.id}
      columns={columns}
      query={lines}
      errorTitle="The lines could not be read"
      empty={props.empty}
      rowTestId={props.testId ?? "statement-line-row"}
      minWidth={900}
      caption={props.caption}
      pager={{ pages, nextCursor: lines.data?.next_cursor, label: `${props.caption}, pages` }}
    />
  );
}
