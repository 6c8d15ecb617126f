// The review queue: each line the rules would not decide alone (two payouts of the same amount, a batch that does
// not add up), the line on the left and its candidates on the right (payee, amount, when it was created). One
// click matches a candidate; several selected are matched together (a batch the bank booked as one line); a line
// that is nobody's is ignored with a reason. People who only read see the same queue without the buttons.
import { Anchor, Button, Card, Grid, Group, Stack, Text, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useState } from "react";
import { Link } from "react-router";
import { useMatchLine } from "../../hooks/api/reconciliation/mutations";
import { useStatementLines } from "../../hooks/api/reconciliation/queries";
import type { Candidate, StatementLine } from "../../hooks/api/reconciliation/types";
import { formatMoney } from "../../lib/money";
import { useCursorPages } from "../../lib/use-cursor-pages";
import { CursorPager, type DataColumn, DataList } from "../DataList";
import { ErrorAlert } from "../ErrorAlert";
import { Money } from "../Money";
import { MutationError } from "../MutationError";
import { Time } from "../Time";
import { LineActions } from "./LineActions";
import { LineFacts } from "./LineFacts";

const payeeName = (c: Candidate) => c.payee.display_name ?? "Payee without a name";
const destinationWords = (c: Candidate) => `Account •••• ${c.payee.destination_last4}`;

export function ReviewQueue(props: { decider: boolean; accountName: (id: string) => string }) {
  const pages = useCursorPages("needs_review");
  const lines = useStatementLines({ status: "needs_review", fundingAccountId: null, statementId: null }, pages.cursor, 10);
  const rows = lines.data?.statement_lines ?? [];
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Lines the rules did not match alone: more than one payout fits, or none fits exactly. Nothing is guessed: pick the payout
        (or the payouts of a batch the bank booked as one line), or ignore the line with a reason.
      </Text>
      <ErrorAlert error={lines.error} title="The review queue could not be read" />
      {lines.isPending ? (
        <Text c="dimmed">Loading the review queue…</Text>
      ) : rows.length === 0 && lines.error === null ? (
        <Text c="dimmed" data-testid="review-empty">
          Nothing to review: every line is matched or explained.
        </Text>
      ) : (
        rows.map((line) => <ReviewItem key={line.id} line={line} decider={props.decider} accountName={props.accountName} />)
      )}
      <CursorPager pages={pages} nextCursor={lines.data?.next_cursor} label="Review queue pages" />
    </Stack>
  );
}

function ReviewItem(props: { line: StatementLine; decider: boolean; accountName: (id: string) => string }) {
  const { line } = props;
  const match = useMatchLine();
  const phone = useMediaQuery("(max-width: 40em)") ?? false;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const chosen = line.candidates.filter((c) => selected.has(c.payout_id));
  const chosenMinor = chosen.reduce((sum, c) => sum + c.amount_minor, 0);
  const matchPayouts = (ids: readonly string[]) => match.mutate({ lineId: line.id, target: { payoutIds: ids } });
  // The payouts of the match in flight: its button shows it is busy, the others wait.
  const target = match.isPending ? match.variables?.target : undefined;
  const inFlight = target !== undefined && "payoutIds" in target ? target.payoutIds : [];
  const label = `${formatMoney(line.amount_minor, line.currency)} booked ${line.booking_date ?? ""}`.trim();
  const payee = (c: Candidate) => (
    <Anchor component={Link} to={`/beneficiaries/${c.payee.beneficiary_id}`} size="sm">
      {payeeName(c)}
    </Anchor>
  );
  const payoutLink = (c: Candidate) => (
    <Anchor component={Link} to={`/payouts/${c.payout_id}`} size="sm">
      Payout {c.payout_id.slice(-8)}
    </Anchor>
  );
  const matchButton: DataColumn<Candidate>[] = props.decider
    ? [
        {
          header: "Match",
          hiddenHeader: true,
          cell: (c) => (
            <Button
              size="xs"
              color="teal.9"
              loading={inFlight.length === 1 && inFlight[0] === c.payout_id}
              disabled={match.isPending}
              onClick={() => matchPayouts([c.payout_id])}
              aria-label={`Match ${payeeName(c)}, ${formatMoney(c.amount_minor, c.currency)}`}
            >
              Match
            </Button>
          ),
        },
      ]
    : [];
  // On a phone the candidate's facts are one cell, so the Match button stays on the screen.
  const columns: DataColumn<Candidate>[] = phone
    ? [
        {
          header: "Candidate",
          cell: (c) => (
            <Stack gap={0}>
              <Text size="sm" fw={600}>
                {payee(c)}
              </Text>
              <Text size="xs">{destinationWords(c)}</Text>
              <Text size="sm">
                <Money minor={c.amount_minor} currency={c.currency} />
              </Text>
              <Text size="xs" c="dimmed">
                Created <Time value={c.created_at} />
              </Text>
              {payoutLink(c)}
            </Stack>
          ),
        },
        ...matchButton,
      ]
    : [
        {
          header: "Payee",
          cell: (c) => (
            <Stack gap={0}>
              {payee(c)}
              <Text size="xs">{destinationWords(c)}</Text>
            </Stack>
          ),
        },
        { header: "Amount", align: "right", cell: (c) => <Money minor={c.amount_minor} currency={c.currency} /> },
        { header: "Created", cell: (c) => <Time value={c.created_at} /> },
        { header: "Payout", cell: payoutLink },
        ...matchButton,
      ];
  return (
    <Card withBorder component="article" aria-label={`Line ${label}`} data-testid="review-item">
      <Grid>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="xs">
            <Title order={3} size="h5">
              The bank's line
            </Title>
            <LineFacts line={line} accountName={props.accountName(line.funding_account_id)} />
            <LineActions line={line} decider={props.decider} offerMatch />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="xs">
            <Title order={3} size="h5">
              {line.candidates.length === 0
                ? "No candidate"
                : `${line.candidates.length} candidate${line.candidates.length === 1 ? "" : "s"}`}
            </Title>
            <DataList
              rows={line.candidates}
              rowKey={(c) => c.payout_id}
              columns={columns}
              empty="No payout fits this line's amount, account and dates. Match one by its id, or ignore the line."
              rowTestId="candidate-row"
              minWidth={phone ? 280 : 520}
              caption={`Candidates for the line of ${label}`}
              tableProps={{ fz: "sm" }}
              {...(props.decider && line.candidates.length > 1
                ? {
                    selection: {
                      isSelected: (c: Candidate) => selected.has(c.payout_id),
                      onToggle: (c: Candidate, on: boolean) => {
                        const next = new Set(selected);
                        if (on) next.add(c.payout_id);
                        else next.delete(c.payout_id);
                        setSelected(next);
                      },
                      rowLabel: (c: Candidate) => `Select ${payeeName(c)}, ${formatMoney(c.amount_minor, c.currency)}`,
                    },
                  }
                : {})}
            />
            {props.decider && line.candidates.length > 1 && (
              <Group gap="xs" wrap="wrap">
                <Button
                  size="xs"
                  variant="default"
                  disabled={chosen.length < 2 || match.isPending}
                  loading={inFlight.length > 1}
                  onClick={() => matchPayouts(chosen.map((c) => c.payout_id))}
                >
                  {chosen.length < 2
                    ? "Select two or more to match as one booking"
                    : `Match the ${chosen.length} selected as one booking`}
                </Button>
                {chosen.length > 0 && (
                  <Text size="sm" role="status">
                    Selected <Money minor={chosenMinor} currency={line.currency} /> of the line's{" "}
                    <Money minor={line.amount_minor} currency={line.currency} />
                    {chosenMinor === line.amount_minor ? ": they add up" : ""}
                  </Text>
                )}
              </Group>
            )}
            <MutationError mutation={match} title="The line was not matched" />
          </Stack>
        </Grid.Col>
      </Grid>
    </Card>
  );
}
