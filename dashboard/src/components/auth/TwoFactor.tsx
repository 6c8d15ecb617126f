// The second factor after the password: a code from the authenticator app, or one of the recovery codes.
import { Anchor, Button, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useVerifySecondFactor } from "../../hooks/api/session/mutations";
import { ErrorAlert } from "../ErrorAlert";
import { AuthCard } from "./AuthCard";

export function TwoFactorPage() {
  const navigate = useNavigate();
  const verify = useVerifySecondFactor();
  const [recovery, setRecovery] = useState(false);
  const form = useForm({ initialValues: { code: "" } });
  const submit = form.onSubmit(({ code }) =>
    verify.mutate(recovery ? { recovery_code: code.trim() } : { code: code.replace(/\s/g, "") }, {
      onSuccess: () => navigate("/", { replace: true }),
    }),
  );
  return (
    <AuthCard title="Two-factor authentication">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={recovery ? "Recovery code" : "Authentication code"}
            description={
              recovery ? "One of your ten recovery codes (xxxxx-xxxxx)" : "The 6-digit code from your authenticator app"
            }
            autoComplete="one-time-code"
            inputMode={recovery ? "text" : "numeric"}
            required
            {...form.getInputProps("code")}
          />
          <ErrorAlert error={verify.error} title="Could not verify the code" />
          <Button type="submit" loading={verify.isPending}>
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
