// A Beneficiary's sanctions screening in words (destination policy `screening: on`): its state, the hit it is
// about (the list, the listed entry, the name that matched, the score) and a link to its hits on the Screening
// page, where an admin clears or confirms them.
import { Anchor, Badge, Card, Group, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import type { Beneficiary } from "../../hooks/api/beneficiaries/types";
import { sanctionsListName, screeningStatusName } from "../../lib/labels";
import { Time } from "../Time";

/** Shades that keep AA contrast with the text autoContrast picks. */
const COLORS: Readonly<Record<string, string>> = {
  not_screened: "gray.7",
  clear: "teal.9",
  potential_match: "red.8",
  cleared: "teal.9",
  confirmed_match: "red.9",
};

export function percent(score: number): string {
  return `${Math.round(score * 1000) / 10}%`;
}

export function ScreeningState({ b }: { b: Beneficiary }) {
  const match = b.screening_match;
  const blocked = b.screening_status === "potential_match" || b.screening_status === "confirmed_match";
  return (
    <Card withBorder data-testid="screening-state">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3">
            Sanctions screening
          </Title>
          <Badge color={COLORS[b.screening_status] ?? "gray.7"} variant="filled" autoContrast>
            {screeningStatusName(b.screening_status)}
          </Badge>
        </Group>
        {blocked && (
          <Text size="sm" c="red.9">
            {b.screening_status === "potential_match"
              ? "New payouts are refused and approved ones are held until an admin clears or confirms the hit."
              : "New payouts are refused and approved ones are held while the entry is listed."}
          </Text>
        )}
        {match !== null && (
          <Text size="sm">
            {sanctionsListName(match.list_id)}: “{match.entry_name}” (matched name “{match.matched_name}”, score{" "}
            {percent(match.score)})
          </Text>
        )}
        <Group gap="md" wrap="wrap">
          {b.screened_at !== null && (
            <Text size="sm" c="dimmed">
              Last screened <Time value={b.screened_at} />
            </Text>
          )}
          <Anchor component={Link} to={`/screening?beneficiary_id=${b.id}&status=all`} size="sm">
            Screening hits of {b.display_name}
          </Anchor>
        </Group>
      </Stack>
    </Card>
  );
}
