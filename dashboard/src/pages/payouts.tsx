// The payouts table: each payout names its payee and masked destination (the API's embedded `payee`), searched by
// payee name or by reference or id; filters the API offers (status, Beneficiary, upload, channel, currency, days,
// amounts; folded behind a button at phone width), server-side cursor pages (previous pages are remembered to go
// back). Every filter lives in the address, one history entry per change, so Back steps through them.
import { Anchor, Button, Group, Stack, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { Link, useNavigate } from "react-router";
import { type DataColumn, DataList } from "../components/DataList";
import { ListSearch } from "../components/ListSearch";
import { Money } from "../components/Money";
import { ExportPayoutsButton } from "../components/payouts/ExportPayoutsButton";
import { PayeeCell } from "../components/payouts/Payee";
import { PayoutListFilters } from "../components/payouts/PayoutListFilters";
import { StatusBadge } from "../components/StatusBadge";
import { Time } from "../components/Time";
import { usePayouts } from "../hooks/api/payouts/queries";
import { filterQueryFromParams } from "../lib/payout-filters";
import type { Payout, PayoutStatus } from "../lib/payouts";
import { useSignedIn } from "../lib/session";
import { useUrlFilters } from "../lib/url-filters";
import { useCursorPages } from "../lib/use-cursor-pages";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const referenceOf = (payout: Payout) => payout.external_ref ?? payout.payout_id.slice(0, 8);

const COLUMNS: readonly DataColumn<Payout>[] = [
  { header: "Payee", cell: (payout) => <PayeeCell payee={payout.payee} /> },
  { header: "Payout", cell: referenceOf, link: (payout) => `/payouts/${payout.payout_id}`, breakAll: true },
  { header: "Status", cell: (payout) => <StatusBadge status={payout.status} /> },
  { header: "Amount", align: "right", cell: (payout) => <Money minor={payout.amount_minor} currency={payout.currency} /> },
  { header: "Created", cell: (payout) => <Time value={payout.created_at} /> },
  { header: "Channel", cell: (payout) => (payout.channel === "csv" ? "CSV upload" : "API") },
];

/** At phone width: the payee (with the payout's link) and the amount with its status, nothing cut off. */
const PHONE_COLUMNS: readonly DataColumn<Payout>[] = [
  {
    header: "Payee",
    cell: (payout) => (
      <Stack gap={2}>
        <PayeeCell payee={payout.payee} />
        <Anchor component={Link} to={`/payouts/${payout.payout_id}`} size="xs" style={{ wordBreak: "break-all" }}>
          {referenceOf(payout)}
        </Anchor>
      </Stack>
    ),
  },
  {
    header: "Amount",
    align: "right",
    cell: (payout) => (
      <Stack gap={4} align="flex-end">
        <Money minor={payout.amount_minor} currency={payout.currency} />
        <StatusBadge status={payout.status} />
      </Stack>
    ),
  },
];

export function PayoutsPage() {
  const { membership, environment } = useSignedIn();
  const navigate = useNavigate();
  const phone = useMediaQuery("(max-width: 40em)") ?? false;
  const { params, setFilter } = useUrlFilters();
  const status = (params.get("status") as PayoutStatus | null) ?? null;
  const beneficiary = params.get("beneficiary_id") ?? "";
  const upload = params.get("upload_id") ?? "";
  const reference = params.get("external_ref") ?? "";
  const payee = params.get("payee") ?? "";
  // Any change of the address's filters starts again at the first page.
  const pages = useCursorPages(params.toString());
  const filters = {
    status,
    beneficiaryId: beneficiary,
    uploadId: upload,
    externalRef: reference,
    payee,
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
      <Group align="flex-end" gap="lg">
        <ListSearch
          formLabel="Search payouts by payee"
          label="Payee"
          buttonText="Find payee"
          description="Name or nickname, any case"
          value={payee}
          width={260}
          onSearch={(text) => setFilter("payee", text)}
        />
        <ListSearch
          formLabel="Search payouts"
          description="External reference or payout id"
          value={reference}
          width={260}
          onSearch={onSearch}
        />
      </Group>
      <PayoutListFilters error={query.error} />
      <DataList
        rows={query.data?.payouts ?? []}
        rowKey={(payout) => payout.payout_id}
        columns={phone ? PHONE_COLUMNS : COLUMNS}
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
        minWidth={phone ? 300 : 860}
        highlightOnHover
        pager={{ pages, nextCursor: query.data?.next_cursor, label: "Payouts pages" }}
      />
    </Stack>
  );
}
