// Sanctions screening: the hits the service found when it compared the Beneficiaries' names with the sanctions
// lists the operator loaded (OFAC SDN, EU consolidated), newest first. Each names the Beneficiary (a link to its
// page), the listed entry, the list, the name that matched, the score, when it was found and its state; an admin
// clears (a false positive) or confirms a Beneficiary's open hits with a reason. The API refuses the person
// whose change was screened (maker-checker by person): the page says so beforehand and shows the API's message
// if they try. The filters are in the address, so the Beneficiary page links to its own hits. People who only
// read see everything, act on nothing.
import { Alert, Anchor, Badge, Button, Group, Select, Stack, Text, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { percent } from "../components/beneficiary/ScreeningState";
import { type DataColumn, DataList } from "../components/DataList";
import { ScreeningDecisionDialog } from "../components/screening/ScreeningDecisionDialog";
import { Time } from "../components/Time";
import { useBeneficiaryNames, useScreeningHits } from "../hooks/api/screening/queries";
import type { ScreeningHit, ScreeningHitFilters, ScreeningOutcome } from "../hooks/api/screening/types";
import { sanctionsEntryKindName, sanctionsListName, screeningHitStatusName } from "../lib/labels";
import { useSignedIn } from "../lib/session";
import { useCursorPages } from "../lib/use-cursor-pages";

const STATUSES = ["open", "all", "cleared", "confirmed", "withdrawn"] as const;
type StatusChoice = (typeof STATUSES)[number];
const CHOICE_LABELS: Readonly<Record<StatusChoice, string>> = {
  open: "To review",
  all: "All",
  cleared: "Cleared",
  confirmed: "Confirmed",
  withdrawn: "Withdrawn",
};
const HIT_COLORS: Readonly<Record<string, string>> = {
  open: "red.8",
  cleared: "teal.9",
  confirmed: "red.9",
  withdrawn: "gray.7",
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function ScreeningPage() {
  const session = useSignedIn();
  const [params, setParams] = useSearchParams();
  const phone = useMediaQuery("(max-width: 40em)") ?? false;
  const choice: StatusChoice = STATUSES.find((s) => s === params.get("status")) ?? "open";
  const rawBeneficiary = params.get("beneficiary_id");
  const beneficiaryId = rawBeneficiary !== null && UUID.test(rawBeneficiary) ? rawBeneficiary : null;
  const filters: ScreeningHitFilters = { status: choice === "all" ? null : choice, beneficiaryId };
  const pages = useCursorPages(`${choice}|${beneficiaryId ?? ""}`);
  const hits = useScreeningHits(filters, pages.cursor);
  const rows = hits.data?.screening_hits ?? [];
  const ids = useMemo(() => [...new Set(rows.map((hit) => hit.beneficiary_id))], [rows]);
  const names = useBeneficiaryNames(beneficiaryId === null ? ids : [...new Set([...ids, beneficiaryId])]);
  const nameOf = (hit: { beneficiary_id: string; screened_name?: string }) =>
    names.get(hit.beneficiary_id) ?? hit.screened_name ?? `Beneficiary ${hit.beneficiary_id.slice(-8)}`;
  const admin = session.membership.role === "business_admin";
  const [dialog, setDialog] = useState<{ outcome: ScreeningOutcome; beneficiaryId: string; name: string } | null>(null);

  const setFilter = (next: { status?: StatusChoice; beneficiaryId?: string | null }) => {
    const status = next.status ?? choice;
    const beneficiary = next.beneficiaryId === undefined ? beneficiaryId : next.beneficiaryId;
    setParams({ ...(status === "open" ? {} : { status }), ...(beneficiary === null ? {} : { beneficiary_id: beneficiary }) });
  };
  const mine = (hit: ScreeningHit) =>
    hit.triggered_by !== null &&
    (hit.triggered_by.membership_id === session.membership.id || hit.triggered_by.user_id === session.user.id);

  const columns: readonly DataColumn<ScreeningHit>[] = [
    {
      header: "Beneficiary",
      cell: (hit) => (
        <Stack gap={0}>
          <Anchor component={Link} to={`/beneficiaries/${hit.beneficiary_id}`} size="sm">
            {nameOf(hit)}
          </Anchor>
          <Text size="xs" c="dimmed">
            Screened as “{hit.screened_name}”
          </Text>
        </Stack>
      ),
    },
    {
      header: "Listed entry",
      cell: (hit) => (
        <Stack gap={0}>
          <Text size="sm">{hit.entry.name}</Text>
          <Text size="xs" c="dimmed">
            {sanctionsEntryKindName(hit.entry.kind)} · ref. {hit.entry.ref}
            {hit.entry.programs.length > 0 ? ` · ${hit.entry.programs.join(", ")}` : ""}
          </Text>
        </Stack>
      ),
    },
    { header: "List", cell: (hit) => sanctionsListName(hit.entry.list_id) },
    { header: "Matched name", cell: (hit) => hit.matched_name },
    { header: "Score", align: "right", cell: (hit) => percent(hit.score) },
    { header: "Found", cell: (hit) => <Time value={hit.created_at} /> },
    {
      header: "Status",
      cell: (hit) => (
        <Stack gap={2}>
          <Badge
            color={HIT_COLORS[hit.status] ?? "gray.7"}
            variant="filled"
            autoContrast
            styles={{ root: { minWidth: "max-content" } }}
          >
            {screeningHitStatusName(hit.status)}
          </Badge>
          {hit.reason !== null && (
            <Text size="xs">
              “{hit.reason}”
              {hit.decided_at !== null && (
                <>
                  {" "}
                  · <Time value={hit.decided_at} />
                </>
              )}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      header: "Decision",
      width: 220,
      cell: (hit) => {
        if (hit.status !== "open") return null;
        if (!admin) return <Text size="sm">Only an admin can decide</Text>;
        const name = nameOf(hit);
        return (
          <Stack gap={4}>
            {mine(hit) && (
              <Text size="xs" c="red.9">
                You made the change that was screened: another admin must decide.
              </Text>
            )}
            <Group gap="xs" wrap="wrap">
              <Button
                size="xs"
                color="teal.9"
                onClick={() => setDialog({ outcome: "clear", beneficiaryId: hit.beneficiary_id, name })}
                aria-label={`Clear the screening hits of ${name}`}
              >
                Clear
              </Button>
              <Button
                size="xs"
                color="red"
                variant="light"
                onClick={() => setDialog({ outcome: "confirm", beneficiaryId: hit.beneficiary_id, name })}
                aria-label={`Confirm the screening match of ${name}`}
              >
                Confirm
              </Button>
            </Group>
          </Stack>
        );
      },
    },
  ];

  return (
    <Stack>
      <Title order={1}>Screening</Title>
      <Text size="sm">
        Beneficiaries whose name is close to a name on a sanctions list (OFAC SDN, EU consolidated list). While a hit waits for
        review, new payouts to the Beneficiary are refused and approved ones are held. An admin other than the person whose change
        was screened clears a false positive or confirms the match, with a reason.
        {!admin && " Your role reads only: an admin decides."}
      </Text>
      <Group gap="sm" wrap="wrap">
        <Select
          label="Show"
          allowDeselect={false}
          value={choice}
          onChange={(value) => setFilter({ status: (value as StatusChoice | null) ?? "open" })}
          data={STATUSES.map((value) => ({ value, label: CHOICE_LABELS[value] }))}
          w={200}
        />
      </Group>
      {beneficiaryId !== null && (
        <Alert color="blue" variant="light">
          <Group gap="xs" wrap="wrap">
            <Text size="sm">
              Only the hits of{" "}
              <Anchor component={Link} to={`/beneficiaries/${beneficiaryId}`} size="sm">
                {names.get(beneficiaryId) ?? "one Beneficiary"}
              </Anchor>
              .
            </Text>
            <Anchor component="button" type="button" size="sm" onClick={() => setFilter({ beneficiaryId: null })}>
              Show every Beneficiary
            </Anchor>
          </Group>
        </Alert>
      )}
      <DataList
        rows={rows}
        rowKey={(hit) => hit.id}
        columns={columns}
        query={hits}
        loadingText="Loading the screening hits…"
        errorTitle="The screening hits could not be read"
        empty={choice === "open" ? "No screening hit waits for review." : "No screening hit."}
        emptyTestId="no-screening-hits"
        rowTestId="screening-hit-row"
        minWidth={phone ? 900 : 1100}
        caption="Screening hits"
        pager={{ pages, nextCursor: hits.data?.next_cursor, label: "Screening hits, pages" }}
      />
      {dialog !== null && (
        <ScreeningDecisionDialog
          outcome={dialog.outcome}
          beneficiaryId={dialog.beneficiaryId}
          beneficiaryName={dialog.name}
          onClose={() => setDialog(null)}
        />
      )}
    </Stack>
  );
}
