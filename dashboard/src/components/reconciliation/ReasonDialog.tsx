// A write that needs a reason kept with it (ignoring a line, resolving a balance mismatch): the reason, the
// refusal, Cancel and the action. The API's refusal of the reason lands on the field.
import { Text, Textarea } from "@mantine/core";
import { useForm } from "@mantine/form";
import type { ReactNode } from "react";
import { setFieldErrors } from "../../hooks/api/form-errors";
import { FormDialog } from "../FormDialog";

export function ReasonDialog(props: {
  title: string;
  submitLabel: string;
  errorTitle: string;
  explanation: ReactNode;
  busy: boolean;
  error: unknown;
  onSubmit: (reason: string, done: { onSuccess: () => void; onError: (error: Error) => void }) => void;
  onClose: () => void;
}) {
  const form = useForm({ initialValues: { reason: "" } });
  const submit = form.onSubmit(({ reason }) => {
    if (reason.trim() === "") {
      form.setFieldError("reason", "Say why: the reason is kept with the line and in the audit log");
      return;
    }
    props.onSubmit(reason.trim(), { onSuccess: props.onClose, onError: (error) => setFieldErrors(form, error) });
  });
  return (
    <FormDialog
      title={props.title}
      onClose={props.onClose}
      onSubmit={submit}
      submitLabel={props.submitLabel}
      busy={props.busy}
      error={props.error}
      errorTitle={props.errorTitle}
      fieldLabels={{ reason: "Reason" }}
    >
      <Text size="sm">{props.explanation}</Text>
      <Textarea label="Reason" {...form.getInputProps("reason")} maxLength={500} autosize minRows={2} required data-autofocus />
    </FormDialog>
  );
}
