// What "Test connection" found, step by step in the API's words: passed, failed (what to do) or not tried.
import { Alert, List, Text, ThemeIcon } from "@mantine/core";
import type { ConnectionTest } from "../../hooks/api/bank-rails/types";
import { Time } from "../Time";

const STEP_NAMES: Readonly<Record<ConnectionTest["steps"][number]["step"], string>> = {
  connect: "Connection",
  host_key: "Host key",
  login: "Login",
  outbound_directory: "Outbound directory",
  inbound_directory: "Inbound directory",
};
const STATUS_WORDS = { passed: "Passed", failed: "Failed", skipped: "Not tried" } as const;
const STATUS_COLOURS = { passed: "teal.9", failed: "red.9", skipped: "gray.7" } as const;

export function ConnectionTestResult({ result }: { result: ConnectionTest }) {
  return (
    <Alert
      color={result.ok ? "teal" : "red"}
      title={result.ok ? "The connection works" : "The connection test failed"}
      role="status"
      data-testid={`connection-test-${result.rail}`}
    >
      <Text size="sm" mb="xs">
        {result.summary} Tested <Time value={result.tested_at} />.
      </Text>
      <List spacing={4} size="sm" icon={null}>
        {result.steps.map((step) => (
          <List.Item
            key={step.step}
            icon={
              <ThemeIcon size="xs" radius="xl" color={STATUS_COLOURS[step.status]} aria-hidden>
                {" "}
              </ThemeIcon>
            }
          >
            <Text span size="sm" fw={600}>
              {STEP_NAMES[step.step]}: {STATUS_WORDS[step.status]}.
            </Text>{" "}
            <Text span size="sm" style={{ overflowWrap: "anywhere" }}>
              {step.message}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
