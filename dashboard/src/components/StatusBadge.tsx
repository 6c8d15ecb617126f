import { Badge } from "@mantine/core";
import { type PayoutStatus, STATUS_COLORS, STATUS_LABELS } from "../lib/payouts";

// The whole status, never an ellipsis: in a narrow table cell ("DISBURS…" at phone width) a cut status is a
// guess. The badge keeps its natural width and the table scrolls sideways inside its box instead.
const WHOLE = { root: { minWidth: "max-content" }, label: { overflow: "visible", textOverflow: "clip" } } as const;

export function StatusBadge({ status }: { status: PayoutStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="filled" autoContrast styles={WHOLE}>
      {STATUS_LABELS[status]}
    </Badge>
  );
}
