// The signed-in frame: header with the Business, the environment switch (always visible) and sign-out; the
// navigation; a coloured banner on every page of the sandbox so it is never mistaken for production.
import {
  AppShell,
  Badge,
  Box,
  Burger,
  Button,
  Center,
  Group,
  Loader,
  NavLink,
  SegmentedControl,
  Select,
  Text,
  VisuallyHidden,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { Suspense } from "react";
import { Link, Outlet, useLocation, useNavigate } from "react-router";
import type { Environment } from "../api/client";
import { usePendingCount } from "../hooks/api/payouts/summary-queries";
import { useProductionSimulator } from "../hooks/api/production-rail/queries";
import { useSignOut, useSwitchBusiness } from "../hooks/api/session/mutations";
import { roleName } from "../lib/labels";
import { useSession, useSignedIn } from "../lib/session";
import { MutationError } from "./MutationError";

const NAV = [
  { to: "/", label: "Home" },
  { to: "/approvals", label: "Approvals" },
  { to: "/payouts", label: "Payouts" },
  { to: "/balances", label: "Balances" },
  { to: "/reconciliation", label: "Reconciliation" },
  { to: "/screening", label: "Screening" },
  { to: "/uploads", label: "Bulk upload" },
  { to: "/beneficiaries", label: "Beneficiaries" },
  { to: "/developers", label: "Developers" },
  { to: "/team", label: "Team" },
  // Admins only: where they watch the bank rails they set up in Settings.
  { to: "/bank-files", label: "Bank files", adminOnly: true },
  { to: "/settings", label: "Settings" },
] as const;

export function Layout() {
  const session = useSignedIn();
  const { setEnvironment } = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const navigate = useNavigate();
  const pending = usePendingCount();
  const switchBusiness = useSwitchBusiness();
  const signOut = useSignOut();
  const sandbox = session.environment === "sandbox";
  const simulator = useProductionSimulator() === true;
  const bannered = sandbox || simulator;

  const switchTo = (businessId: string | null) => {
    if (businessId === null || businessId === session.membership.business_id) return;
    switchBusiness.mutate(businessId, { onSuccess: () => navigate("/") });
  };
  // Signed out here whatever the API answered (the session is forgotten either way); on to the sign-in page.
  const signOutHere = () =>
    void signOut.mutateAsync().then(
      () => navigate("/sign-in"),
      () => undefined,
    );

  return (
    <AppShell
      header={{ height: bannered ? 92 : 60 }}
      navbar={{ width: 220, breakpoint: "sm", collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        {sandbox && (
          <Box bg="orange.5" c="black" px="md" py={6} role="status" data-testid="sandbox-banner">
            <Text size="sm" fw={700}>
              Sandbox: test data only. No real money moves.
            </Text>
          </Box>
        )}
        {simulator && (
          // Production with no bank rail: payouts go to the production simulator, so nothing real moves either.
          <Box bg="grape.8" c="white" px="md" py={6} role="status" data-testid="simulator-banner">
            <Text size="sm" fw={700} truncate>
              Production simulator: no bank rail is configured, so no real money moves.
            </Text>
          </Box>
        )}
        <Group h={60} px="md" justify="space-between" wrap="nowrap">
          {/* The Business name gives way on a phone, never the environment switch: it must stay whole. */}
          <Group gap="sm" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            {session.memberships.length > 1 ? (
              <Select
                aria-label="Business"
                size="xs"
                w={{ base: 110, xs: 180 }}
                data={session.memberships.map((m) => ({ value: m.business_id, label: m.business_name }))}
                value={session.membership.business_id}
                onChange={switchTo}
                allowDeselect={false}
              />
            ) : (
              <Text fw={700} truncate style={{ minWidth: 0 }}>
                {session.membership.business_name}
              </Text>
            )}
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            <Box>
              <VisuallyHidden id="environment-label">Environment</VisuallyHidden>
              <SegmentedControl
                aria-labelledby="environment-label"
                size="xs"
                // Dark enough for white text at AA contrast.
                color={sandbox ? "#a33c00" : "blue.8"}
                autoContrast
                value={session.environment}
                onChange={(value) => setEnvironment(value as Environment)}
                data={[
                  { value: "sandbox", label: "Sandbox" },
                  { value: "production", label: "Production" },
                ]}
              />
            </Box>
            <Button variant="subtle" size="xs" onClick={signOutHere} visibleFrom="xs">
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main">
        {NAV.filter((item) => !("adminOnly" in item) || session.membership.role === "business_admin").map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            variant="filled"
            active={item.to === "/" ? location.pathname === "/" : location.pathname.startsWith(item.to)}
            onClick={close}
            rightSection={
              item.to === "/approvals" && pending.data !== undefined && pending.data.count > 0 ? (
                <Badge size="sm" color="red" aria-label={`${pending.data.count}${pending.data.more ? "+" : ""} pending`}>
                  {pending.data.count}
                  {pending.data.more ? "+" : ""}
                </Badge>
              ) : undefined
            }
          />
        ))}
        <Box hiddenFrom="xs" mt="md">
          <Button variant="subtle" size="xs" onClick={signOutHere}>
            Sign out
          </Button>
        </Box>
        <Text size="xs" c="dimmed" mt="auto" p="xs">
          {session.user.email} · {roleName(session.membership.role)}
        </Text>
      </AppShell.Navbar>
      <AppShell.Main>
        <Box maw={1200}>
          <MutationError mutation={switchBusiness} title="Could not switch Business" />
          <Suspense
            fallback={
              <Center py="xl">
                <Loader aria-label="Loading" />
              </Center>
            }
          >
            <Outlet />
          </Suspense>
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
