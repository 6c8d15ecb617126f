// The Developers page's webhook section, beside the API keys: the endpoint and its delivery log.
import { Divider, Stack, Text, Title } from "@mantine/core";
import { useSignedIn } from "../lib/session";
import { WebhookDeliveries } from "./WebhookDeliveries";
import { WebhookEndpoint } from "./WebhookEndpoint";

export function WebhooksSection() {
  const { environment } = useSignedIn();
  return (
    <Stack component="section" aria-labelledby="webhooks-heading" mt="xl" gap="md">
      <Divider />
      <Title order={2} id="webhooks-heading">
        Webhooks
      </Title>
      <Text c="dimmed" size="sm">
        One endpoint per environment receives the {environment} events you choose, signed with its secret. Failed deliveries are
        retried 8 times, then abandoned; an abandoned one can be redelivered.
      </Text>
      <WebhookEndpoint />
      <WebhookDeliveries />
    </Stack>
  );
}
