// The audit log (GET /v1/audit-records): newest first, filtered by action, person and time range, paged by
// the API's cursor. "Newer" goes back through the cursors already followed (the API pages forward only).
import { Button, Group, NativeSelect, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import type { Operations, Schemas } from "../../api/client";
import { useAuditRecords } from "../../hooks/api/audit-log/queries";
import { useMembers } from "../../hooks/api/team/queries";
import type { CompleteList } from "../../lib/complete-list";
import { wallTimeInZone } from "../../lib/time";
import { useTimeZone } from "../../lib/time-zone";
import { useCursorPages } from "../../lib/use-cursor-pages";
import { type DataColumn, DataList } from "../DataList";
import { Time } from "../Time";

// The actions the API records (its AUDIT_ACTIONS), for the filter; checked against the API's enum both ways.
type AuditAction = NonNullable<NonNullable<Operations["listAuditRecords"]["parameters"]["query"]>["action"]>;
const ACTIONS = [
  "sign_in",
  "sign_in_failed",
  "signed_out",
  "signed_out_everywhere",
  "session_ended",
  "session_confirmed",
  "business_switched",
  "password_changed",
  "password_reset_requested",
  "password_reset",
  "two_factor_enabled",
  "two_factor_disabled",
  "recovery_code_used",
  "recovery_codes_regenerated",
  "session_expired",
  "bank_rail_configured",
  "bank_rail_removed",
  "bank_file_content_read",
  "bank_rail_connection_tested",
  "member_invited",
  "invitation_revoked",
  "member_joined",
  "member_role_changed",
  "member_removed",
  "security_settings_changed",
  "business_profile_changed",
  "api_key_created",
  "api_key_revoked",
  "webhook_secret_rotated",
  "approval_policy_changed",
  "payout_decided",
  "webhook_subscription_created",
  "webhook_subscription_changed",
  "webhook_subscription_deleted",
  "branding_changed",
  "bank_account_added",
  "bank_account_removed",
  "bank_account_corrected",
  "declared_destination_changed",
  "payout_created",
  "payouts_created",
  "payout_canceled",
  "payouts_exported",
  "beneficiaries_exported",
  "beneficiaries_imported",
  "control_weakened",
  "funding_account_updated",
  "sandbox_credit_posted",
  "top_up_created",
  "top_up_decided",
  "payout_limits_changed",
  "control_change_proposed",
  "control_change_approved",
  "control_change_discarded",
  "destination_policy_changed",
  "bank_account_approved",
  "bank_account_rejected",
  "beneficiary_screening_decided",
] as const satisfies readonly AuditAction[];
true satisfies CompleteList<typeof ACTIONS, AuditAction>;
type Action = (typeof ACTIONS)[number];
type AuditRecord = Schemas["AuditRecordList"]["audit_records"][number];
const actionLabel = (action: string) =>
  action
    .replace(/_/g, " ")
    .replace(/^./, (c) => c.toUpperCase())
    // "api_key_created" reads "API key created", as the Developers page names them.
    .replace(/^Api /, "API ");

interface Filters {
  action: Action | "";
  actor: string;
  since: string;
  until: string;
}
const PAGE_SIZE = 25;

/**
 * A `datetime-local` value, a wall clock in the dashboard's zone (the Business's, else the browser's) -> an ISO
 * instant, or undefined when empty or invalid.
 */
function instant(local: string, zone: string): string | undefined {
  if (local === "") return undefined;
  const ms = wallTimeInZone(local, zone);
  return ms === null ? undefined : new Date(ms).toISOString();
}

const since = (local: string, zone: string) => {
  const value = instant(local, zone);
  return value === undefined ? {} : { since: value };
};
const until = (local: string, zone: string) => {
  const value = instant(local, zone);
  return value === undefined ? {} : { until: value };
};

export function AuditLog() {
  const members = useMembers();
  // The filters as typed (the form) and as applied (the list's), one change per "Filter".
  const form = useForm<Filters>({ initialValues: { action: "", actor: "", since: "", until: "" } });
  const [filters, setFilters] = useState<Filters>(form.values);
  const pages = useCursorPages(JSON.stringify(filters));
  const cursor = pages.cursor;
  const { zone } = useTimeZone();
  const records = useAuditRecords({
    filters,
    zone,
    cursor,
    pageSize: PAGE_SIZE,
    query: {
      ...(filters.action === "" ? {} : { action: filters.action }),
      ...(filters.actor === "" ? {} : { actor_user_id: filters.actor }),
      ...since(filters.since, zone),
      ...until(filters.until, zone),
    },
  });
  const emailOf = (userId: string | null) =>
    userId === null ? null : (members.data?.members.find((m) => m.user_id === userId)?.email ?? userId);

  const columns: readonly DataColumn<AuditRecord>[] = [
    { header: "When", cell: (r) => <Time value={r.occurred_at} /> },
    { header: "Action", cell: (r) => actionLabel(r.action) },
    {
      header: "Who",
      cell: (r) => emailOf(r.actor.user_id) ?? (r.actor.api_key_id !== null ? `API key ${r.actor.api_key_id.slice(0, 8)}` : "—"),
    },
    { header: "Subject", cell: (r) => (r.subject === null ? "—" : `${r.subject.type} ${r.subject.id.slice(0, 8)}`) },
    {
      header: "From",
      cell: (r) => (
        <Text size="xs" title={r.user_agent ?? undefined}>
          {r.client_address ?? "—"}
        </Text>
      ),
    },
  ];

  return (
    <Stack>
      <form onSubmit={form.onSubmit(setFilters)} aria-label="Audit log filters">
        <Group align="flex-end" wrap="wrap">
          <NativeSelect
            label="Action"
            data={[{ value: "", label: "Any action" }, ...ACTIONS.map((a) => ({ value: a, label: actionLabel(a) }))]}
            {...form.getInputProps("action")}
          />
          <NativeSelect
            label="Person"
            data={[
              { value: "", label: "Anyone" },
              ...(members.data?.members.map((m) => ({ value: m.user_id, label: m.email })) ?? []),
            ]}
            {...form.getInputProps("actor")}
          />
          <TextInput label="From" description={zone} type="datetime-local" {...form.getInputProps("since")} />
          <TextInput label="Until" description={zone} type="datetime-local" {...form.getInputProps("until")} />
          <Button type="submit">Filter</Button>
        </Group>
      </form>
      <DataList
        rows={records.data?.audit_records ?? []}
        rowKey={(r) => r.id}
        columns={columns}
        query={records}
        loadingText="Loading the audit log…"
        empty="No records match."
        emptyTestId="audit-empty"
        rowTestId="audit-row"
        minWidth={640}
        pager={{
          pages,
          nextCursor: records.data?.next_cursor,
          label: "Audit log pages",
          previousText: "Newer",
          nextText: "Older",
        }}
      />
    </Stack>
  );
}
