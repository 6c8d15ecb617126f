// Bank files: what was sent to the bank (status, what each file moved, download for admins) and what the bank
// sent back (status, what each moved, problems in words). Production only; the rails are in Settings.
import { Alert, Anchor, Button, Stack, Tabs, Text, Title } from "@mantine/core";
import { Link, useSearchParams } from "react-router";
import { InboundFiles } from "../components/bank-rails/InboundFiles";
import { OutboundFiles } from "../components/bank-rails/OutboundFiles";
import { useSession, useSignedIn } from "../lib/session";

export function BankFilesPage() {
  const { environment, membership } = useSignedIn();
  const { setEnvironment } = useSession();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "received" ? "received" : "sent";
  return (
    <Stack>
      <Title order={1}>Bank files</Title>
      <Text size="sm">
        The payment files sent to your bank at each cut-off and the files your bank sent back. The rails are set up in{" "}
        <Anchor component={Link} to="/settings?tab=bank-rails">
          Settings, Bank rails
        </Anchor>
        .
      </Text>
      {environment === "sandbox" ? (
        <Alert color="blue" title="Bank files are for production">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">Sandbox payouts go to the sandbox rail, which sends no file.</Text>
            <Button size="xs" onClick={() => setEnvironment("production")}>
              Switch to Production
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Tabs value={tab} onChange={(value) => setParams(value === "received" ? { tab: "received" } : {})} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="sent">Sent to the bank</Tabs.Tab>
            <Tabs.Tab value="received">Received from the bank</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="sent" pt="md">
            <OutboundFiles admin={membership.role === "business_admin"} />
          </Tabs.Panel>
          <Tabs.Panel value="received" pt="md">
            <InboundFiles />
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}
