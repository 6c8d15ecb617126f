// One payout: what it is, its timeline (creation, every Decision, the rail's steps), who decided and why,
// and the actions its state allows.
import { Anchor, Button, Card, Group, Modal, SimpleGrid, Stack, Text, Timeline, Title } from "@mantine/core";
import { type ReactNode, useState } from "react";
import { Link, useParams } from "react-router";
import { DecisionDialog } from "../components/DecisionDialog";
import { ErrorAlert } from "../components/ErrorAlert";
import { Money } from "../components/Money";
import { MutationError } from "../components/MutationError";
import { NameCheck } from "../components/NameCheck";
import { PayoutActivity } from "../components/PayoutActivity";
import { countryName, DestinationFacts, destinationText } from "../components/payouts/Payee";
import { PayeeScreening } from "../components/payouts/PayeeScreening";
import { StatusBadge } from "../components/StatusBadge";
import { Time } from "../components/Time";
import { useApprovalPolicy } from "../hooks/api/approval-policy/queries";
import type { Outcome } from "../hooks/api/approvals/types";
import { useCancelPayout } from "../hooks/api/payouts/mutations";
import { usePayout, usePayoutDecisions, usePayoutReplacements } from "../hooks/api/payouts/queries";
import type { Decision, Payout } from "../hooks/api/payouts/types";
import { useMembers } from "../hooks/api/team/queries";
import { canDecide, makerCheckerBlocks } from "../lib/payouts";
import { useSignedIn } from "../lib/session";

interface Step {
  readonly at: string;
  readonly title: string;
  readonly detail?: string | undefined;
}

function timelineOf(payout: Payout, decisions: readonly Decision[], who: (d: Decision) => string): Step[] {
  const steps: Step[] = [{ at: payout.created_at, title: `Created (${payout.channel === "csv" ? "CSV upload" : "API"})` }];
  for (const decision of decisions) {
    steps.push({
      at: decision.created_at,
      title: `${decision.outcome === "approve" ? "Approved" : "Rejected"} by ${who(decision)}`,
      detail: decision.reason ?? undefined,
    });
  }
  const rail = payout.rail === null ? "" : ` via ${payout.rail}${payout.rail_ref === null ? "" : ` (${payout.rail_ref})`}`;
  if (payout.disbursed_at !== null) steps.push({ at: payout.disbursed_at, title: `Disbursed${rail}` });
  if (payout.delivered_at !== null) steps.push({ at: payout.delivered_at, title: "Delivered" });
  if (payout.settled_at !== null) steps.push({ at: payout.settled_at, title: "Settled" });
  if (payout.returned_at !== null)
    steps.push({ at: payout.returned_at, title: "Returned", detail: payout.failure_reason ?? undefined });
  if (payout.status === "failed" || payout.status === "canceled") {
    steps.push({
      at: payout.updated_at,
      title: payout.status === "failed" ? "Failed" : "Canceled",
      detail: payout.failure_reason ?? undefined,
    });
  }
  return steps.sort((a, b) => a.at.localeCompare(b.at));
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

export function PayoutPage() {
  const { payoutId = "" } = useParams();
  const session = useSignedIn();
  const { environment } = session;
  const [dialog, setDialog] = useState<Outcome | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const policy = useApprovalPolicy();
  const payout = usePayout(payoutId, { pollWhileApproved: true });
  const decisions = usePayoutDecisions(payoutId);
  const replacements = usePayoutReplacements(payoutId, { enabled: payout.data?.status === "failed" });
  const members = useMembers({ retry: false });
  const cancel = useCancelPayout(payoutId);

  if (payout.isPending) return <Text c="dimmed">Loading the payout…</Text>;
  if (payout.error !== null) return <ErrorAlert error={payout.error} title="Could not load the payout" />;
  const p = payout.data;
  const who = (d: Decision) => {
    if (d.validator.type === "automated") {
      return d.validator.name === "approval_policy"
        ? `the approval policy (rule “${d.validator.policy_rule ?? "?"}”)`
        : (d.validator.name ?? "an automated system");
    }
    const member = members.data?.members.find((m) => m.user_id === d.validator.user_id || m.id === d.validator.membership_id);
    if (member !== undefined) return member.email;
    return d.validator.api_key_id !== null ? "an API key" : "a team member";
  };
  const replacedBy = replacements.data?.payouts ?? [];
  const decider = canDecide(session.membership.role);
  const blocked = makerCheckerBlocks(
    p,
    { membershipId: session.membership.id, userId: session.user.id },
    policy.data?.maker_checker ?? false,
  );

  return (
    <Stack>
      <Anchor component={Link} to="/payouts" size="sm">
        ← Payouts
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>
            <Money minor={p.amount_minor} currency={p.currency} />
          </Title>
          <Group gap="xs">
            <StatusBadge status={p.status} />
            <Text size="sm" c="dimmed">
              {p.external_ref ?? p.payout_id}
            </Text>
          </Group>
        </Stack>
        <Group gap="xs">
          {p.status === "pending_approval" && decider && (
            <>
              <Button color="teal.9" onClick={() => setDialog("approve")} disabled={blocked}>
                Approve
              </Button>
              <Button color="red" variant="outline" onClick={() => setDialog("reject")}>
                Reject
              </Button>
            </>
          )}
          {environment === "production" &&
            session.membership.role === "business_admin" &&
            (p.status === "pending_approval" || (p.status === "approved" && p.disbursement_status === null)) && (
              <Button color="gray" variant="outline" onClick={() => setConfirmCancel(true)}>
                Cancel payout
              </Button>
            )}
          {/* Only a failed payout may be replaced (a returned one moved money once; the API refuses it). */}
          {p.status === "failed" && session.membership.role === "business_admin" && (
            <Button component={Link} to={`/payouts/new?replaces=${p.payout_id}`} variant="outline">
              Create replacement
            </Button>
          )}
        </Group>
      </Group>
      {blocked && p.status === "pending_approval" && (
        <Text size="sm" c="red.9">
          Maker-checker: you created this payout, so someone else must approve it.
        </Text>
      )}
      <MutationError mutation={cancel} />
      {p.failure_reason !== null && (
        <Card withBorder>
          <Field label="Reason">{p.failure_reason}</Field>
        </Card>
      )}
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Field label="Payout id">{p.payout_id}</Field>
          <Field label="Beneficiary">
            {/* By name, linked to the Beneficiary's page (their details and other payouts). */}
            <Anchor component={Link} to={`/beneficiaries/${p.beneficiary_id}`} data-testid="payout-payee">
              {p.payee.display_name}
            </Anchor>
            {p.payee.country !== null && ` · ${countryName(p.payee.country)}`}
          </Field>
          <Field label="Destination">
            {destinationText(p.payee.destination)}
            <DestinationFacts destination={p.payee.destination} />
            <NameCheck facts={p.payee.destination} />
            <PayeeScreening payout={p} />
          </Field>
          <Field label="Created">
            <Time value={p.created_at} />
          </Field>
          <Field label="Channel">{p.channel === "csv" ? `CSV upload ${p.upload_id ?? ""}` : "API"}</Field>
          <Field label="Idempotency key">{p.idempotency_key}</Field>
          <Field label="Rail">
            {p.rail ??
              (p.status === "rejected" || p.status === "canceled"
                ? `None: nothing was sent, the payout was ${p.status}`
                : "Not sent yet")}
          </Field>
          <Field label="Rail reference">{p.rail_ref ?? "—"}</Field>
          <Field label="Latest attempt">{p.disbursement_status ?? "—"}</Field>
          <Field label="Estimated arrival">
            <Time value={p.estimated_arrival_at} />
          </Field>
          {p.replaces_payout_id !== null && (
            <Field label="Replaces">
              <Anchor component={Link} to={`/payouts/${p.replaces_payout_id}`}>
                {p.replaces_payout_id}
              </Anchor>
            </Field>
          )}
          {replacedBy.map((r) => (
            <Field key={r.payout_id} label="Replaced by">
              <Anchor component={Link} to={`/payouts/${r.payout_id}`}>
                {r.external_ref ?? r.payout_id}
              </Anchor>{" "}
              <StatusBadge status={r.status} />
            </Field>
          ))}
        </SimpleGrid>
      </Card>
      <Title order={2} size="h3">
        Timeline
      </Title>
      <ErrorAlert error={decisions.error} title="Could not load the Decisions" />
      <Timeline active={99} bulletSize={14} lineWidth={2} data-testid="timeline">
        {timelineOf(p, decisions.data?.decisions ?? [], who).map((step) => (
          <Timeline.Item key={`${step.at}:${step.title}`} title={step.title}>
            <Text size="xs" c="dimmed">
              <Time value={step.at} />
            </Text>
            {step.detail !== undefined && (
              <Text size="sm" data-testid="timeline-note">
                “{step.detail}”
              </Text>
            )}
          </Timeline.Item>
        ))}
      </Timeline>
      <PayoutActivity payoutId={p.payout_id} />
      {dialog !== null && <DecisionDialog outcome={dialog} payouts={[p]} onClose={() => setDialog(null)} />}
      <Modal opened={confirmCancel} onClose={() => setConfirmCancel(false)} title="Cancel this payout?" centered>
        <Stack>
          <Text size="sm">The payout will not be sent. This cannot be undone.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmCancel(false)}>
              Keep it
            </Button>
            <Button
              color="red"
              loading={cancel.isPending}
              onClick={() => cancel.mutate(undefined, { onSettled: () => setConfirmCancel(false) })}
            >
              Cancel payout
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
