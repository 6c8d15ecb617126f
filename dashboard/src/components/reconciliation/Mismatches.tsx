// Statements whose closing balance differs from the service's, or that arrived after a gap in the bank's
// numbering: what differs in words, then what people do. An approver or admin resolves a difference with a
// reason (kept, audited); an admin may instead take the account's first statement's opening balance as its
// starting balance (a new account whose history before the service is only on the bank's side).
import { Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { useAcceptOpeningBalance, useResolveMismatch } from "../../hooks/api/reconciliation/mutations";
import { MISMATCH_SCAN, useMismatchedStatements } from "../../hooks/api/reconciliation/queries";
import type { BankStatement } from "../../hooks/api/reconciliation/types";
import { settle } from "../../hooks/api/use-api-mutation";
import { formatMoney } from "../../lib/money";
import { ConfirmButton } from "../ConfirmButton";
import { ErrorAlert } from "../ErrorAlert";
import { MutationError } from "../MutationError";
import { Time } from "../Time";
import { ReasonDialog } from "./ReasonDialog";
import { balanceCheckWords, differenceWords, formatName, periodWords } from "./words";

export function Mismatches(props: { decider: boolean; admin: boolean; accountName: (id: string) => string }) {
  const mismatches = useMismatchedStatements();
  if (mismatches.isPending) return <Text c="dimmed">Looking for balances that differ…</Text>;
  if (mismatches.isError) return <ErrorAlert error={mismatches.error} title="The statements could not be read" />;
  const { statements, more } = mismatches.data;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Each statement's closing booked balance is compared with the service's balance of the account at that date. A difference
        stays here until someone explains it.
      </Text>
      {statements.length === 0 ? (
        <Text c="dimmed" data-testid="no-mismatches">
          No difference: every checked closing balance agrees with the service's.
        </Text>
      ) : (
        statements.map((s) => <Mismatch key={s.id} statement={s} {...props} />)
      )}
      {more && (
        <Text size="xs" c="dimmed">
          Only the newest {MISMATCH_SCAN} statements were looked through.
        </Text>
      )}
    </Stack>
  );
}

function Mismatch(props: { statement: BankStatement; decider: boolean; admin: boolean; accountName: (id: string) => string }) {
  const { statement } = props;
  const [resolving, setResolving] = useState(false);
  const resolve = useResolveMismatch();
  const accept = useAcceptOpeningBalance();
  const account = props.accountName(statement.funding_account_id);
  const difference = differenceWords(statement.balance_check, statement.currency);
  return (
    <Card
      withBorder
      component="article"
      aria-label={`Difference on ${account}, ${periodWords(statement)}`}
      data-testid="mismatch"
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} size="h5">
            {account} · {periodWords(statement)}
          </Title>
          {difference !== null && (
            <Text fw={700} c="red.9">
              The bank's is {difference}
            </Text>
          )}
        </Group>
        <Text size="sm">{balanceCheckWords(statement.balance_check, statement.currency)}</Text>
        <Text size="xs" c="dimmed">
          {formatName(statement.format)} {statement.statement_id}, received <Time value={statement.created_at} />
        </Text>
        {props.decider ? (
          <Group gap="xs" wrap="wrap">
            <Button size="xs" onClick={() => setResolving(true)}>
              Resolve…
            </Button>
            {props.admin && statement.opening_booked_minor !== null && (
              <ConfirmButton
                size="xs"
                variant="default"
                label="Accept the opening balance"
                title="Start the account from the bank's balance?"
                message={`The account's starting balance becomes this statement's opening balance, ${formatMoney(statement.opening_booked_minor, statement.currency)}. Only the account's first statement can set it; it is recorded in the audit log.`}
                confirmLabel="Accept opening balance"
                onConfirm={() => settle(accept.mutateAsync(statement.id))}
              />
            )}
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            An approver or admin resolves differences.
          </Text>
        )}
        <MutationError mutation={accept} title="The opening balance was not accepted" />
      </Stack>
      {resolving && (
        <ReasonDialog
          title="Resolve the difference"
          submitLabel="Mark resolved"
          errorTitle="The difference was not resolved"
          explanation={`Say what explains the difference on ${account}. It stays on the statement, and the audit log records who resolved it.`}
          busy={resolve.isPending}
          error={resolve.error}
          onSubmit={(reason, done) => resolve.mutate({ statementId: statement.id, reason }, done)}
          onClose={() => {
            resolve.reset();
            setResolving(false);
          }}
        />
      )}
    </Card>
  );
}
