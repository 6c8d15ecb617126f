// Settings → Business: the Business profile (GET|PATCH /v1/business). One profile for the whole Business,
// whichever environment is shown. Admins edit it; only the fields that differ from the stored profile are
// sent (empty optional fields are sent as null, clearing them), the API's field errors appear beside their
// fields, a step-up is asked for when the API wants one, and a saved name reaches the header and the Business
// switch at once (the session is read again). Other roles see the same values read-only.
import { Autocomplete, Button, Code, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useEffect, useMemo, useState } from "react";
import { ApiError } from "../../api/client";
import { useUpdateBusinessProfile } from "../../hooks/api/business/mutations";
import { useBusinessProfile } from "../../hooks/api/business/queries";
import type { BusinessProfileChanges as Body, BusinessProfile as Profile } from "../../hooks/api/business/types";
import { setFieldErrors, withCode } from "../../hooks/api/form-errors";
import { countryName } from "../../lib/country";
import { roleName } from "../../lib/roles";
import { useSignedIn } from "../../lib/session";
import { useTimeZone } from "../../lib/time-zone";
import { ErrorAlert } from "../ErrorAlert";
import { Time } from "../Time";

type Field = keyof Body & keyof Profile;

const FIELDS: readonly { field: Field; label: string; description: string; maxLength: number; type?: string }[] = [
  {
    field: "name",
    label: "Display name",
    description: "Shown in the dashboard, in e-mails to payees and on the hosted pages.",
    maxLength: 200,
  },
  {
    field: "legal_name",
    label: "Legal name",
    description: "As registered, when it differs from the display name.",
    maxLength: 200,
  },
  { field: "country", label: "Country", description: "Two-letter ISO 3166-1 code, e.g. DE.", maxLength: 2 },
  { field: "registration_number", label: "Registration number", description: "The company register's number.", maxLength: 50 },
  { field: "tax_id", label: "Tax id", description: "VAT or tax identification number.", maxLength: 40 },
  { field: "support_email", label: "Support e-mail", description: "Where payees can reach you.", maxLength: 254, type: "email" },
  { field: "website", label: "Website", description: "An https:// address.", maxLength: 2048, type: "url" },
  {
    field: "time_zone",
    label: "Time zone",
    description:
      "Your home time zone (IANA name, e.g. Europe/Berlin). The dashboard shows dates and counts days in it for every member; when empty, in each person's browser zone.",
    maxLength: 64,
  },
];

type Values = Record<Field, string>;

function valuesOf(profile: Profile): Values {
  const values = {} as Values;
  for (const { field } of FIELDS) values[field] = profile[field] ?? "";
  return values;
}

/** The fields whose edited value differs from the stored one; an emptied optional field becomes null. */
function changesOf(profile: Profile, values: Values): Body {
  const body: Record<string, string | null> = {};
  for (const { field } of FIELDS) {
    const edited = field === "country" ? values[field].trim().toUpperCase() : values[field].trim();
    const stored = profile[field] ?? "";
    if (edited === stored) continue;
    body[field] = edited === "" && field !== "name" ? null : edited;
  }
  return body as Body;
}

const EMPTY = Object.fromEntries(FIELDS.map(({ field }) => [field, ""])) as Values;

export function BusinessProfile() {
  const { membership, environment } = useSignedIn();
  const admin = membership.role === "business_admin";
  // Business-wide: one cache entry whatever the environment shown.
  const profile = useBusinessProfile(membership.business_id);
  const update = useUpdateBusinessProfile();
  const form = useForm<Values>({ initialValues: EMPTY });
  const [saved, setSaved] = useState(false);
  const displayZone = useTimeZone();
  const timeZones = useMemo(() => Intl.supportedValuesOf("timeZone"), []);
  const { setValues } = form;

  // The stored profile fills the form whenever it is (read again or saved).
  useEffect(() => {
    if (profile.data !== undefined) setValues(valuesOf(profile.data));
  }, [profile.data, setValues]);

  if (profile.isPending) return <Text c="dimmed">Loading the Business profile…</Text>;
  if (profile.isError) return <ErrorAlert error={profile.error} />;
  const current = profile.data;
  const shown = form.values;
  const changes = changesOf(current, shown);
  const dirty = Object.keys(changes).length > 0;
  const error = update.error;
  // The API's refusals about the profile's fields show beside them, with their codes.
  const fieldErrors =
    error instanceof ApiError ? (error.body.details ?? []).filter((d) => FIELDS.some((f) => f.field === d.field)) : [];

  const save = form.onSubmit(() => {
    if (!dirty) return;
    setSaved(false);
    update.mutate(changes, {
      onSuccess: () => setSaved(true),
      onError: (refusal) => setFieldErrors(form, refusal, { format: withCode }),
    });
  });
  const input = (field: Field) => {
    const props = form.getInputProps(field);
    return {
      ...props,
      onChange: (value: unknown) => {
        setSaved(false);
        props.onChange(value);
      },
    };
  };

  const country = countryName(shown.country.trim().toUpperCase());

  return (
    <Stack maw={560}>
      <Title order={2} size="h3" data-testid="business-name">
        {current.name}
      </Title>
      <Text size="sm">
        One profile for the whole Business: it is the same in sandbox and production. Registered{" "}
        <Time value={current.created_at} />; last changed{" "}
        {current.updated_at === null ? "never" : <Time value={current.updated_at} />}.
      </Text>
      <Table variant="vertical" withTableBorder>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={180}>Business id</Table.Th>
            <Table.Td>
              <Code style={{ wordBreak: "break-all" }}>{current.id}</Code>
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>My role</Table.Th>
            <Table.Td>{roleName(membership.role)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Environment shown</Table.Th>
            <Table.Td>{environment === "production" ? "Production" : "Sandbox"}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Dates shown in</Table.Th>
            <Table.Td data-testid="time-zone-shown">
              {displayZone.business
                ? `${displayZone.zone} (the Business's time zone)`
                : `${displayZone.zone} (your browser's; no Business time zone set)`}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {admin ? (
        <form onSubmit={save} aria-label="Business profile" noValidate>
          <Stack>
            {FIELDS.map(({ field, label, description, maxLength, type }) =>
              field === "time_zone" ? (
                <Autocomplete
                  key={field}
                  label={label}
                  description={description}
                  data={timeZones}
                  limit={20}
                  maxLength={maxLength}
                  {...input(field)}
                />
              ) : (
                <TextInput
                  key={field}
                  label={label}
                  description={
                    field === "country" && country !== null
                      ? `Two-letter ISO 3166-1 code: ${shown.country.trim().toUpperCase()} is ${country}.`
                      : description
                  }
                  type={type ?? "text"}
                  required={field === "name"}
                  maxLength={maxLength}
                  {...input(field)}
                />
              ),
            )}
            {error instanceof ApiError && fieldErrors.length > 0 ? (
              <Text size="sm" c="red.9" role="alert">
                {error.message} ({error.code})
              </Text>
            ) : (
              <ErrorAlert error={error} />
            )}
            {saved && (
              <Text role="status" c="teal.9">
                Business profile saved.
              </Text>
            )}
            <Group>
              <Button type="submit" loading={update.isPending} disabled={!dirty}>
                Save profile
              </Button>
              {dirty && (
                <Button variant="subtle" onClick={() => form.setValues(valuesOf(current))}>
                  Discard changes
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      ) : (
        <>
          <Table variant="vertical" withTableBorder data-testid="business-profile-read-only">
            <Table.Tbody>
              {FIELDS.map(({ field, label }) => (
                <Table.Tr key={field}>
                  <Table.Th w={180}>{label}</Table.Th>
                  <Table.Td style={{ overflowWrap: "anywhere" }}>
                    {current[field] ?? (
                      <Text span c="dimmed" size="sm">
                        Not set
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="sm" c="dimmed">
            Only admins change the Business profile.
          </Text>
        </>
      )}
    </Stack>
  );
}
