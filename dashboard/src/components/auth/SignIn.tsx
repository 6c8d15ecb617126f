// Signing in with e-mail and password; a person with two-factor goes on to the code.
import { Anchor, Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { Link, useNavigate } from "react-router";
import { setFieldErrors } from "../../hooks/api/form-errors";
import { useSignIn } from "../../hooks/api/session/mutations";
import { ErrorAlert } from "../ErrorAlert";
import { AuthCard } from "./AuthCard";

export function SignInPage() {
  const navigate = useNavigate();
  const signIn = useSignIn();
  const form = useForm({ initialValues: { email: "", password: "" } });
  const submit = form.onSubmit((values) =>
    signIn.mutate(values, {
      onSuccess: (session) => navigate(session.session.next_step === "two_factor" ? "/two-factor" : "/", { replace: true }),
      onError: (error) => setFieldErrors(form, error),
    }),
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
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            required
            withAsterisk={false}
            {...form.getInputProps("email")}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            withAsterisk={false}
            {...form.getInputProps("password")}
          />
          <ErrorAlert error={signIn.error} title="Could not sign in" />
          <Button type="submit" loading={signIn.isPending}>
            Sign in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
