// A destructive action behind a confirmation dialog. `onConfirm` shows its own refusal (a mutation's error, see
// `settle` in hooks/api/use-api-mutation.ts): the dialog closes once it has settled, either way.
import { Button, type ButtonProps, Group, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";

export function ConfirmButton(
  props: ButtonProps & { label: string; title: string; message: string; confirmLabel: string; onConfirm: () => Promise<void> },
) {
  const { label, title, message, confirmLabel, onConfirm, ...button } = props;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button {...button} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={title} centered>
        <Stack>
          <Text size="sm">{message}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={busy}
              onClick={() => {
                setBusy(true);
                void onConfirm().finally(() => {
                  setBusy(false);
                  setOpen(false);
                });
              }}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
