// One Beneficiary: identity, the derived status and what is still missing for `ready` in words, destinations
// masked (rail status, payout usability, rejection reason), adding a bank account with the API's messages
// beside the fields, the declared destination, deleting a destination (confirmed), collection links (the URL is
// shown once), acknowledgment, archiving and restoring.
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useParams } from "react-router";
import { ApiError, api, call, type Schemas } from "../api/client";
import { EditIdentityButton } from "../components/beneficiary/EditIdentity";
import { RetryEnrollment } from "../components/beneficiary/RetryEnrollment";
import { ConfirmButton } from "../components/ConfirmButton";
import { CopyValue } from "../components/CopyValue";
import { ErrorAlert } from "../components/ErrorAlert";
import { Time } from "../components/Time";
import { countryHint } from "../lib/country";
import { useSession, useSignedIn } from "../lib/session";
import { type Beneficiary, BeneficiaryStatusBadge } from "./beneficiaries";

type Destination = Schemas["Destination"];
type Scope = "full_onboarding" | "payout_destination" | "tax_documents";

const SCOPES: Readonly<Record<Scope, string>> = {
  full_onboarding: "Identity and payout destination",
  payout_destination: "Payout destination only",
  tax_documents: "Tax form (W-9, W-8BEN, W-8BEN-E)",
};

/** Mantine's light green title is below AA contrast on its tinted background: dark text instead. */
const DARK_TITLE = { title: { color: "var(--mantine-color-dark-7)" } };

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
  // What stands between it and `ready`, as the API lists it (missing_for_ready), in its words.
  const missing = b.missing_for_ready.map((requirement) => requirement.message);
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
      {b.status === "ready" && !archived ? (
        <Alert color="green" title="Ready to be paid" data-testid="readiness" styles={DARK_TITLE} />
      ) : (
        <Alert color="yellow" title="Not ready to be paid yet: missing" data-testid="readiness">
          <List size="sm">
            {missing.map((m) => (
              <List.Item key={m}>{m}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Identity b={b} />
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

function Identity({ b }: { b: Beneficiary }) {
  const address = b.postal_address;
  const rows: [string, string | null][] = [
    ["Type", b.beneficiary_type === "person" ? "Person" : "Business"],
    ["E-mail", b.email],
    ["Legal name", b.name],
    ["Nickname", b.nickname],
    ["Phone", b.phone],
    ...(b.beneficiary_type === "person"
      ? ([
          ["Date of birth", b.date_of_birth],
          ["Country of residence", b.country_of_residence],
        ] as [string, string | null][])
      : ([
          ["Business name", b.business_name],
          ["Country of incorporation", b.country_of_incorporation],
          ["Registration number", b.registration_number],
        ] as [string, string | null][])),
    ["Tax id", b.tax_id],
    [
      "Postal address",
      address === null
        ? null
        : [address.line1, address.line2, address.postal_code, address.city, address.state, address.country]
            .filter(Boolean)
            .join(", "),
    ],
    [
      "Compliance",
      b.compliance_status === "compliant" ? "Acknowledged" : b.compliance_status === "pending" ? "Not acknowledged" : "Suspended",
    ],
    ["Enrollment with the rail", b.enrollment_status],
    ["Id", b.id],
  ];
  return (
    <Card withBorder>
      <Title order={2} size="h3" mb="sm">
        Identity
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {rows.map(([label, value]) => (
          <div key={label}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text size="sm" style={{ wordBreak: "break-all" }}>
              {value ?? "—"}
            </Text>
          </div>
        ))}
        <div>
          <Text size="xs" c="dimmed">
            Created
          </Text>
          <Text size="sm">
            <Time value={b.created_at} />
          </Text>
        </div>
      </SimpleGrid>
    </Card>
  );
}

function Destinations(props: {
  b: Beneficiary;
  list: readonly Destination[] | undefined;
  error: unknown;
  admin: boolean;
  run: (action: () => Promise<unknown>) => Promise<void>;
}) {
  const { b, list, admin, run } = props;
  return (
    <Card withBorder>
      <Title order={2} size="h3" mb="sm">
        Destinations
      </Title>
      <ErrorAlert error={props.error} title="Could not load the destinations" />
      {list === undefined ? (
        props.error === null && <Text c="dimmed">Loading destinations…</Text>
      ) : list.length === 0 ? (
        <Text c="dimmed" data-testid="destinations-empty">
          No destination yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Destination</Table.Th>
                <Table.Th>Holder</Table.Th>
                <Table.Th>Rail status</Table.Th>
                <Table.Th>Usable for payouts</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((d) => {
                const declared = b.declared_destination_id === d.id;
                const label = `${d.kind === "card" ? "Card" : "Account"} •••• ${d.last4}`;
                return (
                  <Table.Tr key={d.id} data-testid="destination-row">
                    <Table.Td>
                      <Text size="sm">
                        {label} · {d.currency} · {d.country}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {d.scheme}
                        {d.bank_name === null ? "" : ` · ${d.bank_name}`}
                      </Text>
                      {declared && (
                        <Badge size="sm" color="blue.8" variant="filled">
                          Declared
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{d.account_holder_name}</Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {d.status === "verified" ? "Verified" : d.status === "rejected" ? "Rejected" : "Unverified"}
                      </Text>
                      {d.rail_rejection_reason !== null && (
                        <Text size="xs" c="red.9">
                          {d.rail_rejection_reason}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{d.payout_usable ? "Yes" : "No"}</Table.Td>
                    <Table.Td>
                      {admin && (
                        <Group gap="xs" wrap="nowrap">
                          {!declared && d.payout_usable && (
                            <Button
                              size="xs"
                              variant="default"
                              aria-label={`Declare ${label}`}
                              onClick={() =>
                                void run(() =>
                                  call(
                                    api.PUT("/v1/beneficiaries/{id}/declared-destination", {
                                      params: { path: { id: b.id } },
                                      body: { destination_id: d.id },
                                    }),
                                  ),
                                )
                              }
                            >
                              Declare
                            </Button>
                          )}
                          <ConfirmButton
                            size="xs"
                            color="red"
                            variant="light"
                            label="Delete"
                            aria-label={`Delete ${label}`}
                            title={`Delete ${label}?`}
                            message="Payouts can no longer use it. Payouts already made keep it."
                            confirmLabel="Delete"
                            onConfirm={() =>
                              run(() =>
                                call(
                                  api.DELETE("/v1/beneficiaries/{id}/bank-accounts/{accountId}", {
                                    params: { path: { id: b.id, accountId: d.id } },
                                  }),
                                ),
                              )
                            }
                          />
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

const EMPTY_ACCOUNT = {
  account_holder_name: "",
  country: "",
  currency: "",
  iban: "",
  account_number: "",
  routing_code: "",
  swift_bic: "",
  bank_name: "",
};

/** The form's labels for the API's field names, so a refusal names the field the person sees. */
const ACCOUNT_LABELS: Readonly<Record<string, string>> = {
  account_holder_name: "Account holder name",
  country: "Bank country",
  currency: "Currency",
  iban: "IBAN",
  account_number: "Account number",
  routing_code: "Routing code",
  swift_bic: "SWIFT/BIC",
  bank_name: "Bank name",
};

function AddBankAccount({ beneficiaryId, onAdded }: { beneficiaryId: string; onAdded: () => Promise<void> }) {
  const [fields, setFields] = useState(EMPTY_ACCOUNT);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [added, setAdded] = useState<string | null>(null);
  const set = (name: keyof typeof EMPTY_ACCOUNT) => (e: { currentTarget: { value: string } }) =>
    setFields({ ...fields, [name]: e.currentTarget.value });
  const fieldError = (name: string) => (error instanceof ApiError ? error.fieldMessage(name) : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setAdded(null);
    const body: Record<string, string> = {};
    for (const [name, value] of Object.entries(fields)) if (value.trim() !== "") body[name] = value.trim();
    if (body.country !== undefined) body.country = body.country.toUpperCase();
    if (body.currency !== undefined) body.currency = body.currency.toUpperCase();
    try {
      const created = await call(
        api.POST("/v1/beneficiaries/{id}/bank-accounts", {
          params: { path: { id: beneficiaryId } },
          body: body as Schemas["CreateBankAccountRequest"],
        }),
      );
      setAdded(`Account •••• ${created.last4} added.`);
      setFields(EMPTY_ACCOUNT);
      await onAdded();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder>
      <Title order={2} size="h3" mb="sm">
        Add a bank account
      </Title>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Add a bank account">
        <Stack>
          <TextInput
            label="Account holder name"
            value={fields.account_holder_name}
            onChange={set("account_holder_name")}
            error={fieldError("account_holder_name")}
            required
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Bank country"
              description={countryHint(fields.country)}
              maxLength={2}
              value={fields.country}
              onChange={set("country")}
              error={fieldError("country")}
              required
            />
            <TextInput
              label="Currency"
              description="Three letters, such as EUR"
              maxLength={3}
              value={fields.currency}
              onChange={set("currency")}
              error={fieldError("currency")}
              required
            />
          </SimpleGrid>
          <TextInput
            label="IBAN"
            description="For IBAN countries; otherwise the account number and routing code"
            value={fields.iban}
            onChange={set("iban")}
            error={fieldError("iban")}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Account number"
              value={fields.account_number}
              onChange={set("account_number")}
              error={fieldError("account_number")}
            />
            <TextInput
              label="Routing code"
              description="ABA number, sort code, branch code…"
              value={fields.routing_code}
              onChange={set("routing_code")}
              error={fieldError("routing_code")}
            />
            <TextInput label="SWIFT/BIC" value={fields.swift_bic} onChange={set("swift_bic")} error={fieldError("swift_bic")} />
            <TextInput label="Bank name" value={fields.bank_name} onChange={set("bank_name")} error={fieldError("bank_name")} />
          </SimpleGrid>
          <ErrorAlert error={error} title="Could not add the bank account" fieldLabels={ACCOUNT_LABELS} />
          {added !== null && (
            <Text size="sm" c="teal.9" role="status">
              {added}
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              Add bank account
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function CollectionLinks(props: { b: Beneficiary; admin: boolean; run: (action: () => Promise<unknown>) => Promise<void> }) {
  const { b, admin } = props;
  const { environment } = useSignedIn();
  const queryClient = useQueryClient();
  const [scope, setScope] = useState<Scope>("payout_destination");
  const [sendEmail, setSendEmail] = useState(true);
  const [created, setCreated] = useState<Schemas["CollectionRequestCreated"] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const mint = async (chosen: Scope, email: boolean) => {
    setBusy(true);
    setError(null);
    setCreated(null);
    try {
      setCreated(
        await call(
          api.POST("/v1/beneficiaries/{id}/collection-requests", {
            params: { path: { id: b.id } },
            body: { scope: chosen, send_email: email },
          }),
        ),
      );
      await queryClient.invalidateQueries({ queryKey: [environment, "beneficiaries"] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder>
      <Title order={2} size="h3" mb="sm">
        Collection links
      </Title>
      <Text size="sm" mb="sm">
        A link lets the Beneficiary enter their own details. It lasts 7 days; a new link replaces the live one.
      </Text>
      {b.pending_requests.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="links-empty">
          No live link.
        </Text>
      ) : (
        <Stack gap="xs">
          {b.pending_requests.map((request) => (
            <Group key={request.id} justify="space-between" data-testid="pending-link">
              <Text size="sm">
                {SCOPES[request.scope]} · expires <Time value={request.expires_at} />
              </Text>
              {admin && (
                <Group gap="xs">
                  <Button size="xs" variant="default" loading={busy} onClick={() => void mint(request.scope, true)}>
                    Resend
                  </Button>
                  <ConfirmButton
                    size="xs"
                    variant="light"
                    color="red"
                    label="Cancel link"
                    title="Cancel this link?"
                    message="The link stops working at once."
                    confirmLabel="Cancel link"
                    onConfirm={() =>
                      props.run(() =>
                        call(
                          api.DELETE("/v1/beneficiaries/{id}/collection-requests/{requestId}", {
                            params: { path: { id: b.id, requestId: request.id } },
                          }),
                        ),
                      )
                    }
                  />
                </Group>
              )}
            </Group>
          ))}
        </Stack>
      )}
      {created !== null && (
        <Alert
          color="green"
          title="Link created: copy it now, it is shown only once"
          mt="sm"
          data-testid="new-link"
          styles={DARK_TITLE}
        >
          <CopyValue value={created.url} />
          <Text size="xs" mt={4}>
            {created.email_sent ? "An invitation e-mail was sent." : "No e-mail was sent: pass the link on yourself."} Expires{" "}
            <Time value={created.expires_at} />.
          </Text>
        </Alert>
      )}
      <ErrorAlert error={error} title="Could not create the link" />
      {admin && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void mint(scope, sendEmail);
          }}
        >
          <Group align="flex-end" mt="sm">
            <Select
              label="What to collect"
              data={Object.entries(SCOPES).map(([value, label]) => ({ value, label }))}
              value={scope}
              onChange={(value) => setScope((value as Scope | null) ?? "payout_destination")}
              allowDeselect={false}
              w={280}
            />
            <Checkbox
              label="E-mail it to the Beneficiary"
              checked={sendEmail}
              onChange={(e) => setSendEmail(e.currentTarget.checked)}
            />
            <Button type="submit" loading={busy}>
              Send link
            </Button>
          </Group>
        </form>
      )}
    </Card>
  );
}
