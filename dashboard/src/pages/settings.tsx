// Settings of the Business and of the signed-in person, one tab each (the tab is in the address, `?tab=`, so
// a link or a reload keeps it): the Business profile, the approval policy, security (my two-factor, my
// sessions, two-factor for every member), the audit log, the collection pages' branding and the bank rails. Every member
// sees what the API lets them read; admins change.
import { Alert, Button, Stack, Tabs, Text, Title } from "@mantine/core";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { BankRailsSettings } from "../components/bank-rails/BankRailsSettings";
import { ApprovalPolicyEditor } from "../components/settings/ApprovalPolicyEditor";
import { AuditLog } from "../components/settings/AuditLog";
import { BrandingSettings } from "../components/settings/BrandingSettings";
import { BusinessProfile } from "../components/settings/BusinessProfile";
import { DestinationPolicyEditor } from "../components/settings/DestinationPolicyEditor";
import { SessionsSection } from "../components/settings/MySessions";
import { RequireTwoFactorSection, TwoFactorSection } from "../components/settings/SecuritySettings";
import { useSignedIn } from "../lib/session";

const TABS = ["business", "approval-policy", "destination-policy", "security", "audit-log", "branding", "bank-rails"] as const;
type Tab = (typeof TABS)[number];

export function SettingsPage() {
  const { session } = useSignedIn();
  const [params, setParams] = useSearchParams();
  // Once enrolment is owed, this view stays until the person leaves it: confirming the enrolment clears
  // `next_step`, and the recovery codes it answers must still be on screen.
  const owes = session.next_step === "two_factor_enrolment";
  const [enrolling, setEnrolling] = useState(owes);
  if (owes && !enrolling) setEnrolling(true);
  if (enrolling) {
    return (
      <Stack>
        <Title order={1}>Settings</Title>
        {owes ? (
          <Alert color="yellow" title="Two-factor authentication is required" data-testid="enrolment-required">
            Your Business requires two-factor authentication for every member. Set it up to use the dashboard.
          </Alert>
        ) : (
          <Alert color="teal" title="Two-factor authentication is on">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">Store your recovery codes, then continue.</Text>
              <Button component={Link} to="/" size="xs">
                Continue to the dashboard
              </Button>
            </Stack>
          </Alert>
        )}
        <TwoFactorSection />
      </Stack>
    );
  }
  return <SettingsTabs params={params} setParams={setParams} />;
}

function SettingsTabs({ params, setParams }: { params: URLSearchParams; setParams: ReturnType<typeof useSearchParams>[1] }) {
  const requested = params.get("tab");
  const tab: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : "business";
  return (
    <Stack>
      <Title order={1}>Settings</Title>
      <Tabs
        value={tab}
        onChange={(value) => setParams(value === null || value === "business" ? {} : { tab: value })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="business">Business</Tabs.Tab>
          <Tabs.Tab value="approval-policy">Approval policy</Tabs.Tab>
          <Tabs.Tab value="destination-policy">Destination policy</Tabs.Tab>
          <Tabs.Tab value="security">Security</Tabs.Tab>
          <Tabs.Tab value="audit-log">Audit log</Tabs.Tab>
          <Tabs.Tab value="branding">Branding</Tabs.Tab>
          <Tabs.Tab value="bank-rails">Bank rails</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="business" pt="md">
          <BusinessProfile />
        </Tabs.Panel>
        <Tabs.Panel value="approval-policy" pt="md">
          <ApprovalPolicyEditor />
        </Tabs.Panel>
        <Tabs.Panel value="destination-policy" pt="md">
          <DestinationPolicyEditor />
        </Tabs.Panel>
        <Tabs.Panel value="security" pt="md">
          <Stack gap="xl">
            <TwoFactorSection />
            <SessionsSection />
            <RequireTwoFactorSection />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="audit-log" pt="md">
          <AuditLog />
        </Tabs.Panel>
        <Tabs.Panel value="branding" pt="md">
          <BrandingSettings />
        </Tabs.Panel>
        <Tabs.Panel value="bank-rails" pt="md">
          <BankRailsSettings />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
