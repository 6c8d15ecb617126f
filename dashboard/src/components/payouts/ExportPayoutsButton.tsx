// "Export CSV" on the payouts list: the payouts matching the current filters (every page) as the service's CSV
// file (GET /v1/payouts/export: payee name, masked destination, both amounts), saved through an object URL.
import { Button } from "@mantine/core";
import { usePayoutExport } from "../../hooks/api/payouts/queries";
import type { PayoutListFilters } from "../../hooks/api/payouts/types";
import { MutationError } from "../MutationError";

function saveBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ExportPayoutsButton(props: { filters: PayoutListFilters; environment: string }) {
  const exportCsv = usePayoutExport();
  const run = () =>
    exportCsv.mutate(props.filters, {
      onSuccess: (blob) => saveBlob(`payouts-${props.environment}-${new Date().toISOString().slice(0, 10)}.csv`, blob),
    });
  return (
    <>
      <Button variant="default" onClick={run} loading={exportCsv.isPending} data-testid="export-payouts">
        Export CSV
      </Button>
      <MutationError mutation={exportCsv} title="Could not export payouts" />
    </>
  );
}
