// The Business's security settings of the environment shown (whether every member must use two-factor).
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";

export function useSecuritySettings() {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.securitySettings(environment),
    queryFn: () => call(api.GET("/v1/security-settings")),
  });
}
