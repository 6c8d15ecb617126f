// A forgotten password: ask for the e-mailed link, then choose a new password with its token.
import { Anchor, Button, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { Link } from "react-router";
import { useRequestPasswordReset, useResetPassword } from "../../hooks/api/auth/mutations";
import { setFieldErrors } from "../../hooks/api/form-errors";
import { useLinkFragment } from "../../lib/link-fragment";
import { ErrorAlert } from "../ErrorAlert";
import { AuthCard } from "./AuthCard";
import { TokenAndPasswordForm } from "./TokenAndPasswordForm";

export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const form = useForm({ initialValues: { email: "" } });
  const submit = form.onSubmit((values) => request.mutate(values, { onError: (error) => setFieldErrors(form, error) }));
  return (
    <AuthCard
      title="Reset your password"
      footer={
        <Anchor component={Link} to="/sign-in">
          Back to sign in
        </Anchor>
      }
    >
      {request.isSuccess ? (
        <Stack>
          <Text>
            If {form.values.email} has an account, we sent it a link to choose a new password. If the link does not open, paste
            the token from the e-mail on the next page.
          </Text>
          <Button component={Link} to="/reset-password">
            I have the token
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps("email")} />
            <ErrorAlert error={request.error} />
            <Button type="submit" loading={request.isPending}>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

export function ResetPasswordPage() {
  const link = useLinkFragment();
  const reset = useResetPassword();
  return (
    <AuthCard title="Choose a new password">
      <TokenAndPasswordForm
        initialToken={link.token}
        tokenLabel="Reset token"
        submitLabel="Set password"
        mutation={reset}
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
