// The uploads among the most recent payouts. The API has no uploads resource: a payout carries its upload id,
// so the batches are the recent payouts grouped by it. Under `queryKeys.payouts.all`: a decision on a batch's
// payouts refreshes it.
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import type { Payout } from "../payouts/types";
import { queryKeys } from "../query-keys";
import type { Batch, Batches } from "./types";

/** Up to this many recent payouts are read to group the uploads (5 pages of 200). */
const SCAN_PAGES = 5;

export function useUploadBatches() {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.payouts.batches(environment),
    queryFn: async (): Promise<Batches> => {
      const payouts: Payout[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < SCAN_PAGES; page += 1) {
        const result: { payouts: Payout[]; next_cursor: string | null } = await call(
          api.GET("/v1/payouts", { params: { query: { limit: 200, ...(cursor === null ? {} : { cursor }) } } }),
        );
        payouts.push(...result.payouts);
        cursor = result.next_cursor;
        if (cursor === null) break;
      }
      const batches = new Map<string, Batch>();
      for (const payout of payouts) {
        if (payout.upload_id === null) continue;
        const batch = batches.get(payout.upload_id) ?? { uploadId: payout.upload_id, firstAt: payout.created_at, payouts: [] };
        batch.payouts.push(payout);
        if (payout.created_at < batch.firstAt) batches.set(payout.upload_id, { ...batch, firstAt: payout.created_at });
        else batches.set(payout.upload_id, batch);
      }
      return { batches: [...batches.values()].sort((a, b) => b.firstAt.localeCompare(a.firstAt)), partial: cursor !== null };
    },
  });
}

/**
 * The payee's display name of each payout one upload made, by payout id (the upload's results name who each row
 * pays): its payouts read by `upload_id`, 200 a page (at most 5 pages: an upload has at most 1000 rows).
 */
export function useUploadPayees(uploadId: string | null) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.payouts.upload(environment, uploadId ?? ""),
    enabled: uploadId !== null,
    queryFn: async (): Promise<ReadonlyMap<string, string>> => {
      const names = new Map<string, string>();
      let cursor: string | null = null;
      for (let page = 0; page < 5; page += 1) {
        const result: { payouts: Payout[]; next_cursor: string | null } = await call(
          api.GET("/v1/payouts", {
            params: { query: { upload_id: uploadId ?? "", limit: 200, ...(cursor === null ? {} : { cursor }) } },
          }),
        );
        for (const payout of result.payouts) names.set(payout.payout_id, payout.payee.display_name);
        cursor = result.next_cursor;
        if (cursor === null) break;
      }
      return names;
    },
  });
}
