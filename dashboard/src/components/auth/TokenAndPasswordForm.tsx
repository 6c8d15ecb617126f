// A token from an e-mail and a new password: the reset of a forgotten password and the acceptance of an
// invitation (where the password may stay empty for a person who already has an account).
import { Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import type { ReactNode } from "react";
import { setFieldErrors } from "../../hooks/api/form-errors";
import { ErrorAlert } from "../ErrorAlert";

export function TokenAndPasswordForm(props: {
  tokenLabel: string;
  submitLabel: string;
  passwordOptional?: boolean;
  /** The token from the e-mail's link, when the page was opened from it. */
  initialToken: string | undefined;
  /** The mutation that sends them: `mutate` with the trimmed token and the password, its state shown here. */
  mutation: {
    mutate: (input: { token: string; password: string }, callbacks: { onError: (error: Error) => void }) => void;
    readonly isPending: boolean;
    readonly isSuccess: boolean;
    readonly error: Error | null;
  };
  done: ReactNode;
}) {
  const form = useForm({ initialValues: { token: props.initialToken ?? "", password: "" } });
  const submit = form.onSubmit(({ token, password }) =>
    props.mutation.mutate({ token: token.trim(), password }, { onError: (error) => setFieldErrors(form, error) }),
  );
  if (props.mutation.isSuccess) return <>{props.done}</>;
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput label={props.tokenLabel} description="From the e-mail we sent you" required {...form.getInputProps("token")} />
        <PasswordInput
          label="New password"
          description={`At least 12 characters; common passwords are refused${props.passwordOptional === true ? ". Leave empty if you already have an account" : ""}`}
          autoComplete="new-password"
          required={props.passwordOptional !== true}
          {...form.getInputProps("password")}
        />
        <ErrorAlert error={props.mutation.error} fieldsShown={["token", "password"]} />
        <Button type="submit" loading={props.mutation.isPending}>
          {props.submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
