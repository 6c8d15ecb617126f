// One Beneficiary: identity, the derived status and what is still missing for `ready` in words, destinations
// masked (rail status, payout usability, rejection reason), adding a bank account with the API's messages
// beside the fields, the declared destination, deleting a destination (confirmed), collection links (the URL is
// shown once), acknowledgment, archiving and restoring. Each section is its own component under
// components/beneficiary/; the actions of the page's header and of its lists report their refusal in one place,
// under the header.
import { Anchor, Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import { Link, useParams } from "react-router";
import { AddBankAccount } from "../components/beneficiary/AddBankAccount";
import { BeneficiaryStatusBadge } from "../components/beneficiary/BeneficiaryStatusBadge";
import { CollectionLinks } from "../components/beneficiary/CollectionLinks";
import { Destinations } from "../components/beneficiary/Destinations";
import { EditIdentityButton } from "../components/beneficiary/EditIdentity";
import { IdentityCard } from "../components/beneficiary/IdentityCard";
import { Readiness } from "../components/beneficiary/Readiness";
import { RetryEnrollment } from "../components/beneficiary/RetryEnrollment";
import { ScreeningState } from "../components/beneficiary/ScreeningState";
import { ConfirmButton } from "../components/ConfirmButton";
import { ErrorAlert } from "../components/ErrorAlert";
import {
  useAcknowledgeBeneficiary,
  useArchiveBeneficiary,
  useCancelCollectionLink,
  useDeclareDestination,
  useDeleteDestination,
  useRestoreBeneficiary,
} from "../hooks/api/beneficiaries/mutations";
import { useBeneficiary, useDestinations } from "../hooks/api/beneficiaries/queries";
import { lastError, settle } from "../hooks/api/use-api-mutation";
import { screeningStatusName } from "../lib/labels";
import { useSignedIn } from "../lib/session";

export function BeneficiaryPage() {
  const { beneficiaryId = "" } = useParams();
  const session = useSignedIn();
  const admin = session.membership.role === "business_admin";
  const beneficiary = useBeneficiary(beneficiaryId);
  const destinations = useDestinations(beneficiaryId);
  const acknowledge = useAcknowledgeBeneficiary(beneficiaryId);
  const archive = useArchiveBeneficiary(beneficiaryId);
  const restore = useRestoreBeneficiary(beneficiaryId);
  const declare = useDeclareDestination(beneficiaryId);
  const deleteDestination = useDeleteDestination(beneficiaryId);
  const cancelLink = useCancelCollectionLink(beneficiaryId);
  const actionError = lastError(acknowledge, archive, restore, declare, deleteDestination, cancelLink);

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
            {(b.screening_status === "potential_match" || b.screening_status === "confirmed_match") && (
              <Badge color="red.8" variant="filled">
                {screeningStatusName(b.screening_status)}
              </Badge>
            )}
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
            {!archived && <EditIdentityButton b={b} />}
            {!archived && (b.acknowledged_at === null || b.reacknowledgment_required) && (
              <Button onClick={() => acknowledge.mutate()}>Acknowledge compliance</Button>
            )}
            {archived ? (
              <Button variant="default" onClick={() => restore.mutate()}>
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
                onConfirm={() => settle(archive.mutateAsync())}
              />
            )}
          </Group>
        )}
      </Group>
      <ErrorAlert error={actionError} />
      <Readiness b={b} />
      <ScreeningState b={b} />
      <IdentityCard b={b} />
      {admin && <RetryEnrollment b={b} />}
      <Destinations
        b={b}
        list={destinations.data?.bank_accounts}
        error={destinations.error}
        admin={admin && !archived}
        onDeclare={(destinationId) => declare.mutate(destinationId)}
        onDelete={(destinationId) => settle(deleteDestination.mutateAsync(destinationId))}
      />
      {admin && !archived && <AddBankAccount beneficiaryId={b.id} />}
      <CollectionLinks b={b} admin={admin && !archived} onCancel={(requestId) => settle(cancelLink.mutateAsync(requestId))} />
    </Stack>
  );
}
