// What stands between a Beneficiary and `ready`, in words, on its page: a green "ready" alert, or the list of
// everything still missing as the API states it (`missing_for_ready`), not only the first rule that matches.
import { Alert, List } from "@mantine/core";
import type { Beneficiary } from "../../hooks/api/beneficiaries/types";
import { DARK_TITLE } from "./alert-styles";

export function Readiness({ b }: { b: Beneficiary }) {
  if (b.status === "ready" && b.archived_at === null)
    return <Alert color="green" title="Ready to be paid" data-testid="readiness" styles={DARK_TITLE} />;
  return (
    <Alert color="yellow" title="Not ready to be paid yet: missing" data-testid="readiness">
      <List size="sm">
        {/* The API's own list (missing_for_ready), the rules of beneficiaries.state.ts: never a copy here. */}
        {b.missing_for_ready.map((requirement) => (
          <List.Item key={requirement.code}>{requirement.message}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
