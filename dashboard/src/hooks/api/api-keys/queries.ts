// The API keys of the environment shown.
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";

export function useApiKeys() {
  const { environment } = useSession();
  return useQuery({ queryKey: queryKeys.apiKeys.all(environment), queryFn: () => call(api.GET("/v1/api-keys")) });
}
