// A dialog holding one form: its fields, the API's refusal where the person is looking, and Cancel beside the
// submit button (which shows it is busy while the request is in flight).
import { Button, Group, Modal, type ModalProps, Stack } from "@mantine/core";
import type { FormEvent, ReactNode } from "react";
import { ErrorAlert } from "./ErrorAlert";

export function FormDialog(props: {
  title: string;
  opened?: boolean;
  onClose: () => void;
  /** A @mantine/form's `form.onSubmit(...)`, or a handler of the event. */
  onSubmit: (event: FormEvent<HTMLFormElement>) => void | Promise<void>;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  errorTitle?: string;
  fieldLabels?: Readonly<Record<string, string>>;
  size?: ModalProps["size"];
  /** Leave the checks to the API, whose refusals name the fields (the browser's own bubbles are skipped). */
  noValidate?: boolean;
  children: ReactNode;
}) {
  return (
    <Modal opened={props.opened ?? true} onClose={props.onClose} title={props.title} centered size={props.size ?? "md"}>
      <form onSubmit={(event) => void props.onSubmit(event)} noValidate={props.noValidate ?? false}>
        <Stack>
          {props.children}
          <ErrorAlert
            error={props.error}
            {...(props.errorTitle !== undefined && { title: props.errorTitle })}
            {...(props.fieldLabels !== undefined && { fieldLabels: props.fieldLabels })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={props.busy}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
