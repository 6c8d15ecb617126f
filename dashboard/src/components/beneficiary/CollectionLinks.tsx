// A Beneficiary's collection links: the live ones (resent or cancelled by an admin), a new one minted for a
// scope and optionally e-mailed, its URL shown once.
import { Alert, Button, Card, Checkbox, Group, Select, Stack, Text, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useSendCollectionLink } from "../../hooks/api/beneficiaries/mutations";
import type { Beneficiary, CollectionLinkInput, CollectionScope } from "../../hooks/api/beneficiaries/types";
import { ConfirmButton } from "../ConfirmButton";
import { CopyValue } from "../CopyValue";
import { MutationError } from "../MutationError";
import { Time } from "../Time";
import { DARK_TITLE } from "./alert-styles";

const SCOPES: Readonly<Record<CollectionScope, string>> = {
  full_onboarding: "Identity and payout destination",
  payout_destination: "Payout destination only",
  tax_documents: "Tax form (W-9, W-8BEN, W-8BEN-E)",
};

export function CollectionLinks(props: { b: Beneficiary; admin: boolean; onCancel: (requestId: string) => Promise<void> }) {
  const { b, admin } = props;
  const send = useSendCollectionLink(b.id);
  const form = useForm<CollectionLinkInput>({ initialValues: { scope: "payout_destination", sendEmail: true } });
  // The new link's URL, shown once: the answer of the last send (cleared while the next one runs).
  const created = send.data ?? null;

  return (
    <Card withBorder>
      <Title order={2} size="h3" mb="sm">
        Collection links
      </Title>
      <Text size="sm" mb="sm">
        A link lets the Beneficiary enter their own details. It lasts 7 days; a new link replaces the live one.
      </Text>
      {b.pending_requests.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="links-empty">
          No live link.
        </Text>
      ) : (
        <Stack gap="xs">
          {b.pending_requests.map((request) => (
            <Group key={request.id} justify="space-between" data-testid="pending-link">
              <Text size="sm">
                {SCOPES[request.scope]} · expires <Time value={request.expires_at} />
              </Text>
              {admin && (
                <Group gap="xs">
                  <Button
                    size="xs"
                    variant="default"
                    loading={send.isPending}
                    onClick={() => send.mutate({ scope: request.scope, sendEmail: true })}
                  >
                    Resend
                  </Button>
                  <ConfirmButton
                    size="xs"
                    variant="light"
                    color="red"
                    label="Cancel link"
                    title="Cancel this link?"
                    message="The link stops working at once."
                    confirmLabel="Cancel link"
                    onConfirm={() => props.onCancel(request.id)}
                  />
                </Group>
              )}
            </Group>
          ))}
        </Stack>
      )}
      {created !== null && (
        <Alert
          color="green"
          title="Link created: copy it now, it is shown only once"
          mt="sm"
          data-testid="new-link"
          styles={DARK_TITLE}
        >
          <CopyValue value={created.url} />
          <Text size="xs" mt={4}>
            {created.email_sent ? "An invitation e-mail was sent." : "No e-mail was sent: pass the link on yourself."} Expires{" "}
            <Time value={created.expires_at} />.
          </Text>
        </Alert>
      )}
      <MutationError mutation={send} title="Could not create the link" />
      {admin && (
        <form onSubmit={form.onSubmit((values) => send.mutate(values))}>
          <Group align="flex-end" mt="sm">
            <Select
              label="What to collect"
              data={Object.entries(SCOPES).map(([value, label]) => ({ value, label }))}
              value={form.values.scope}
              onChange={(value) => form.setFieldValue("scope", (value as CollectionScope | null) ?? "payout_destination")}
              allowDeselect={false}
              w={280}
            />
            <Checkbox label="E-mail it to the Beneficiary" {...form.getInputProps("sendEmail", { type: "checkbox" })} />
            <Button type="submit" loading={send.isPending}>
              Send link
            </Button>
          </Group>
        </form>
      )}
    </Card>
  );
}
