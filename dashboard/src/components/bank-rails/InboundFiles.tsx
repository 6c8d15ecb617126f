// The files the bank sent, newest first: what each was read as, its status, each payout it moved and what it
// asked for it, and every problem in the API's sentences (never a code alone).
import { Anchor, Badge, Card, Group, List, Stack, Text } from "@mantine/core";
import { Link } from "react-router";
import { useBankInboundFiles } from "../../hooks/api/bank-rails/queries";
import type { BankInboundFile } from "../../hooks/api/bank-rails/types";
import { useCursorPages } from "../../lib/use-cursor-pages";
import { CursorPager } from "../DataList";
import { ErrorAlert } from "../ErrorAlert";
import { Time } from "../Time";

// The whole status, never an ellipsis (as StatusBadge).
const WHOLE = {
  root: { minWidth: 0, height: "auto" },
  label: { overflow: "visible", whiteSpace: "normal", textTransform: "none" },
} as const;

import { bankCodeWords, INBOUND_KIND, INBOUND_STATUS, outcomeWords, RAIL_NAMES } from "./words";

export function InboundFiles() {
  const pages = useCursorPages("inbound");
  const files = useBankInboundFiles(pages.cursor);
  if (files.isPending) return <Text c="dimmed">Loading the files received…</Text>;
  if (files.isError) return <ErrorAlert error={files.error} />;
  if (files.data.bank_inbound_files.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="no-inbound-files">
        No file received from the bank yet.
      </Text>
    );
  return (
    <Stack>
      {files.data.bank_inbound_files.map((file) => (
        <InboundFile key={file.id} file={file} />
      ))}
      <CursorPager pages={pages} nextCursor={files.data.next_cursor} label="Files received, pages" />
    </Stack>
  );
}

function InboundFile({ file }: { file: BankInboundFile }) {
  const status = INBOUND_STATUS[file.status];
  return (
    <Card withBorder component="article" aria-label={`Received file ${file.file_name}`} data-testid="inbound-file">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} style={{ overflowWrap: "anywhere" }}>
            {file.file_name}
          </Text>
          <Badge color={status.color} variant="filled" autoContrast styles={WHOLE}>
            {status.label}
          </Badge>
        </Group>
        <Text size="sm">
          {RAIL_NAMES[file.rail]} · {INBOUND_KIND[file.kind]} · received <Time value={file.received_at} />
          {file.size_bytes !== null && ` · ${file.size_bytes.toLocaleString("en")} bytes`}
        </Text>
        {file.moved.length > 0 && (
          <>
            <Text size="sm" fw={600}>
              What it moved
            </Text>
            <List size="sm" data-testid="inbound-moved">
              {file.moved.map((m) => (
                <List.Item key={`${m.payout_id}-${m.outcome}`}>
                  <Anchor component={Link} to={`/payouts/${m.payout_id}`} size="sm">
                    Payout {m.payout_id.slice(-8)}
                  </Anchor>
                  : {outcomeWords(m.outcome)} (bank: {bankCodeWords(m.bank_status)})
                </List.Item>
              ))}
            </List>
          </>
        )}
        {file.problems.length > 0 && (
          <>
            <Text size="sm" fw={600} c="red.9">
              Problems
            </Text>
            <List size="sm" data-testid="inbound-problems">
              {file.problems.map((p) => (
                <List.Item key={`${p.reference ?? "file"}: ${p.reason}`} style={{ overflowWrap: "anywhere" }}>
                  {p.reason}
                </List.Item>
              ))}
            </List>
          </>
        )}
      </Stack>
    </Card>
  );
}
