// Security of the signed-in person and of the Business: my two-factor authentication (enrol with the QR code
// the API draws, confirm with a code, the ten recovery codes shown once, regenerate, disable) and, for admins,
// "require two-factor for every member". My sessions are in MySessions.tsx.
import { Alert, Button, Code, Group, Image, List, Modal, Stack, Switch, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import type { Schemas } from "../../api/client";
import { useRequireTwoFactor } from "../../hooks/api/security-settings/mutations";
import { useSecuritySettings } from "../../hooks/api/security-settings/queries";
import { useMembers } from "../../hooks/api/team/queries";
import {
  useConfirmTwoFactorEnrolment,
  useDisableTwoFactor,
  useRegenerateRecoveryCodes,
  useStartTwoFactorEnrolment,
} from "../../hooks/api/two-factor/mutations";
import { lastError } from "../../hooks/api/use-api-mutation";
import { useSignedIn } from "../../lib/session";
import { ErrorAlert } from "../ErrorAlert";

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Alert color="yellow" title="Your recovery codes" data-testid="recovery-codes">
      <Stack gap="xs">
        <Text size="sm">
          Store these ten codes somewhere safe now: they are shown only this once. Each replaces a code from your app once.
        </Text>
        <List spacing={2}>
          {codes.map((code) => (
            <List.Item key={code}>
              <Code>{code}</Code>
            </List.Item>
          ))}
        </List>
        <Group>
          <Button size="xs" onClick={onDone}>
            I have stored them
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

export function TwoFactorSection() {
  const { user } = useSignedIn();
  const startEnrolment = useStartTwoFactorEnrolment();
  const confirmEnrolment = useConfirmTwoFactorEnrolment();
  const regenerateCodes = useRegenerateRecoveryCodes();
  const disableTwoFactor = useDisableTwoFactor();
  const steps = [startEnrolment, confirmEnrolment, regenerateCodes, disableTwoFactor];
  const error = lastError(...steps);
  const busy = steps.some((step) => step.isPending);
  const [enrolment, setEnrolment] = useState<Schemas["TwoFactorEnrolment"] | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  // One code field: the enrolment's first code, or the code that turns two-factor off.
  const form = useForm({ initialValues: { code: "" } });

  // Adding a factor needs a recent confirmation (step-up, by password: the person has no second factor yet).
  // Right after signing in nothing is asked; later, or if setting up the app took longer than the window,
  // the step-up dialog asks for the password and the step is repeated.
  const start = () =>
    startEnrolment.mutate(undefined, {
      onSuccess: (answer) => {
        setEnrolment(answer);
        form.setFieldValue("code", "");
      },
    });
  const confirm = form.onSubmit(({ code }) =>
    confirmEnrolment.mutate(code.replace(/\s/g, ""), {
      onSuccess: (answer) => {
        setCodes(answer.recovery_codes);
        setEnrolment(null);
      },
    }),
  );
  const regenerate = () => regenerateCodes.mutate(undefined, { onSuccess: (answer) => setCodes(answer.recovery_codes) });
  const disable = form.onSubmit(({ code }) =>
    disableTwoFactor.mutate(code.trim(), {
      onSuccess: () => {
        setDisabling(false);
        form.setFieldValue("code", "");
      },
    }),
  );

  return (
    <Stack>
      <Title order={2} size="h3">
        My two-factor authentication
      </Title>
      <Text data-testid="two-factor-state">
        Two-factor authentication is <strong>{user.two_factor_enabled ? "on" : "off"}</strong>.
      </Text>
      {codes !== null && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      {!user.two_factor_enabled && enrolment === null && (
        <Group>
          <Button onClick={start} loading={busy}>
            Set up two-factor authentication
          </Button>
        </Group>
      )}
      {enrolment !== null && (
        <form onSubmit={confirm}>
          <Stack maw={420}>
            <Text size="sm">Scan this code with your authenticator app, or type the secret by hand.</Text>
            <Image
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_code_svg)}`}
              alt="QR code for your authenticator app"
              w={200}
              h={200}
              bg="white"
            />
            <Text size="sm">
              Secret: <Code data-testid="two-factor-secret">{enrolment.secret}</Code>
            </Text>
            <TextInput
              label="Code from the app"
              autoComplete="one-time-code"
              inputMode="numeric"
              {...form.getInputProps("code")}
              required
            />
            <ErrorAlert error={error} />
            <Group>
              <Button variant="default" onClick={() => setEnrolment(null)}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                Turn on
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {user.two_factor_enabled && (
        <Group>
          <Button variant="default" onClick={regenerate} loading={busy}>
            Regenerate recovery codes
          </Button>
          <Button variant="outline" color="red" onClick={() => setDisabling(true)}>
            Turn off two-factor
          </Button>
        </Group>
      )}
      {enrolment === null && !disabling && <ErrorAlert error={error} />}
      <Modal opened={disabling} onClose={() => setDisabling(false)} title="Turn off two-factor authentication?" centered>
        <form onSubmit={disable}>
          <Stack>
            <Text size="sm">Your sign-ins will need only your password. Enter a current code or a recovery code.</Text>
            <TextInput
              label="Code or recovery code"
              autoComplete="one-time-code"
              {...form.getInputProps("code")}
              data-autofocus
              required
            />
            <ErrorAlert error={error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDisabling(false)}>
                Cancel
              </Button>
              <Button type="submit" color="red" loading={busy}>
                Turn off
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}

export function RequireTwoFactorSection() {
  const { membership } = useSignedIn();
  const admin = membership.role === "business_admin";
  const settings = useSecuritySettings();
  const members = useMembers();
  const change = useRequireTwoFactor();
  const without = members.data?.members.filter((m) => !m.two_factor_enabled) ?? [];

  return (
    <Stack>
      <Title order={2} size="h3">
        Two-factor for every member
      </Title>
      {settings.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : (
        <Switch
          label="Require two-factor authentication for every member"
          checked={settings.data?.require_two_factor ?? false}
          disabled={!admin || change.isPending}
          onChange={(e) => change.mutate(e.currentTarget.checked)}
        />
      )}
      <Text size="sm" c="dimmed">
        It applies at once: members without two-factor (you included) can only enrol or sign out until they do, and nobody can
        turn it off while the requirement holds. API keys are not affected.
      </Text>
      {without.length > 0 && (
        <Text size="sm" data-testid="members-without-two-factor">
          {without.length === 1 ? "1 member has" : `${without.length} members have`} no two-factor yet:{" "}
          {without.map((m) => m.email).join(", ")}.
        </Text>
      )}
      {!admin && (
        <Text size="sm" c="dimmed">
          Only admins change this.
        </Text>
      )}
      <ErrorAlert error={change.error ?? settings.error} />
    </Stack>
  );
}
