// The files sent to the bank, newest first: status in words, cut-off, what each moved (its payouts, opened on
// demand), upload problems and alerts in words, and the download of the exact bytes (admins; audited).
import { Anchor, Badge, Button, Card, Group, List, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import { useDownloadBankFile } from "../../hooks/api/bank-rails/mutations";
import { useBankFile, useBankFiles } from "../../hooks/api/bank-rails/queries";
import type { BankFile } from "../../hooks/api/bank-rails/types";
import { settle } from "../../hooks/api/use-api-mutation";
import { useCursorPages } from "../../lib/use-cursor-pages";
import { CursorPager } from "../DataList";
import { ErrorAlert } from "../ErrorAlert";
import { Money } from "../Money";
import { MutationError } from "../MutationError";
import { Time } from "../Time";

// The whole status, never an ellipsis (as StatusBadge).
const WHOLE = {
  root: { minWidth: 0, height: "auto" },
  label: { overflow: "visible", whiteSpace: "normal", textTransform: "none" },
} as const;

import { alertWords, bankCodeWords, OUTBOUND_STATUS, RAIL_NAMES } from "./words";

export function OutboundFiles({ admin }: { admin: boolean }) {
  const pages = useCursorPages("outbound");
  const files = useBankFiles(pages.cursor);
  if (files.isPending) return <Text c="dimmed">Loading the files sent…</Text>;
  if (files.isError) return <ErrorAlert error={files.error} />;
  if (files.data.bank_files.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="no-outbound-files">
        No file sent yet: the first is written at the rail's next cut-off with payouts waiting.
      </Text>
    );
  return (
    <Stack>
      {files.data.bank_files.map((file) => (
        <OutboundFile key={file.id} file={file} admin={admin} />
      ))}
      <CursorPager pages={pages} nextCursor={files.data.next_cursor} label="Files sent, pages" />
    </Stack>
  );
}

function OutboundFile({ file, admin }: { file: BankFile; admin: boolean }) {
  const [open, setOpen] = useState(false);
  const detail = useBankFile(open ? file.id : null);
  const download = useDownloadBankFile();
  const status = OUTBOUND_STATUS[file.status];
  return (
    <Card withBorder component="article" aria-label={`File ${file.file_name}`} data-testid="outbound-file">
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
          {RAIL_NAMES[file.rail]} · cut-off <Time value={file.cutoff_at} /> · {file.entry_count}{" "}
          {file.entry_count === 1 ? "payout" : "payouts"}, <Money minor={file.control_sum_minor} currency={file.currency} />
        </Text>
        <Text size="sm" c="dimmed">
          {file.uploaded_at === null ? (
            "Not sent yet"
          ) : (
            <>
              Sent <Time value={file.uploaded_at} />
            </>
          )}
          {file.acknowledged_at !== null && (
            <>
              {" "}
              · bank's first answer <Time value={file.acknowledged_at} />
            </>
          )}
        </Text>
        {file.last_upload_error !== null && file.uploaded_at === null && (
          <Text size="sm" c="red.9">
            Sending failed ({file.upload_attempts} {file.upload_attempts === 1 ? "attempt" : "attempts"}):{" "}
            {file.last_upload_error}
          </Text>
        )}
        {file.alerts.length > 0 && (
          <List size="sm" aria-label="Needs attention">
            {file.alerts.map((alert) => (
              <List.Item key={alert}>{alertWords(alert)}</List.Item>
            ))}
          </List>
        )}
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open ? "Hide payouts" : "Show payouts"}
          </Button>
          {admin && file.status !== "refused" && (
            <Button
              size="xs"
              variant="outline"
              loading={download.isPending}
              onClick={() => void settle(download.mutateAsync(file))}
            >
              Download
            </Button>
          )}
        </Group>
        <MutationError mutation={download} title="The file was not downloaded" />
        {open && detail.isPending && (
          <Text size="sm" c="dimmed">
            Loading its payouts…
          </Text>
        )}
        {open && detail.isError && <ErrorAlert error={detail.error} />}
        {open && detail.data && (
          <List size="sm" data-testid="outbound-file-payouts">
            {detail.data.payouts.map((p) => (
              <List.Item key={p.payout_id}>
                <Anchor component={Link} to={`/payouts/${p.payout_id}`} size="sm">
                  <Money minor={p.amount_minor} currency={file.currency} /> payout
                </Anchor>{" "}
                · reference {p.reference ?? "none"} · bank: {bankCodeWords(p.bank_status)}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Card>
  );
}
