// Sending a bulk upload: its rows as payouts under the file's upload id (the same file sent again replays its
// rows instead of paying twice); the payouts and the batches are read again once it succeeded.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { BulkUploadRequest } from "./types";

export function useBulkUpload() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (body: BulkUploadRequest) => call(api.POST("/v1/payouts/bulk", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.payouts.all(environment) }),
  });
}
