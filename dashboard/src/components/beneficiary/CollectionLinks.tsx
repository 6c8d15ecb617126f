// A Beneficiary's collection links: the live ones (resent or cancelled by an admin), a new one minted for a
// scope and optionally e-mailed, its URL shown once.
import { Alert, Button, Card, Checkbox, Group, Select, Stack, Text, Title } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, call, type Schemas } from "../../api/client";
import { useSignedIn } from "../../lib/session";
import type { Beneficiary } from "../../pages/beneficiaries";
import { ConfirmButton } from "../ConfirmButton";
import { CopyValue } from "../CopyValue";
import { ErrorAlert } from "../ErrorAlert";
import { Time } from "../Time";
import { DARK_TITLE } from "./alert-styles";

type Scope = "full_onboarding" | "payout_destination" | "tax_documents";

const SCOPES: Readonly<Record<Scope, string>> = {
  full_onboarding: "Identity and payout destination",
  payout_destination: "Payout destination only",
  tax_documents: "Tax form (W-9, W-8BEN, W-8BEN-E)",
};

export function CollectionLinks(props: {
  b: Beneficiary;
  admin: boolean;
  run: (action: () => Promise<unknown>) => Promise<void>;
}) {
  const { b, admin } = props;
  const { environment } = useSignedIn();
  const queryClient = useQueryClient();
  const [scope, setScope] = useState<Scope>("payout_destination");
  const [sendEmail, setSendEmail] = useState(true);
  const [created, setCreated] = useState<Schemas["CollectionRequestCreated"] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const mint = async (chosen: Scope, email: boolean) => {
    setBusy(true);
    setError(null);
    setCreated(null);
    try {
      setCreated(
        await call(
          api.POST("/v1/beneficiaries/{id}/collection-requests", {
            params: { path: { id: b.id } },
            body: { scope: chosen, send_email: email },
          }),
        ),
      );
      await queryClient.invalidateQueries({ queryKey: [environment, "beneficiaries"] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

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
                  <Button size="xs" variant="default" loading={busy} onClick={() => void mint(request.scope, true)}>
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
                    onConfirm={() =>
                      props.run(() =>
                        call(
                          api.DELETE("/v1/beneficiaries/{id}/collection-requests/{requestId}", {
                            params: { path: { id: b.id, requestId: request.id } },
                          }),
                        ),
                      )
                    }
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
      <ErrorAlert error={error} title="Could not create the link" />
      {admin && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void mint(scope, sendEmail);
          }}
        >
          <Group align="flex-end" mt="sm">
            <Select
              label="What to collect"
              data={Object.entries(SCOPES).map(([value, label]) => ({ value, label }))}
              value={scope}
              onChange={(value) => setScope((value as Scope | null) ?? "payout_destination")}
              allowDeselect={false}
              w={280}
            />
            <Checkbox
              label="E-mail it to the Beneficiary"
              checked={sendEmail}
              onChange={(e) => setSendEmail(e.currentTarget.checked)}
            />
            <Button type="submit" loading={busy}>
              Send link
            </Button>
          </Group>
        </form>
      )}
    </Card>
  );
}
