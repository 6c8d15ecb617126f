// One Beneficiary: identity, the derived status and what is still missing for `ready` in words, destinations
// masked (rail status, payout usability, rejection reason), adding a bank account with the API's messages
// beside the fields, the declared destination, deleting a destination (confirmed), collection links (the URL is
// shown once), acknowledgment, archiving and restoring. Each section is its own component under
// components/beneficiary/.
import { Anchor, Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { api, call } from "../api/client";
import { AddBankAccount } from "../components/beneficiary/AddBankAccount";
import { CollectionLinks } from "../components/beneficiary/CollectionLinks";
import { Destinations } from "../components/beneficiary/Destinations";
import { EditIdentityButton } from "../components/beneficiary/EditIdentity";
import { IdentityCard } from "../components/beneficiary/IdentityCard";
import { Readiness } from "../components/beneficiary/Readiness";
import { RetryEnrollment } from "../components/beneficiary/RetryEnrollment";
import { ConfirmButton } from "../components/ConfirmButton";
import { ErrorAlert } from "../components/ErrorAlert";
import { useSession, useSignedIn } from "../lib/session";
import { BeneficiaryStatusBadge } from "./beneficiaries";

export function BeneficiaryPage() {
  const { beneficiaryId = "" } = useParams();
  const session = useSignedIn();
  const { environment } = session;
  const { withStepUp } = useSession();
  const queryClient = useQueryClient();
  const admin = session.membership.role === "business_admin";
  const [actionError, setActionError] = useState<unknown>(null);
  const key = [environment, "beneficiaries", beneficiaryId];
  const beneficiary = useQuery({
    queryKey: [...key, "detail"],
    queryFn: () => call(api.GET("/v1/beneficiaries/{id}", { params: { path: { id: beneficiaryId } } })),
  });
  const destinations = useQuery({
    queryKey: [...key, "destinations"],
    queryFn: () => call(api.GET("/v1/beneficiaries/{id}/bank-accounts", { params: { path: { id: beneficiaryId } } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: [environment, "beneficiaries"] });
  const run = async (action: () => Promise<unknown>) => {
    setActionError(null);
    try {
      await withStepUp(action);
    } catch (error) {
      setActionError(error);
    }
    await refresh();
  };

  if (beneficiary.isPending) return <Text c="dimmed">Loading the Beneficiary…</Text>;
  if (beneficiary.error !== null)
    return (
      <Stack>
        <Anchor component={Link} to="/beneficiaries" size="sm">
          ← Beneficiaries
        </Anchor>
        <ErrorAlert error={beneficiary.error} title="Could not load the Beneficiary" />
      </Stack>
    );
  const b = beneficiary.data;
  const path = { params: { path: { id: b.id } } };
  const archived = b.archived_at !== null;

  return (
    <Stack>
      <Anchor component={Link} to="/beneficiaries" size="sm">
        ← Beneficiaries
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>{b.display_name}</Title>
          <Group gap="xs">
            <BeneficiaryStatusBadge status={b.status} />
            {archived && (
              <Badge color="gray.7" variant="filled">
                Archived
              </Badge>
            )}
            {/* The payouts table filters by Beneficiary id; this link saves copying it there by hand. */}
            <Anchor component={Link} to={`/payouts?beneficiary_id=${b.id}`} size="sm">
              Payouts to {b.display_name}
            </Anchor>
          </Group>
        </Stack>
        {admin && (
          <Group gap="xs">
            {!archived && <EditIdentityButton b={b} onSaved={refresh} />}
            {!archived && (b.acknowledged_at === null || b.reacknowledgment_required) && (
              <Button onClick={() => void run(() => call(api.POST("/v1/beneficiaries/{id}/acknowledge", path)))}>
                Acknowledge compliance
              </Button>
            )}
            {archived ? (
              <Button variant="default" onClick={() => void run(() => call(api.POST("/v1/beneficiaries/{id}/unarchive", path)))}>
                Restore
              </Button>
            ) : (
              <ConfirmButton
                variant="default"
                color="red"
                label="Archive"
                title="Archive this Beneficiary?"
                message="It leaves the list, refuses new payouts and its live collection link closes. You can restore it later."
                confirmLabel="Archive"
                onConfirm={() => run(() => call(api.POST("/v1/beneficiaries/{id}/archive", path)))}
              />
            )}
          </Group>
        )}
      </Group>
      <ErrorAlert error={actionError} />
      <Readiness b={b} destinations={destinations.data?.bank_accounts} />
      <IdentityCard b={b} />
      {admin && <RetryEnrollment b={b} onDone={refresh} />}
      <Destinations
        b={b}
        list={destinations.data?.bank_accounts}
        error={destinations.error}
        admin={admin && !archived}
        run={run}
      />
      {admin && !archived && <AddBankAccount beneficiaryId={b.id} onAdded={refresh} />}
      <CollectionLinks b={b} admin={admin && !archived} run={run} />
    </Stack>
  );
}
