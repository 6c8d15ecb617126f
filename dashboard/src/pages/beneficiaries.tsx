// The Beneficiaries table: the filters the API offers (derived status, type, compliance), search by exact
// e-mail or id (each a history entry, so Back steps through them), server-side cursor pages; and the form that creates one (the API's messages beside the fields).
import { Badge, Button, Group, Select, Stack, TextInput, Title } from "@mantine/core";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { ApiError, api, call, type Schemas } from "../api/client";
import { ImportBeneficiariesButton } from "../components/beneficiary/ImportBeneficiaries";
import { type DataColumn, DataList } from "../components/DataList";
import { ErrorAlert } from "../components/ErrorAlert";
import { FilterSelect } from "../components/FilterSelect";
import { FormDialog } from "../components/FormDialog";
import { ListSearch } from "../components/ListSearch";
import { Time } from "../components/Time";
import { countryHint } from "../lib/country";
import { downloadText } from "../lib/download";
import { useSignedIn } from "../lib/session";
import { useUrlFilters } from "../lib/url-filters";
import { useCursorPages } from "../lib/use-cursor-pages";

/** As the list and the detail route answer it (the deprecated, always-null `bank_details` aside). */
export type Beneficiary = Omit<Schemas["Beneficiary"], "bank_details">;
export type BeneficiaryStatus = Beneficiary["status"];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE = 25;

export const BENEFICIARY_STATUS_LABELS: Readonly<Record<BeneficiaryStatus, string>> = {
  ready: "Ready",
  pending_details: "Details missing",
  pending_kyc: "Awaiting acknowledgment",
  action_required: "Action required",
  reacknowledgment_required: "Re-acknowledgment required",
  suspended: "Suspended",
};
/** Shades that keep AA contrast with the text autoContrast picks. */
const STATUS_COLORS: Readonly<Record<BeneficiaryStatus, string>> = {
  ready: "teal.9",
  pending_details: "yellow.5",
  pending_kyc: "blue.8",
  action_required: "orange.5",
  reacknowledgment_required: "grape.8",
  suspended: "red.8",
};

export function BeneficiaryStatusBadge({ status }: { status: BeneficiaryStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="filled" autoContrast>
      {BENEFICIARY_STATUS_LABELS[status]}
    </Badge>
  );
}

const TYPE_LABELS: Readonly<Record<Beneficiary["beneficiary_type"], string>> = { person: "Person", business: "Business" };
const COMPLIANCE_LABELS: Readonly<Record<Beneficiary["compliance_status"], string>> = {
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
  const type = (params.get("type") as Beneficiary["beneficiary_type"] | null) ?? null;
  const compliance = (params.get("compliance") as Beneficiary["compliance_status"] | null) ?? null;
  const email = params.get("email") ?? "";
  const pages = useCursorPages(params.toString());
  const [creating, setCreating] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>(null);
  const cursor = pages.cursor;

  // Through the API client, not a plain link: the request needs the environment header.
  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const csv = await call(api.GET("/v1/beneficiaries/export", { parseAs: "text" }));
      downloadText(`beneficiaries-${environment}.csv`, csv as unknown as string);
    } catch (error) {
      setExportError(error);
    } finally {
      setExporting(false);
    }
  };

  const query = useQuery({
    queryKey: [environment, "beneficiaries", "list", { status, type, compliance, email }, cursor],
    queryFn: () =>
      call(
        api.GET("/v1/beneficiaries", {
          params: {
            query: {
              limit: PAGE,
              ...(status === null ? {} : { status }),
              ...(type === null ? {} : { beneficiary_type: type }),
              ...(compliance === null ? {} : { compliance_status: compliance }),
              ...(email === "" ? {} : { email }),
              ...(cursor === null ? {} : { cursor }),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  const onSearch = (text: string) => {
    if (UUID.test(text)) navigate(`/beneficiaries/${text.toLowerCase()}`);
    else setFilter("email", text);
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Beneficiaries</Title>
        <Group gap="xs">
          <Button variant="default" onClick={() => void exportCsv()} loading={exporting}>
            Export CSV
          </Button>
          {membership.role === "business_admin" && <ImportBeneficiariesButton onImported={() => query.refetch()} />}
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
      <ErrorAlert error={exportError} title="Could not export Beneficiaries" />
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

function CreateBeneficiary({ onClose }: { onClose: () => void }) {
  const { environment } = useSignedIn();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [type, setType] = useState<"person" | "business">("person");
  const [fields, setFields] = useState({ email: "", first_name: "", last_name: "", business_name: "", country: "" });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof typeof fields) => (e: { currentTarget: { value: string } }) =>
    setFields({ ...fields, [name]: e.currentTarget.value });
  const fieldError = (name: string) => (error instanceof ApiError ? error.fieldMessage(name) : undefined);
  const opt = (name: string, value: string) => (value.trim() === "" ? {} : { [name]: value.trim() });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await call(
        api.POST("/v1/beneficiaries", {
          body: {
            beneficiary_type: type,
            email: fields.email.trim(),
            ...(type === "person"
              ? {
                  ...opt("first_name", fields.first_name),
                  ...opt("last_name", fields.last_name),
                  ...opt("country_of_residence", fields.country.toUpperCase()),
                }
              : {
                  ...opt("business_name", fields.business_name),
                  ...opt("country_of_incorporation", fields.country.toUpperCase()),
                }),
          },
        }),
      );
      await queryClient.invalidateQueries({ queryKey: [environment, "beneficiaries"] });
      navigate(`/beneficiaries/${created.id}`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title="New Beneficiary"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create"
      busy={busy}
      error={error}
      errorTitle="Could not create the Beneficiary"
      noValidate
    >
      <Select
        label="Type"
        data={[
          { value: "person", label: "Person" },
          { value: "business", label: "Business" },
        ]}
        value={type}
        onChange={(value) => setType(value === "business" ? "business" : "person")}
        allowDeselect={false}
      />
      <TextInput
        label="E-mail"
        type="email"
        value={fields.email}
        onChange={set("email")}
        error={fieldError("email")}
        required
        data-autofocus
      />
      {type === "person" ? (
        <>
          <TextInput label="First name" value={fields.first_name} onChange={set("first_name")} error={fieldError("first_name")} />
          <TextInput label="Last name" value={fields.last_name} onChange={set("last_name")} error={fieldError("last_name")} />
        </>
      ) : (
        <TextInput
          label="Business name"
          value={fields.business_name}
          onChange={set("business_name")}
          error={fieldError("business_name")}
        />
      )}
      <TextInput
        label={type === "person" ? "Country of residence" : "Country of incorporation"}
        description={countryHint(fields.country)}
        maxLength={2}
        value={fields.country}
        onChange={set("country")}
        error={fieldError(type === "person" ? "country_of_residence" : "country_of_incorporation")}
      />
    </FormDialog>
  );
}
