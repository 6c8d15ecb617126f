// The form of one bank rail (SEPA or ACH), with every field the API takes: the originator, the file format
// (SEPA), the cut-offs in the rail's own time zone, the delivery (SFTP or, where the operator allows it, a
// local folder) and optional OpenPGP. Local mistakes are shown before sending; the API's refusals beside
// their fields (setFieldErrors), the rest above the buttons. Saving needs a recent confirmation (step-up).
import {
  Button,
  Checkbox,
  Fieldset,
  Group,
  NativeSelect,
  PasswordInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMemo, useState } from "react";
import { ApiError } from "../../api/client";
import { useConfigureBankRail } from "../../hooks/api/bank-rails/mutations";
import type { BankRail, BankRailName } from "../../hooks/api/bank-rails/types";
import { setFieldErrors, withCode } from "../../hooks/api/form-errors";
import { ErrorAlert } from "../ErrorAlert";
import {
  ACH_ORIGINATOR_FIELDS,
  initialValues,
  localErrors,
  type RailFormValues,
  SEPA_ORIGINATOR_FIELDS,
  timeZones,
  toBody,
} from "./rail-form";

const ADDRESS_ALIASES: Record<string, string> = Object.fromEntries(
  ["street_name", "building_number", "postal_code", "town_name", "country"].map((f) => [
    `originator.address.${f}`,
    `originator.${f}`,
  ]),
);

export function RailForm({ rail, current, onSaved }: { rail: BankRailName; current: BankRail | undefined; onSaved: () => void }) {
  const configure = useConfigureBankRail();
  const form = useForm<RailFormValues>({ initialValues: initialValues(rail, current) });
  const [unplaced, setUnplaced] = useState<unknown>(null);
  const values = form.getValues();
  const zones = useMemo(() => timeZones(values.time_zone), [values.time_zone]);
  const name = rail === "sepa" ? "SEPA" : "ACH";
  const fields = rail === "sepa" ? SEPA_ORIGINATOR_FIELDS : ACH_ORIGINATOR_FIELDS;
  const sftp = form.values.delivery.kind === "sftp";

  const save = form.onSubmit((submitted) => {
    setUnplaced(null);
    const errors = localErrors(submitted, current);
    if (Object.keys(errors).length > 0) {
      form.setErrors(errors);
      return;
    }
    configure.mutateAsync(toBody(rail, submitted)).then(onSaved, (refusal: unknown) => {
      const rest = setFieldErrors(form, refusal, { aliases: ADDRESS_ALIASES, format: withCode });
      // Every detail beside its field: one line here; else the refusal whole (a field no input shows, a conflict).
      const placedAll = refusal instanceof ApiError && (refusal.body.details?.length ?? 0) > 0 && rest.length === 0;
      setUnplaced(placedAll ? "fields" : refusal);
    });
  });

  return (
    <form onSubmit={save} aria-label={`${name} rail settings`} noValidate>
      <Stack>
        <Fieldset legend={rail === "sepa" ? "Debtor (the account paid from)" : "Originator"}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {fields.map((field) => (
              <TextInput
                key={field.name}
                label={field.label}
                withAsterisk={field.required}
                {...form.getInputProps(`originator.${field.name}`)}
              />
            ))}
            {rail === "ach" && (
              <NativeSelect
                label="Payout purpose"
                description="Payroll is sent with the entry description PAYROLL, as NACHA requires for wages."
                data={[
                  { value: "other", label: "Other payouts" },
                  { value: "payroll", label: "Payroll (wages and salaries)" },
                ]}
                {...form.getInputProps("originator.payout_purpose")}
              />
            )}
            {rail === "sepa" && (
              <NativeSelect
                label="File format"
                data={[
                  { value: "pain.001.001.09", label: "pain.001.001.09 (current)" },
                  { value: "pain.001.001.03", label: "pain.001.001.03 (older banks)" },
                ]}
                {...form.getInputProps("file_format")}
              />
            )}
          </SimpleGrid>
        </Fieldset>

        <Fieldset legend="Cut-offs">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NativeSelect label="Time zone of the cut-offs" data={zones} {...form.getInputProps("time_zone")} />
            <TextInput
              label={`Cut-off times (${form.values.time_zone})`}
              description="Times of day, HH:MM 24-hour, separated by commas: waiting payouts go into one file at each."
              withAsterisk
              {...form.getInputProps("cutoff_times")}
            />
            <TextInput
              label="Hours to wait for the bank's status report"
              description="A file with no report after this long is flagged."
              inputMode="numeric"
              {...form.getInputProps("status_report_timeout_hours")}
            />
          </SimpleGrid>
        </Fieldset>

        <Fieldset legend="Delivery">
          <Stack>
            <SegmentedControl
              aria-label="Delivery kind"
              data={[
                { value: "sftp", label: "SFTP server" },
                { value: "local_directory", label: "Local folder" },
              ]}
              {...form.getInputProps("delivery.kind")}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {sftp && (
                <>
                  <TextInput label="Host" withAsterisk {...form.getInputProps("delivery.host")} />
                  <TextInput label="Port" inputMode="numeric" {...form.getInputProps("delivery.port")} />
                  <TextInput label="Username" withAsterisk {...form.getInputProps("delivery.username")} />
                  <TextInput
                    label="Host key fingerprint"
                    description="As ssh-keygen -lf prints it: SHA256:… Ask your bank."
                    withAsterisk
                    {...form.getInputProps("delivery.host_key_fingerprint")}
                  />
                  <PasswordInput
                    label="Password"
                    description={
                      current?.delivery.has_password ? "A password is stored; leave empty to keep it." : "Or a private key."
                    }
                    autoComplete="new-password"
                    {...form.getInputProps("delivery.password")}
                  />
                  <Textarea
                    label="Private key"
                    description={
                      current?.delivery.has_private_key
                        ? "A private key is stored; leave empty to keep it."
                        : "OpenSSH or PEM, unencrypted."
                    }
                    autosize
                    minRows={2}
                    maxRows={6}
                    styles={{ input: { fontFamily: "monospace" } }}
                    {...form.getInputProps("delivery.private_key")}
                  />
                </>
              )}
              <TextInput
                label="Outbound directory (files to the bank)"
                withAsterisk
                {...form.getInputProps("delivery.outbound_directory")}
              />
              <TextInput
                label="Inbound directory (files from the bank)"
                withAsterisk
                {...form.getInputProps("delivery.inbound_directory")}
              />
            </SimpleGrid>
            {sftp && (
              <Text size="xs" c="dimmed">
                Changing the host, port, username or host key drops the stored password and key unless you enter them again.
              </Text>
            )}
          </Stack>
        </Fieldset>

        <Fieldset legend="OpenPGP (optional)">
          <Stack>
            <Checkbox
              label="Encrypt the files to the bank with OpenPGP"
              {...form.getInputProps("use_openpgp", { type: "checkbox" })}
            />
            {form.values.use_openpgp && (
              <>
                {current?.openpgp != null && (
                  <Text size="xs">In use: the bank's key {current.openpgp.bank_key_fingerprint}.</Text>
                )}
                <Textarea
                  label="The bank's public key (armored)"
                  withAsterisk
                  autosize
                  minRows={2}
                  maxRows={6}
                  {...form.getInputProps("openpgp.bank_public_key")}
                />
                <Textarea
                  label="Your private key (armored)"
                  description={
                    current?.openpgp?.has_private_key ? "A private key is stored; leave empty to keep it." : "Signs the files."
                  }
                  autosize
                  minRows={2}
                  maxRows={6}
                  {...form.getInputProps("openpgp.private_key")}
                />
                <PasswordInput
                  label="Private key passphrase"
                  autoComplete="off"
                  {...form.getInputProps("openpgp.private_key_passphrase")}
                />
                <NativeSelect
                  label="Files from the bank"
                  data={[
                    { value: "plain", label: "Read as they arrive" },
                    { value: "decrypt_and_verify", label: "Decrypt and verify the bank's signature" },
                  ]}
                  {...form.getInputProps("openpgp.inbound")}
                />
              </>
            )}
          </Stack>
        </Fieldset>

        {unplaced === "fields" ? (
          <Text size="sm" c="red.9" role="alert">
            The {name} rail was not saved: see the fields marked above.
          </Text>
        ) : (
          <ErrorAlert error={unplaced} title={`The ${name} rail was not saved`} />
        )}
        <Group>
          <Button type="submit" loading={configure.isPending}>
            Save {name} rail
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
