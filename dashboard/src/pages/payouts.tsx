// The payouts table: filters the API offers (status, Beneficiary, upload, external reference), search by
// reference or id, server-side cursor pages (previous pages are remembered to go back). Every filter lives
// in the address, one history entry per change, so Back steps through them.
import { Button, Group, Stack, Title } from "@mantine/core";
import { Link, useNavigate } from "react-router";
import { type DataColumn, DataList } from "../components/DataList";
import { FilterSelect } from "../components/FilterSelect";
import { FilterTextInput } from "../components/FilterTextInput";
import { ListSearch } from "../components/ListSearch";
import { Money } from "../components/Money";
import { PayoutFilters } from "../components/PayoutFilters";
import { ExportPayoutsButton } from "../components/payouts/ExportPayoutsButton";
import { StatusBadge } from "../components/StatusBadge";
import { Time } from "../components/Time";
import { usePayouts } from "../hooks/api/payouts/queries";
import { filterQueryFromParams } from "../lib/payout-filters";
import { type Payout, type PayoutStatus, STATUS_LABELS } from "../lib/payouts";
import { useSignedIn } from "../lib/session";
import { useUrlFilters } from "../lib/url-filters";
import { useCursorPages } from "../lib/use-cursor-pages";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const COLUMNS: readonly DataColumn<Payout>[] = [
  {
    header: "Payout",
    cell: (payout) => payout.external_ref ?? payout.payout_id.slice(0, 8),
    link: (payout) => `/payouts/${payout.payout_id}`,
  },
  { header: "Status", cell: (payout) => <StatusBadge status={payout.status} /> },
  { header: "Amount", align: "right", cell: (payout) => <Money minor={payout.amount_minor} currency={payout.currency} /> },
  { header: "Created", cell: (payout) => <Time value={payout.created_at} /> },
  { header: "Channel", cell: (payout) => (payout.channel === "csv" ? "CSV upload" : "API") },
  { header: "Destination", cell: (payout) => `•••• ${payout.destination_last4}` },
];

export function PayoutsPage() {
  const { membership, environment } = useSignedIn();
  const navigate = useNavigate();
  const { params, setFilter } = useUrlFilters();
  const status = (params.get("status") as PayoutStatus | null) ?? null;
  const beneficiary = params.get("beneficiary_id") ?? "";
  const upload = params.get("upload_id") ?? "";
  const reference = params.get("external_ref") ?? "";
  // Any change of the address's filters starts again at the first page.
  const pages = useCursorPages(params.toString());
  const filters = {
    status,
    beneficiaryId: beneficiary,
    uploadId: upload,
    externalRef: reference,
    more: filterQueryFromParams(params),
  };
  const query = usePayouts(filters, pages.cursor);

  const onSearch = (text: string) => {
    if (UUID.test(text)) navigate(`/payouts/${text.toLowerCase()}`);
    else setFilter("external_ref", text);
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Payouts</Title>
        <Group gap="sm">
          <ExportPayoutsButton filters={filters} environment={environment} />
          {membership.role === "business_admin" && (
            <Button component={Link} to="/payouts/new">
              New payout
            </Button>
          )}
        </Group>
      </Group>
      <ListSearch
        formLabel="Search payouts"
        description="External reference or payout id"
        value={reference}
        width={260}
        onSearch={onSearch}
      />
      <Group align="flex-end" gap="sm">
        <FilterSelect label="Status" placeholder="Any status" param="status" options={STATUS_LABELS} width={200} />
        <FilterTextInput
          label="Beneficiary id"
          description="Or open the Beneficiary and follow its payouts link"
          value={beneficiary}
          onCommit={(value) => setFilter("beneficiary_id", value)}
          complete={(value) => UUID.test(value)}
          problem={(value) => (value !== "" && !UUID.test(value) ? "Paste a Beneficiary id" : undefined)}
          w={320}
        />
        <FilterTextInput
          label="Upload id"
          description="Enter to apply"
          value={upload}
          onCommit={(value) => setFilter("upload_id", value)}
          w={260}
        />
      </Group>
      <PayoutFilters error={query.error} />
      <DataList
        rows={query.data?.payouts ?? []}
        rowKey={(payout) => payout.payout_id}
        columns={COLUMNS}
        query={query}
        loadingText="Loading payouts…"
        errorTitle="Could not load payouts"
        empty={
          params.toString() === ""
            ? "No payouts match. Create one with New payout, or send a CSV file under Bulk upload."
            : "No payouts match."
        }
        emptyTestId="empty"
        rowTestId="payout-row"
        minWidth={720}
        highlightOnHover
        pager={{ pages, nextCursor: query.data?.next_cursor, label: "Payouts pages" }}
      />
    </Stack>
  );
}
