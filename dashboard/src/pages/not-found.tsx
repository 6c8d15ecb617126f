// An address the dashboard has no page for: said so, with the way back, instead of silently showing Home.
import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { Link, useLocation } from "react-router";

export function NotFoundPage() {
  const location = useLocation();
  return (
    <Stack maw={560} data-testid="not-found">
      <Title order={1}>Page not found</Title>
      <Text>
        The dashboard has no page at <code>{location.pathname}</code>. The link may be mistyped or out of date.
      </Text>
      <Group>
        <Button component={Link} to="/">
          Go to Home
        </Button>
        <Button component={Link} to="/payouts" variant="default">
          Payouts
        </Button>
        <Button component={Link} to="/beneficiaries" variant="default">
          Beneficiaries
        </Button>
      </Group>
    </Stack>
  );
}
