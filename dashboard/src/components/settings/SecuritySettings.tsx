// Security of the signed-in person and of the Business: my two-factor authentication (enrol with the QR code
// the API draws, confirm with a code, the ten recovery codes shown once, regenerate, disable) and, for admins,
// "require two-factor for every member". My sessions are in MySessions.tsx.
import { Alert, Button, Code, Group, Image, List, Modal, Stack, Switch, Text, TextInput, Title } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, call, type Schemas } from "../../api/client";
import { useSession, useSignedIn } from "../../lib/session";
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
  const { accept, withStepUp } = useSession();
  const queryClient = useQueryClient();
  // The member list (its two-factor column, and "who has no two-factor yet" below) changes with my own
  // two-factor: read it again, or the page keeps naming me until a reload.
  const refreshMembers = () => queryClient.invalidateQueries({ predicate: (q) => q.queryKey[1] === "members" });
  const [enrolment, setEnrolment] = useState<Schemas["TwoFactorEnrolment"] | null>(null);
  const [code, setCode] = useState("");
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  // Adding a factor needs a recent confirmation (step-up, by password: the person has no second factor yet).
  // Right after signing in nothing is asked; later, or if setting up the app took longer than the window,
  // the step-up dialog asks for the password and the step is repeated.
  const start = () =>
    run(async () => {
      setEnrolment(await withStepUp(() => call(api.POST("/v1/session/two-factor/enrolment"))));
      setCode("");
    });
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await withStepUp(() =>
        call(api.POST("/v1/session/two-factor/enrolment/confirmation", { body: { code: code.replace(/\s/g, "") } })),
      );
      const { recovery_codes, ...session } = answer;
      accept(session);
      setCodes(recovery_codes);
      setEnrolment(null);
      await refreshMembers();
    });
  };
  const regenerate = () =>
    run(async () => {
      const answer = await withStepUp(() => call(api.POST("/v1/session/two-factor/recovery-codes")));
      setCodes(answer.recovery_codes);
    });
  const disable = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await call(api.POST("/v1/session/two-factor/disable", { body: { code: code.trim() } }));
      accept(await call(api.GET("/v1/session")));
      setDisabling(false);
      setCode("");
      await refreshMembers();
    });
  };

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
          <Button onClick={() => void start()} loading={busy}>
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
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
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
          <Button variant="default" onClick={() => void regenerate()} loading={busy}>
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
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
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
  const { environment, membership } = useSignedIn();
  const { withStepUp } = useSession();
  const queryClient = useQueryClient();
  const admin = membership.role === "business_admin";
  const settings = useQuery({
    queryKey: [environment, "security-settings"],
    queryFn: () => call(api.GET("/v1/security-settings")),
  });
  const members = useQuery({ queryKey: [environment, "members"], queryFn: () => call(api.GET("/v1/members")) });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const without = members.data?.members.filter((m) => !m.two_factor_enabled) ?? [];

  const change = async (require_two_factor: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await withStepUp(() => call(api.PUT("/v1/security-settings", { body: { require_two_factor } })));
      queryClient.setQueryData([environment, "security-settings"], answer);
      // The caller's own session may now owe an enrolment: read it again.
      await queryClient.invalidateQueries({ queryKey: ["session"] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

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
          disabled={!admin || busy}
          onChange={(e) => void change(e.currentTarget.checked)}
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
      <ErrorAlert error={error ?? settings.error} />
    </Stack>
  );
}
