// Settings > Bank rails: the SEPA and ACH rails of production, each with what is configured (cut-offs in the
// rail's own time zone, where files go), "Set up"/"Edit" (the form), "Test connection" (logs in and lists the
// folders, sends nothing) and removal; a link to the Bank files page. Admins change them (after a recent
// confirmation); other members read. Sandbox has no bank rails: it says so and offers the switch.
import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import { useRemoveBankRail, useTestBankRailConnection } from "../../hooks/api/bank-rails/mutations";
import { useBankRails } from "../../hooks/api/bank-rails/queries";
import type { BankRail, BankRailName } from "../../hooks/api/bank-rails/types";
import { settle } from "../../hooks/api/use-api-mutation";
import { useSession, useSignedIn } from "../../lib/session";
import { ConfirmButton } from "../ConfirmButton";
import { ErrorAlert } from "../ErrorAlert";
import { MutationError } from "../MutationError";
import { ConnectionTestResult } from "./ConnectionTestResult";
import { RailForm } from "./RailForm";

const RAILS: ReadonlyArray<{ rail: BankRailName; name: string; what: string }> = [
  { rail: "sepa", name: "SEPA credit transfers", what: "EUR payouts to IBANs in the SEPA zone, as pain.001 files." },
  { rail: "ach", name: "US ACH", what: "USD payouts to US bank accounts, as NACHA files." },
];

export function BankRailsSettings() {
  const { environment, membership } = useSignedIn();
  const { setEnvironment } = useSession();
  const rails = useBankRails();
  const admin = membership.role === "business_admin";
  if (environment === "sandbox") {
    return (
      <Alert color="blue" title="Bank rails are for production" data-testid="bank-rails-sandbox">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">Sandbox payouts always go to the sandbox rail. Bank rails send real payment files to your bank.</Text>
          <Button size="xs" onClick={() => setEnvironment("production")}>
            Switch to Production
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (rails.isPending) return <Text c="dimmed">Loading the bank rails…</Text>;
  if (rails.isError) return <ErrorAlert error={rails.error} />;
  return (
    <Stack>
      <Text size="sm">
        Payouts in production go to the bank rail that fits them; with none configured they go to the production simulator. Files
        sent and received are on the{" "}
        <Anchor component={Link} to="/bank-files">
          Bank files
        </Anchor>{" "}
        page.
      </Text>
      {!admin && (
        <Text size="sm" c="dimmed">
          Only admins change the bank rails.
        </Text>
      )}
      {RAILS.map((r) => (
        <RailCard key={r.rail} {...r} current={rails.data.bank_rails.find((b) => b.rail === r.rail)} admin={admin} />
      ))}
    </Stack>
  );
}

function RailCard({
  rail,
  name,
  what,
  current,
  admin,
}: {
  rail: BankRailName;
  name: string;
  what: string;
  current: BankRail | undefined;
  admin: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const test = useTestBankRailConnection();
  const remove = useRemoveBankRail();
  const d = current?.delivery;
  return (
    <Card withBorder component="section" aria-labelledby={`rail-${rail}`} data-testid={`rail-${rail}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id={`rail-${rail}`}>
            {name}
          </Title>
          <Badge color={current ? "teal.9" : "gray.7"} variant="filled" autoContrast>
            {current ? "Configured" : "Not configured"}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {what}
        </Text>
        {current && d && (
          <Stack gap={2}>
            <Text size="sm" data-testid={`rail-${rail}-cutoffs`}>
              Cut-offs: {current.cutoff_times.join(", ")} ({current.time_zone} time)
            </Text>
            <Text size="sm" style={{ overflowWrap: "anywhere" }}>
              {d.kind === "sftp"
                ? `Delivery: SFTP to ${d.username}@${d.host}:${d.port}, files to "${d.outbound_directory}", answers from "${d.inbound_directory}"; ${d.has_private_key ? "private key" : d.has_password ? "password" : "no credential"} stored.`
                : `Delivery: local folders "${d.outbound_directory}" and "${d.inbound_directory}".`}
            </Text>
            {current.openpgp && <Text size="sm">Files encrypted with OpenPGP.</Text>}
          </Stack>
        )}
        {admin && (
          <Group gap="xs" wrap="wrap">
            <Button size="xs" variant={editing ? "default" : "filled"} onClick={() => setEditing((e) => !e)}>
              {editing ? "Close the form" : current ? `Edit ${rail.toUpperCase()} rail` : `Set up ${rail.toUpperCase()} rail`}
            </Button>
            {current && (
              <Button size="xs" variant="outline" loading={test.isPending} onClick={() => void settle(test.mutateAsync(rail))}>
                Test connection
              </Button>
            )}
            {current && (
              <ConfirmButton
                size="xs"
                variant="subtle"
                color="red"
                label="Remove rail"
                title={`Remove the ${rail.toUpperCase()} rail?`}
                message="Its payouts go to the production simulator again. Files already sent stay listed."
                confirmLabel="Remove rail"
                onConfirm={() => settle(remove.mutateAsync(rail))}
              />
            )}
          </Group>
        )}
        {test.data && !test.isPending && <ConnectionTestResult result={test.data} />}
        <MutationError mutation={test} title="The connection could not be tested" />
        <MutationError mutation={remove} title="The rail was not removed" />
        {admin && editing && (
          <RailForm
            rail={rail}
            current={current}
            onSaved={() => {
              setEditing(false);
              test.reset();
            }}
          />
        )}
      </Stack>
    </Card>
  );
}
