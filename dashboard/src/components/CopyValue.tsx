import { Button, Code, Group } from "@mantine/core";
import { useClipboard } from "@mantine/hooks";

/** A secret shown once, with a copy button. */
export function CopyValue({ value }: { value: string }) {
  const clipboard = useClipboard({ timeout: 2000 });
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code block style={{ wordBreak: "break-all", whiteSpace: "pre-wrap", minWidth: 0, flex: 1 }} data-testid="secret-value">
        {value}
      </Code>
      <Button size="xs" variant="default" onClick={() => clipboard.copy(value)}>
        {clipboard.copied ? "Copied" : "Copy"}
      </Button>
    </Group>
  );
}
