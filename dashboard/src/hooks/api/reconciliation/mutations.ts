// The people's side of reconciliation: uploading a statement file, matching a line by hand (a candidate, several
// payouts booked as one line, or a top-up), undoing a match, ignoring a line with a reason, resolving a balance
// mismatch with a reason, and (admins) taking a first statement's opening balance as the account's starting
// balance. Each goes through step-up when the API asks. A match or unmatch moves payouts and balances, so those
// are read again too. Lines are read again also after a refusal (`onSettled`): a refusal here usually means
// someone else acted on the line meanwhile, and the queue should show how it is now.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { MatchTarget } from "./types";

function useRefresh() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.reconciliation.all(environment) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.funding.all(environment) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.payouts.all(environment) }),
    ]);
}

/** An XML file (camt.053, camt.052) or a text one (BAI2), told apart by its first character, as the API reads them. */
export function statementContentType(text: string): "application/xml" | "text/plain" {
  return text.trimStart().startsWith("<") ? "application/xml" : "text/plain";
}

export function useUploadStatement() {
  const refresh = useRefresh();
  return useApiMutation({
    mutationFn: async (text: string) => {
      const contentType = statementContentType(text);
      const request = api.POST("/v1/bank-statements", {
        body: text,
        bodySerializer: (body: string) => body,
        headers: { "content-type": `${contentType}; charset=utf-8` },
      });
      const statement = await call(request);
      // 201: read for the first time; 200: the same bytes were received before and nothing was added.
      return { statement, duplicate: (await request).response.status === 200 };
    },
    onSuccess: refresh,
  });
}

export function useMatchLine() {
  const refresh = useRefresh();
  return useApiMutation({
    mutationFn: ({ lineId, target }: { lineId: string; target: MatchTarget }) =>
      call(
        api.POST("/v1/statement-lines/{id}/match", {
          params: { path: { id: lineId } },
          body: "topUpId" in target ? { top_up_id: target.topUpId } : { payout_ids: [...target.payoutIds] },
        }),
      ),
    onSettled: refresh,
  });
}

export function useUnmatchLine() {
  const refresh = useRefresh();
  return useApiMutation({
    mutationFn: (lineId: string) => call(api.POST("/v1/statement-lines/{id}/unmatch", { params: { path: { id: lineId } } })),
    onSettled: refresh,
  });
}

export function useIgnoreLine() {
  const refresh = useRefresh();
  return useApiMutation({
    mutationFn: ({ lineId, reason }: { lineId: string; reason: string }) =>
      call(api.POST("/v1/statement-lines/{id}/ignore", { params: { path: { id: lineId } }, body: { reason } })),
    onSettled: refresh,
  });
}

export function useResolveMismatch() {
  const refresh = useRefresh();
  return useApiMutation({
    mutationFn: ({ statementId, reason }: { statementId: string; reason: string }) =>
      call(api.POST("/v1/bank-statements/{id}/resolve-mismatch", { params: { path: { id: statementId } }, body: { reason } })),
    onSettled: refresh,
  });
}

export function useAcceptOpeningBalance() {
  const refresh = useRefresh();
  return useApiMutation({
    mutationFn: (statementId: string) =>
      call(api.POST("/v1/bank-statements/{id}/accept-opening-balance", { params: { path: { id: statementId } } })),
    onSettled: refresh,
  });
}
