// Editing a Beneficiary's identity (PUT /v1/beneficiaries/{id}) in a dialog: only the fields the person changed
// are sent (the API keeps fields not sent), an emptied optional field is sent as null (the API clears it), and
// the API's validation messages are shown beside their fields (a @mantine/form, hooks/api/form-errors.ts) with the
// envelope above the form. The postal address is one object in the API (replaced whole, or cleared with null),
// so it is sent whole when any of its fields changed, and as null when all of them were emptied.
import { Alert, Button, Fieldset, Modal, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { useSearchParams } from "react-router";
import type { ApiError } from "../../api/client";
import { useUpdateBeneficiary } from "../../hooks/api/beneficiaries/mutations";
import type { Beneficiary, UpdateBeneficiaryRequest } from "../../hooks/api/beneficiaries/types";
import { setFieldErrors } from "../../hooks/api/form-errors";
import { CountrySelect } from "../CodePickers";
import { MutationError } from "../MutationError";

type Field =
  | "email"
  | "name"
  | "nickname"
  | "phone"
  | "first_name"
  | "last_name"
  | "date_of_birth"
  | "country_of_residence"
  | "business_name"
  | "country_of_incorporation"
  | "registration_number"
  | "tax_id";

/** Fields the API refuses to clear (`email` and `name` are not nullable): left empty they are not sent. */
const REQUIRED: ReadonlySet<Field> = new Set(["email", "name"]);
const UPPER: ReadonlySet<Field> = new Set(["country_of_residence", "country_of_incorporation"]);

type AddressField = "line1" | "line2" | "city" | "state" | "postal_code" | "country";
const ADDRESS_FIELDS: readonly AddressField[] = ["line1", "line2", "city", "state", "postal_code", "country"];
type Address = Record<AddressField, string>;

function initialAddress(b: Beneficiary): Address {
  const a = b.postal_address;
  return {
    line1: a?.line1 ?? "",
    line2: a?.line2 ?? "",
    city: a?.city ?? "",
    state: a?.state ?? "",
    postal_code: a?.postal_code ?? "",
    country: a?.country ?? "",
  };
}

/**
 * The `postal_address` to send, or undefined when nothing in it changed: null when every field was emptied, else
 * the whole address with its empty fields left out (a missing street, town or country is then the API's
 * `required` beside that field, not a guess of ours).
 */
export function addressChange(before: Address, after: Address): Record<string, string> | null | undefined {
  const clean = (a: Address) => ({
    ...a,
    ...Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, a[f].trim()])),
    country: a.country.trim().toUpperCase(),
  });
  const was = clean(before);
  const now = clean(after);
  if (ADDRESS_FIELDS.every((f) => was[f] === now[f])) return undefined;
  if (ADDRESS_FIELDS.every((f) => now[f] === "")) return null;
  return Object.fromEntries(ADDRESS_FIELDS.filter((f) => now[f] !== "").map((f) => [f, now[f]]));
}

function initial(b: Beneficiary): Record<Field, string> {
  return {
    email: b.email,
    name: b.name ?? "",
    nickname: b.nickname ?? "",
    phone: b.phone ?? "",
    first_name: b.first_name ?? "",
    last_name: b.last_name ?? "",
    date_of_birth: b.date_of_birth ?? "",
    country_of_residence: b.country_of_residence ?? "",
    business_name: b.business_name ?? "",
    country_of_incorporation: b.country_of_incorporation ?? "",
    registration_number: b.registration_number ?? "",
    tax_id: b.tax_id ?? "",
  };
}

/** The update body: changed fields only; an emptied optional one as null. */
export function identityChanges(before: Record<Field, string>, after: Record<Field, string>): Record<string, string | null> {
  const body: Record<string, string | null> = {};
  for (const name of Object.keys(after) as Field[]) {
    let value = after[name].trim();
    if (UPPER.has(name)) value = value.toUpperCase();
    if (value === before[name].trim()) continue;
    if (value === "") {
      if (!REQUIRED.has(name)) body[name] = null;
    } else body[name] = value;
  }
  return body;
}

/**
 * The address parts a refused SEPA payout named (`?sepa_missing=city,country`, from the new payout page when the
 * API answered SEPA_ADDRESS_NOT_STRUCTURED): the dialog then opens at once with those parts marked.
 */
export function sepaMissingParam(error: ApiError): string {
  return (error.body.details ?? [])
    .map((d) => d.field.replace(/^postal_address\./, ""))
    .filter((f): f is AddressField => (ADDRESS_FIELDS as readonly string[]).includes(f))
    .join(",");
}

export function EditIdentityButton({ b }: { b: Beneficiary }) {
  const [params] = useSearchParams();
  const [sepaMissing] = useState(() =>
    (params.get("sepa_missing") ?? "")
      .split(",")
      .filter((f): f is AddressField => (ADDRESS_FIELDS as readonly string[]).includes(f)),
  );
  const [open, setOpen] = useState(sepaMissing.length > 0);
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Edit identity
      </Button>
      {open && <EditIdentityDialog b={b} sepaMissing={sepaMissing} onClose={() => setOpen(false)} />}
    </>
  );
}

const ADDRESS_LABELS: Readonly<Record<AddressField, string>> = {
  line1: "street",
  line2: "address line 2",
  city: "town",
  state: "state or region",
  postal_code: "postal code",
  country: "country",
};

type Values = Record<Field, string> & { postal_address: Address };

function EditIdentityDialog(props: { b: Beneficiary; sepaMissing: readonly AddressField[]; onClose: () => void }) {
  const { b, sepaMissing, onClose } = props;
  const update = useUpdateBeneficiary(b.id);
  const form = useForm<Values>({ initialValues: { ...initial(b), postal_address: initialAddress(b) } });
  const [nothing, setNothing] = useState(false);
  const person = b.beneficiary_type === "person";
  const input = (name: Field, label: string, extra: { description?: string; maxLength?: number } = {}) => (
    <TextInput label={label} {...form.getInputProps(name)} {...extra} />
  );

  // The API lists the address among the identity fields still missing when its rules require one.
  const addressRequired = b.missing_identity_fields.includes("postal_address");
  const addressInput = (name: AddressField, label: string, extra: { description?: string; maxLength?: number } = {}) => {
    const field = form.getInputProps(`postal_address.${name}`);
    const sepaHint =
      sepaMissing.includes(name) && form.values.postal_address[name].trim() === "" ? "Needed for a SEPA payout" : undefined;
    // A country is chosen by its name from the list (the form keeps the two letters the API stores).
    if (name === "country") return <CountrySelect label={label} {...field} error={field.error ?? sepaHint} />;
    return <TextInput label={label} {...field} error={field.error ?? sepaHint} {...extra} />;
  };

  const submit = form.onSubmit((values) => {
    const { postal_address: address, ...fields } = values;
    const { postal_address: addressBefore, ...before } = form.getInitialValues();
    const body: Record<string, unknown> = identityChanges(before, fields);
    const postal = addressChange(addressBefore, address);
    if (postal !== undefined) body.postal_address = postal;
    if (Object.keys(body).length === 0) {
      update.reset();
      setNothing(true);
      return;
    }
    setNothing(false);
    update.mutate(body as UpdateBeneficiaryRequest, {
      onSuccess: onClose,
      onError: (refusal) => setFieldErrors(form, refusal),
    });
  });

  return (
    <Modal opened onClose={onClose} title="Edit identity" centered size="lg">
      <form onSubmit={submit} noValidate aria-label="Edit identity">
        <Stack>
          <MutationError mutation={update} title="Could not save the identity" />
          {sepaMissing.length > 0 && (
            <Alert color="yellow" title="A SEPA payout was refused" styles={{ title: { color: "var(--mantine-color-dark-7)" } }}>
              The payout rail needs this Beneficiary's {sepaMissing.map((f) => ADDRESS_LABELS[f]).join(" and ")} as separate parts
              of the postal address (below).
            </Alert>
          )}
          {nothing && (
            <Alert color="gray" role="status">
              Nothing changed.
            </Alert>
          )}
          {b.acknowledged_at !== null && (
            <Alert color="blue" title="Acknowledged Beneficiary" styles={{ title: { color: "var(--mantine-color-dark-7)" } }}>
              Changing the legal names, date of birth, countries, registration number or tax id asks for a new compliance
              acknowledgment.
            </Alert>
          )}
          {input("email", "E-mail")}
          {input("name", "Legal name", { description: "Left empty: derived from the names" })}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {input("nickname", "Nickname")}
            {input("phone", "Phone", { description: "International format, such as +4915112345678" })}
          </SimpleGrid>
          {person ? (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {input("first_name", "First name")}
              {input("last_name", "Last name")}
              {input("date_of_birth", "Date of birth", { description: "YYYY-MM-DD" })}
              <CountrySelect label="Country of residence" {...form.getInputProps("country_of_residence")} />
            </SimpleGrid>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {input("business_name", "Business name")}
              <CountrySelect label="Country of incorporation" {...form.getInputProps("country_of_incorporation")} />
              {input("registration_number", "Registration number")}
            </SimpleGrid>
          )}
          {input("tax_id", "Tax id")}
          <Fieldset legend="Postal address" variant="unstyled" aria-describedby="postal-address-hint">
            <Stack gap="xs">
              <Text size="sm" c="dimmed" id="postal-address-hint">
                Street, town and country are required once an address is given. A SEPA payout needs at least the town and the
                country as separate parts. Empty every field to remove the address.
              </Text>
              {addressRequired && (
                <Text size="sm" c="red.9" data-testid="address-required">
                  This Beneficiary's identity is not complete without a postal address.
                </Text>
              )}
              {addressInput("line1", "Street and number")}
              {addressInput("line2", "Address line 2")}
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {addressInput("postal_code", "Postal code")}
                {addressInput("city", "Town or city")}
                {addressInput("state", "State or region")}
                {addressInput("country", "Country")}
              </SimpleGrid>
            </Stack>
          </Fieldset>
          <Button type="submit" loading={update.isPending}>
            Save identity
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
