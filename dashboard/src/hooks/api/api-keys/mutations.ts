// Creating and revoking API keys (step-up for both); each reads the environment's keys again.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { ApiKeyInput } from "./types";

export function useCreateApiKey() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (body: ApiKeyInput) => call(api.POST("/v1/api-keys", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys.all(environment) }),
  });
}

export function useRevokeApiKey() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (id: string) => call(api.DELETE("/v1/api-keys/{id}", { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys.all(environment) }),
  });
}
