// The environment's bank rails, the files sent to the bank and the files it sent back (pages of 25, newest first).
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";

export const BANK_FILES_PAGE = 25;

export function useBankRails() {
  const { environment } = useSession();
  return useQuery({ queryKey: queryKeys.bankRails.list(environment), queryFn: () => call(api.GET("/v1/bank-rails")) });
}

export function useBankFiles(cursor: string | null) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.bankRails.files(environment, cursor),
    queryFn: () =>
      call(api.GET("/v1/bank-files", { params: { query: { limit: BANK_FILES_PAGE, ...(cursor === null ? {} : { cursor }) } } })),
  });
}

/** One outbound file with the payouts it carries (asked for when the person opens it). */
export function useBankFile(id: string | null) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.bankRails.file(environment, id ?? ""),
    queryFn: () => call(api.GET("/v1/bank-files/{id}", { params: { path: { id: id ?? "" } } })),
    enabled: id !== null,
  });
}

export function useBankInboundFiles(cursor: string | null) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.bankRails.inboundFiles(environment, cursor),
    queryFn: () =>
      call(
        api.GET("/v1/bank-inbound-files", {
          params: { query: { limit: BANK_FILES_PAGE, ...(cursor === null ? {} : { cursor }) } },
        }),
      ),
  });
}
