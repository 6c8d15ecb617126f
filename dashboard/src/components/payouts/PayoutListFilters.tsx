// The payouts list's filters (status, Beneficiary id, upload id, and the extra ones of PayoutFilters). On a wide
// screen they are shown; at phone width they fold behind a "Filters" button (naming how many apply), so the first
// screen shows payouts rather than a form.
import { Button, Collapse, Group, Stack } from "@mantine/core";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { ApiError } from "../../api/client";
import { FILTER_PARAMS } from "../../lib/payout-filters";
import { STATUS_LABELS } from "../../lib/payouts";
import { useUrlFilters } from "../../lib/url-filters";
import { FilterSelect } from "../FilterSelect";
import { FilterTextInput } from "../FilterTextInput";
import { PayoutFilters } from "../PayoutFilters";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function PayoutListFilters({ error }: { error: unknown }) {
  const { params, setFilter } = useUrlFilters();
  const phone = useMediaQuery("(max-width: 40em)") ?? false;
  const [opened, { toggle, close }] = useDisclosure(false);
  const beneficiary = params.get("beneficiary_id") ?? "";
  const upload = params.get("upload_id") ?? "";
  const applied = ["status", "beneficiary_id", "upload_id", ...FILTER_PARAMS].filter((name) => params.has(name)).length;

  const fields = (
    <Stack gap="sm">
      <Group align="flex-end" gap="sm">
        <FilterSelect label="Status" placeholder="Any status" param="status" options={STATUS_LABELS} width={200} />
        <FilterTextInput
          label="Beneficiary id"
          description="Or open the Beneficiary and follow its payouts link"
          value={beneficiary}
          onCommit={(value) => setFilter("beneficiary_id", value)}
          complete={(value) => UUID.test(value)}
          problem={(value) => (value !== "" && !UUID.test(value) ? "Paste a Beneficiary id" : undefined)}
          w={320}
          maw="100%"
        />
        <FilterTextInput
          label="Upload id"
          description="Enter to apply"
          value={upload}
          onCommit={(value) => setFilter("upload_id", value)}
          w={260}
          maw="100%"
        />
      </Group>
      <PayoutFilters error={error} {...(phone ? { onApplied: close } : {})} />
    </Stack>
  );
  if (!phone) return fields;
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="default" onClick={toggle} aria-expanded={opened} aria-controls="payout-list-filters">
          {opened ? "Hide filters" : applied > 0 ? `Filters (${applied})` : "Filters"}
        </Button>
      </Group>
      {/* A filter the API refused is shown open, beside its message. */}
      <Collapse expanded={opened || (error instanceof ApiError && error.code === "validation_failed")} id="payout-list-filters">
        {fields}
      </Collapse>
    </Stack>
  );
}
