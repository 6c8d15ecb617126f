// One statement line as the bank booked it: money in or out, the amount, the dates, and every reference it carries
// (what a person compares with the candidates beside it).
import { Badge, Group, Stack, Text } from "@mantine/core";
import type { StatementLine } from "../../hooks/api/reconciliation/types";
import { Money } from "../Money";
import { directionName, referenceWords } from "./words";

export function LineFacts({ line, accountName }: { line: StatementLine; accountName: string }) {
  const references = referenceWords(line);
  return (
    <Stack gap={4} data-testid="line-facts">
      <Group gap="xs" wrap="wrap">
        <Text fw={700} size="lg">
          <Money minor={line.direction === "debit" ? -line.amount_minor : line.amount_minor} currency={line.currency} />
        </Text>
        <Badge color={line.direction === "debit" ? "#a33c00" : "teal.9"} variant="filled" autoContrast>
          {directionName(line.direction)}
        </Badge>
        {line.entry_status === "pending" && (
          <Badge color="gray.7" variant="outline">
            Pending at the bank: moves no money yet
          </Badge>
        )}
      </Group>
      <Text size="sm">
        Booked {line.booking_date ?? "on no date given"}
        {line.value_date !== null && line.value_date !== line.booking_date ? `, value date ${line.value_date}` : ""} ·{" "}
        {accountName}
      </Text>
      {line.remittance !== null && (
        <Text size="sm" style={{ overflowWrap: "anywhere" }}>
          “{line.remittance}”
        </Text>
      )}
      {line.review_reason !== null && (
        <Text size="sm" c="red.9" data-testid="review-reason">
          {line.review_reason}
        </Text>
      )}
      {references.length === 0 ? (
        <Text size="xs" c="dimmed">
          The bank gave no reference for this line.
        </Text>
      ) : (
        <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
          {references.join(" · ")}
        </Text>
      )}
    </Stack>
  );
}
