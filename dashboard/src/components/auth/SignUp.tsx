// Registering a Business: the form, then the e-mailed token that creates it (and shows its API keys once).
import { Anchor, Button, Code, List, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { Link } from "react-router";
import { useRegister, useVerifyRegistration } from "../../hooks/api/auth/mutations";
import { setFieldErrors } from "../../hooks/api/form-errors";
import { useLinkFragment } from "../../lib/link-fragment";
import { ErrorAlert } from "../ErrorAlert";
import { AuthCard } from "./AuthCard";

export function SignUpPage() {
  const register = useRegister();
  const form = useForm({ initialValues: { business_name: "", email: "", password: "" } });
  const submit = form.onSubmit((values) => register.mutate(values, { onError: (error) => setFieldErrors(form, error) }));
  const sent = register.data;
  if (sent !== undefined) {
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
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Business name" required {...form.getInputProps("business_name")} />
          <TextInput label="Email" type="email" autoComplete="email" required {...form.getInputProps("email")} />
          <PasswordInput
            label="Password"
            description="At least 12 characters; common passwords are refused"
            autoComplete="new-password"
            required
            {...form.getInputProps("password")}
          />
          <ErrorAlert error={register.error} title="Could not register" fieldsShown={["business_name", "email", "password"]} />
          <Button type="submit" loading={register.isPending}>
            Register
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

export function VerifyRegistrationPage() {
  const link = useLinkFragment();
  const verify = useVerifyRegistration();
  const form = useForm({ initialValues: { token: link.token ?? "" } });
  const submit = form.onSubmit(({ token }) => verify.mutate({ token: token.trim() }));
  const created = verify.data;
  if (created !== undefined) {
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
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Verification token"
            description="From the e-mail we sent you"
            required
            {...form.getInputProps("token", { withError: false })}
          />
          <ErrorAlert error={verify.error} title="Could not verify" />
          <Button type="submit" loading={verify.isPending}>
            Create my Business
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
