// Getting in: sign in, the second factor, sign up (registration and its e-mailed token), forgotten password,
// accepting an invitation. Each form shows the API's error envelope beside the fields it concerns.
import { Anchor, Button, Card, Code, Container, List, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { type FormEvent, type ReactNode, useState } from "react";
import { Link, useNavigate } from "react-router";
import { ApiError, api, call, type Schemas } from "../api/client";
import { ErrorAlert } from "../components/ErrorAlert";
import { useLinkFragment } from "../lib/link-fragment";
import { useSession } from "../lib/session";

function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <Container size={440} py="xl" component="main">
      <Title order={1} ta="center" mb="lg">
        {title}
      </Title>
      <Card withBorder padding="lg" radius="md">
        {children}
      </Card>
      {footer !== undefined && (
        <Stack gap={4} mt="md" align="center">
          {footer}
        </Stack>
      )}
    </Container>
  );
}

function useSubmit<T>(action: () => Promise<T>, then: (result: T) => void) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      then(await action());
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, onSubmit: (event: FormEvent) => void onSubmit(event) };
}

const fieldError = (error: unknown, field: string) => (error instanceof ApiError ? error.fieldMessage(field) : undefined);

export function SignInPage() {
  const { accept } = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const form = useSubmit(
    () => call(api.POST("/v1/session", { body: { email, password } })),
    (session) => {
      accept(session);
      navigate(session.session.next_step === "two_factor" ? "/two-factor" : "/", { replace: true });
    },
  );
  return (
    <AuthCard
      title="Sign in"
      footer={
        <>
          <Anchor component={Link} to="/forgot-password">
            Forgot your password?
          </Anchor>
          <Anchor component={Link} to="/sign-up">
            New here? Register a Business
          </Anchor>
          <Anchor component={Link} to="/invitation">
            Accept an invitation
          </Anchor>
        </>
      }
    >
      <form onSubmit={form.onSubmit} noValidate>
        <Stack>
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            required
            withAsterisk={false}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError(form.error, "email")}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            withAsterisk={false}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fieldError(form.error, "password")}
          />
          <ErrorAlert error={form.error} title="Could not sign in" />
          <Button type="submit" loading={form.busy}>
            Sign in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

export function TwoFactorPage() {
  const { accept } = useSession();
  const navigate = useNavigate();
  const [code, setCode] = useState("");
  const [recovery, setRecovery] = useState(false);
  const form = useSubmit(
    () =>
      call(
        api.POST("/v1/session/two-factor", {
          body: recovery ? { recovery_code: code.trim() } : { code: code.replace(/\s/g, "") },
        }),
      ),
    (session) => {
      accept(session);
      navigate("/", { replace: true });
    },
  );
  return (
    <AuthCard title="Two-factor authentication">
      <form onSubmit={form.onSubmit} noValidate>
        <Stack>
          <TextInput
            label={recovery ? "Recovery code" : "Authentication code"}
            description={
              recovery ? "One of your ten recovery codes (xxxxx-xxxxx)" : "The 6-digit code from your authenticator app"
            }
            autoComplete="one-time-code"
            inputMode={recovery ? "text" : "numeric"}
            required
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          <ErrorAlert error={form.error} title="Could not verify the code" />
          <Button type="submit" loading={form.busy}>
            Verify
          </Button>
          <Anchor component="button" type="button" onClick={() => setRecovery(!recovery)}>
            {recovery ? "Use the authenticator app instead" : "Use a recovery code instead"}
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}

export function SignUpPage() {
  const [businessName, setBusinessName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [sent, setSent] = useState<Schemas["RegistrationAccepted"] | null>(null);
  const form = useSubmit(
    () => call(api.POST("/v1/registration", { body: { business_name: businessName, email, password } })),
    setSent,
  );
  if (sent !== null) {
    return (
      <AuthCard title="Check your e-mail">
        <Stack>
          <Text>
            We sent a link to <strong>{sent.email}</strong>: open it to create your Business. If the link does not open, paste the
            token from the e-mail on the next page.
          </Text>
          <Button component={Link} to="/sign-up/verify">
            I have the token
          </Button>
        </Stack>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Register a Business"
      footer={
        <Anchor component={Link} to="/sign-in">
          Already registered? Sign in
        </Anchor>
      }
    >
      <form onSubmit={form.onSubmit} noValidate>
        <Stack>
          <TextInput
            label="Business name"
            required
            value={businessName}
            onChange={(e) => setBusinessName(e.currentTarget.value)}
            error={fieldError(form.error, "business_name")}
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError(form.error, "email")}
          />
          <PasswordInput
            label="Password"
            description="At least 12 characters; common passwords are refused"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fieldError(form.error, "password")}
          />
          <ErrorAlert error={form.error} title="Could not register" />
          <Button type="submit" loading={form.busy}>
            Register
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

export function VerifyRegistrationPage() {
  const link = useLinkFragment();
  const [token, setToken] = useState(link.token ?? "");
  const [created, setCreated] = useState<Schemas["RegisteredBusiness"] | null>(null);
  const form = useSubmit(() => call(api.POST("/v1/registration/verification", { body: { token: token.trim() } })), setCreated);
  if (created !== null) {
    return (
      <AuthCard title="Your Business is ready">
        <Stack>
          <Text>
            <strong>{created.business.name}</strong> is registered for {created.user.email}. These API keys are shown only now:
            store them in your secret manager (you can create new ones later under Developers).
          </Text>
          <List spacing="xs">
            {created.api_keys.map((key) => (
              <List.Item key={key.id}>
                <Text size="sm">{key.environment}</Text>
                <Code block>{key.key}</Code>
              </List.Item>
            ))}
          </List>
          <Button component={Link} to="/sign-in">
            Sign in
          </Button>
        </Stack>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Confirm your e-mail address">
      <form onSubmit={form.onSubmit} noValidate>
        <Stack>
          <TextInput
            label="Verification token"
            description="From the e-mail we sent you"
            required
            value={token}
            onChange={(e) => setToken(e.currentTarget.value)}
          />
          <ErrorAlert error={form.error} title="Could not verify" />
          <Button type="submit" loading={form.busy}>
            Create my Business
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

export function ForgotPasswordPage() {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const form = useSubmit(
    () => call(api.POST("/v1/password-resets", { body: { email } })),
    () => setSent(true),
  );
  return (
    <AuthCard
      title="Reset your password"
      footer={
        <Anchor component={Link} to="/sign-in">
          Back to sign in
        </Anchor>
      }
    >
      {sent ? (
        <Stack>
          <Text>
            If {email} has an account, we sent it a link to choose a new password. If the link does not open, paste the token from
            the e-mail on the next page.
          </Text>
          <Button component={Link} to="/reset-password">
            I have the token
          </Button>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit} noValidate>
          <Stack>
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={fieldError(form.error, "email")}
            />
            <ErrorAlert error={form.error} />
            <Button type="submit" loading={form.busy}>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

function TokenAndPasswordForm(props: {
  tokenLabel: string;
  submitLabel: string;
  passwordOptional?: boolean;
  /** The token from the e-mail's link, when the page was opened from it. */
  initialToken: string | undefined;
  action: (token: string, password: string) => Promise<unknown>;
  done: ReactNode;
}) {
  const [token, setToken] = useState(props.initialToken ?? "");
  const [password, setPassword] = useState("");
  const [finished, setFinished] = useState(false);
  const form = useSubmit(
    () => props.action(token.trim(), password),
    () => setFinished(true),
  );
  if (finished) return <>{props.done}</>;
  return (
    <form onSubmit={form.onSubmit} noValidate>
      <Stack>
        <TextInput
          label={props.tokenLabel}
          description="From the e-mail we sent you"
          required
          value={token}
          onChange={(e) => setToken(e.currentTarget.value)}
          error={fieldError(form.error, "token")}
        />
        <PasswordInput
          label="New password"
          description={`At least 12 characters; common passwords are refused${props.passwordOptional === true ? ". Leave empty if you already have an account" : ""}`}
          autoComplete="new-password"
          required={props.passwordOptional !== true}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={fieldError(form.error, "password")}
        />
        <ErrorAlert error={form.error} />
        <Button type="submit" loading={form.busy}>
          {props.submitLabel}
        </Button>
      </Stack>
    </form>
  );
}

export function ResetPasswordPage() {
  const link = useLinkFragment();
  return (
    <AuthCard title="Choose a new password">
      <TokenAndPasswordForm
        initialToken={link.token}
        tokenLabel="Reset token"
        submitLabel="Set password"
        action={(token, password) => call(api.POST("/v1/password-resets/confirmation", { body: { token, password } }))}
        done={
          <Stack>
            <Text>Your password is changed and your other sessions have ended.</Text>
            <Button component={Link} to="/sign-in">
              Sign in
            </Button>
          </Stack>
        }
      />
    </AuthCard>
  );
}

export function AcceptInvitationPage() {
  const link = useLinkFragment();
  return (
    <AuthCard title="Accept an invitation">
      {link.email !== undefined && (
        <Text mb="md" data-testid="invited-email">
          Invitation for <strong>{link.email}</strong>
        </Text>
      )}
      <TokenAndPasswordForm
        initialToken={link.token}
        tokenLabel="Invitation token"
        submitLabel="Join the Business"
        passwordOptional
        action={(token, password) =>
          call(api.POST("/v1/invitations/acceptance", { body: password === "" ? { token } : { token, password } }))
        }
        done={
          <Stack>
            <Text>You joined the Business. Sign in to start.</Text>
            <Button component={Link} to="/sign-in">
              Sign in
            </Button>
          </Stack>
        }
      />
    </AuthCard>
  );
}
