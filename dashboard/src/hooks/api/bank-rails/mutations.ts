// Configuring, testing and removing a bank rail (admins, step-up), and downloading a file's bytes (admins;
// every download is in the audit log). A write refreshes the rails; a test changes nothing but the audit log.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { downloadText } from "../../../lib/download";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { AchRailBody, BankFile, BankRailName, SepaRailBody } from "./types";

export type RailBody = { rail: "sepa"; body: SepaRailBody } | { rail: "ach"; body: AchRailBody };

export function useConfigureBankRail() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (input: RailBody) =>
      input.rail === "sepa"
        ? call(api.PUT("/v1/bank-rails/sepa", { body: input.body }))
        : call(api.PUT("/v1/bank-rails/ach", { body: input.body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bankRails.all(environment) }),
  });
}

export function useRemoveBankRail() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (rail: BankRailName) =>
      rail === "sepa" ? call(api.DELETE("/v1/bank-rails/sepa")) : call(api.DELETE("/v1/bank-rails/ach")),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bankRails.all(environment) }),
  });
}

export function useTestBankRailConnection() {
  return useApiMutation({
    mutationFn: (rail: BankRailName) =>
      rail === "sepa"
        ? call(api.POST("/v1/bank-rails/sepa/test-connection"))
        : call(api.POST("/v1/bank-rails/ach/test-connection")),
  });
}

/** Fetches the exact bytes sent to the bank and saves them under the file's name. */
export function useDownloadBankFile() {
  return useApiMutation({
    mutationFn: async (file: BankFile) => {
      const text = await call(api.GET("/v1/bank-files/{id}/content", { params: { path: { id: file.id } }, parseAs: "text" }));
      downloadText(
        file.file_name,
        String(text),
        file.rail === "sepa" ? "application/xml;charset=utf-8" : "text/plain;charset=utf-8",
      );
    },
  });
}
