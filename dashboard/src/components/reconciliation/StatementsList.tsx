// The statements received, newest first: format, period, account, how their lines ended up, and the balance check
// in words (the bank's closing balance against the service's at that date, the difference, a missing statement).
import { Badge, Stack, Text } from "@mantine/core";
import { useBankStatements } from "../../hooks/api/reconciliation/queries";
import type { BankStatement } from "../../hooks/api/reconciliation/types";
import { useCursorPages } from "../../lib/use-cursor-pages";
import { type DataColumn, DataList } from "../DataList";
import { Money } from "../Money";
import { Time } from "../Time";
import { balanceCheckWords, balanceStatus, formatName, linesByStatusWords, periodWords, sourceName } from "./words";

export function BalanceCheckCell({ statement }: { statement: BankStatement }) {
  const check = statement.balance_check;
  const status = balanceStatus(check.status);
  return (
    <Stack gap={2}>
      <Badge color={status.color} variant="filled" autoContrast styles={{ root: { minWidth: "max-content" } }}>
        {status.label}
      </Badge>
      <Text size="xs">{balanceCheckWords(check, statement.currency)}</Text>
    </Stack>
  );
}

export function StatementsList(props: { accountName: (id: string) => string }) {
  const pages = useCursorPages("statements");
  const statements = useBankStatements(pages.cursor);
  const columns: readonly DataColumn<BankStatement>[] = [
    {
      header: "Received",
      cell: (s) => (
        <Stack gap={0}>
          <Time value={s.created_at} />
          <Text size="xs" c="dimmed">
            {sourceName(s.source)}
          </Text>
        </Stack>
      ),
    },
    {
      header: "Statement",
      cell: (s) => (
        <Stack gap={0}>
          <Text size="sm">{formatName(s.format)}</Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
            {s.statement_id}
            {s.sequence_number === null ? "" : ` · number ${s.sequence_number}`}
          </Text>
        </Stack>
      ),
    },
    { header: "Period", cell: (s) => <span style={{ whiteSpace: "nowrap" }}>{periodWords(s)}</span> },
    { header: "Account", cell: (s) => `${props.accountName(s.funding_account_id)} · ${s.currency}` },
    {
      header: "Closing balance",
      align: "right",
      cell: (s) => (s.closing_booked_minor === null ? "—" : <Money minor={s.closing_booked_minor} currency={s.currency} />),
    },
    {
      header: "Lines",
      cell: (s) => (
        <Stack gap={0}>
          <Text size="sm">{s.line_count}</Text>
          <Text size="xs" c="dimmed">
            {linesByStatusWords(s.lines_by_status)}
          </Text>
        </Stack>
      ),
    },
    { header: "Balance check", cell: (s) => <BalanceCheckCell statement={s} />, width: 280 },
  ];
  return (
    <DataList
      rows={statements.data?.bank_statements ?? []}
      rowKey={(s) => s.id}
      columns={columns}
      query={statements}
      errorTitle="The statements could not be read"
      empty="No statement yet: upload one, or configure a bank rail whose inbound folder receives them."
      emptyTestId="no-statements"
      rowTestId="statement-row"
      minWidth={1000}
      caption="Statements received"
      pager={{ pages, nextCursor: statements.data?.next_cursor, label: "Statements, pages" }}
    />
  );
}
