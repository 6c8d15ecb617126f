// What a person with the approver or admin role does with one line: match it by the ids of payouts or a top-up
// (when no candidate is the right one), ignore it with a reason, or undo a match. Readers get no buttons.
import { Button, Group, Radio, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { setFieldErrors } from "../../hooks/api/form-errors";
import { useIgnoreLine, useMatchLine, useUnmatchLine } from "../../hooks/api/reconciliation/mutations";
import type { StatementLine } from "../../hooks/api/reconciliation/types";
import { settle } from "../../hooks/api/use-api-mutation";
import { formatMoney } from "../../lib/money";
import { ConfirmButton } from "../ConfirmButton";
import { FormDialog } from "../FormDialog";
import { MutationError } from "../MutationError";
import { ReasonDialog } from "./ReasonDialog";

export function LineActions(props: { line: StatementLine; decider: boolean; offerMatch?: boolean }) {
  const { line } = props;
  const [dialog, setDialog] = useState<"match" | "ignore" | null>(null);
  const ignore = useIgnoreLine();
  const unmatch = useUnmatchLine();
  if (!props.decider) return null;
  const amount = formatMoney(line.amount_minor, line.currency);
  const open = line.status === "needs_review" || line.status === "unmatched";
  return (
    <>
      <Group gap="xs" wrap="wrap">
        {open && props.offerMatch === true && (
          <Button size="xs" variant="default" onClick={() => setDialog("match")}>
            Match by id…
          </Button>
        )}
        {open && (
          <Button size="xs" variant="default" onClick={() => setDialog("ignore")}>
            Ignore…
          </Button>
        )}
        {line.status === "matched" && (
          <ConfirmButton
            size="xs"
            variant="default"
            label="Unmatch"
            title="Undo this match?"
            message={`The line of ${amount} goes back to the review queue and its payouts are no longer marked reconciled.`}
            confirmLabel="Unmatch"
            onConfirm={() => settle(unmatch.mutateAsync(line.id))}
          />
        )}
      </Group>
      <MutationError mutation={unmatch} title="The match was not undone" />
      {dialog === "ignore" && (
        <ReasonDialog
          title={`Ignore the line of ${amount}`}
          submitLabel="Ignore line"
          errorTitle="The line was not ignored"
          explanation="It leaves the queue and is no longer counted as unexplained; the reason is kept with it."
          busy={ignore.isPending}
          error={ignore.error}
          onSubmit={(reason, done) => ignore.mutate({ lineId: line.id, reason }, done)}
          onClose={() => {
            ignore.reset();
            setDialog(null);
          }}
        />
      )}
      {dialog === "match" && <MatchByIdDialog line={line} onClose={() => setDialog(null)} />}
    </>
  );
}

/** Ids are pasted from a payout's or a top-up's page: separated by spaces, commas or new lines. */
function idsOf(text: string): string[] {
  return text.split(/[\s,;]+/).filter((id) => id !== "");
}

function MatchByIdDialog(props: { line: StatementLine; onClose: () => void }) {
  const { line } = props;
  const match = useMatchLine();
  const form = useForm({ initialValues: { kind: line.direction === "credit" ? "top_up" : "payouts", ids: "" } });
  const submit = form.onSubmit(({ kind, ids }) => {
    const list = idsOf(ids);
    if (list.length === 0) return form.setFieldError("ids", "Give at least one id");
    if (kind === "top_up" && list.length > 1) return form.setFieldError("ids", "A line matches one top-up");
    const target = kind === "top_up" ? { topUpId: list[0] ?? "" } : { payoutIds: list };
    match.mutate(
      { lineId: line.id, target },
      {
        onSuccess: props.onClose,
        onError: (error) => setFieldErrors(form, error, { aliases: { payout_ids: "ids", top_up_id: "ids" } }),
      },
    );
  });
  return (
    <FormDialog
      title={`Match the line of ${formatMoney(line.amount_minor, line.currency)}`}
      onClose={props.onClose}
      onSubmit={submit}
      submitLabel="Match"
      busy={match.isPending}
      error={match.error}
      errorTitle="The line was not matched"
      fieldLabels={{ payout_ids: "Ids", top_up_id: "Ids" }}
    >
      <Radio.Group label="Match it to" {...form.getInputProps("kind")}>
        <Group mt={4}>
          <Radio value="payouts" label="Payouts" />
          <Radio value="top_up" label="A top-up" />
        </Group>
      </Radio.Group>
      <TextInput
        label={form.values.kind === "top_up" ? "Top-up id" : "Payout ids"}
        description={
          form.values.kind === "top_up"
            ? "From the Balances page"
            : "Several for a batch the bank booked as one line, separated by spaces or commas"
        }
        {...form.getInputProps("ids")}
        required
        data-autofocus
      />
    </FormDialog>
  );
}
