// The Beneficiaries table: the filters the API offers (derived status, type, compliance), search by exact
// e-mail or id (each a history entry, so Back steps through them), server-side cursor pages; Export CSV, Import
// CSV and New Beneficiary (components/beneficiary/).
import { Button, Group, Stack, Title } from "@mantine/core";
import { useState } from "react";
import { useNavigate } from "react-router";
import { BENEFICIARY_STATUS_LABELS, BeneficiaryStatusBadge } from "../components/beneficiary/BeneficiaryStatusBadge";
import { CreateBeneficiary } from "../components/beneficiary/CreateBeneficiary";
import { ImportBeneficiariesButton } from "../components/beneficiary/ImportBeneficiaries";
import { type DataColumn, DataList } from "../components/DataList";
import { FilterSelect } from "../components/FilterSelect";
import { ListSearch } from "../components/ListSearch";
import { MutationError } from "../components/MutationError";
import { Time } from "../components/Time";
import { useBeneficiaries, useBeneficiaryExport } from "../hooks/api/beneficiaries/queries";
import type { Beneficiary, BeneficiaryStatus, BeneficiaryType, ComplianceStatus } from "../hooks/api/beneficiaries/types";
import { downloadText } from "../lib/download";
import { useSignedIn } from "../lib/session";
import { useUrlFilters } from "../lib/url-filters";
import { useCursorPages } from "../lib/use-cursor-pages";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const TYPE_LABELS: Readonly<Record<BeneficiaryType, string>> = { person: "Person", business: "Business" };
const COMPLIANCE_LABELS: Readonly<Record<ComplianceStatus, string>> = {
  pending: "Not acknowledged",
  compliant: "Acknowledged",
  suspended: "Suspended",
};

const COLUMNS: readonly DataColumn<Beneficiary>[] = [
  { header: "Name", cell: (b) => b.display_name, link: (b) => `/beneficiaries/${b.id}` },
  { header: "E-mail", cell: (b) => b.email, breakAll: true },
  { header: "Status", cell: (b) => <BeneficiaryStatusBadge status={b.status} /> },
  { header: "Type", cell: (b) => (b.beneficiary_type === "person" ? "Person" : "Business") },
  { header: "Created", cell: (b) => <Time value={b.created_at} /> },
];

export function BeneficiariesPage() {
  const { environment, membership } = useSignedIn();
  const navigate = useNavigate();
  const { params, setFilter } = useUrlFilters();
  const status = (params.get("status") as BeneficiaryStatus | null) ?? null;
  const type = (params.get("type") as BeneficiaryType | null) ?? null;
  const compliance = (params.get("compliance") as ComplianceStatus | null) ?? null;
  const email = params.get("email") ?? "";
  const pages = useCursorPages(params.toString());
  const [creating, setCreating] = useState(false);
  const exportCsv = useBeneficiaryExport();
  const query = useBeneficiaries({ status, type, compliance, email }, pages.cursor);

  const onSearch = (text: string) => {
    if (UUID.test(text)) navigate(`/beneficiaries/${text.toLowerCase()}`);
    else setFilter("email", text);
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Beneficiaries</Title>
        <Group gap="xs">
          <Button
            variant="default"
            onClick={() =>
              exportCsv.mutate(undefined, { onSuccess: (csv) => downloadText(`beneficiaries-${environment}.csv`, csv) })
            }
            loading={exportCsv.isPending}
          >
            Export CSV
          </Button>
          {membership.role === "business_admin" && <ImportBeneficiariesButton />}
          {membership.role === "business_admin" && <Button onClick={() => setCreating(true)}>New Beneficiary</Button>}
        </Group>
      </Group>
      <ListSearch
        formLabel="Search Beneficiaries"
        description="Exact e-mail or Beneficiary id"
        value={email}
        width={280}
        onSearch={onSearch}
      />
      <Group align="flex-end" gap="sm">
        <FilterSelect label="Status" placeholder="Any status" param="status" options={BENEFICIARY_STATUS_LABELS} width={240} />
        <FilterSelect label="Type" placeholder="Any type" param="type" options={TYPE_LABELS} width={160} />
        <FilterSelect label="Compliance" placeholder="Any" param="compliance" options={COMPLIANCE_LABELS} width={200} />
      </Group>
      <MutationError mutation={exportCsv} title="Could not export Beneficiaries" />
      <DataList
        rows={query.data?.beneficiaries ?? []}
        rowKey={(b) => b.id}
        columns={COLUMNS}
        query={query}
        loadingText="Loading Beneficiaries…"
        errorTitle="Could not load Beneficiaries"
        empty={
          status === null && type === null && compliance === null && email === ""
            ? "No Beneficiary yet: create one with New Beneficiary, or bring a list with Import CSV."
            : "No Beneficiary matches."
        }
        emptyTestId="empty"
        rowTestId="beneficiary-row"
        minWidth={640}
        highlightOnHover
        pager={{ pages, nextCursor: query.data?.next_cursor, label: "Beneficiaries pages" }}
      />
      {creating && <CreateBeneficiary onClose={() => setCreating(false)} />}
    </Stack>
  );
}
