// Who is signed in (GET /v1/session; null when no one) and the signed-in person's sessions in every browser.
// The session query is read by lib/session.tsx's provider: pages read it through useSession().
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { ApiError, api, call, setCsrfToken } from "../../../api/client";
import { queryKeys } from "../query-keys";
import type { Session } from "./types";

async function fetchSession(): Promise<Session | null> {
  try {
    const session = await call(api.GET("/v1/session"));
    setCsrfToken(session.csrf_token);
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useSessionQuery() {
  return useQuery({ queryKey: queryKeys.session, queryFn: fetchSession, staleTime: 60_000, retry: false });
}

/**
 * Records a session answer (sign-in, second factor, confirmation, switch, enrolment): its CSRF token for the
 * next writes and the identity every page reads, without asking again.
 */
export function useAcceptSession(): (session: Session) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (session: Session) => {
      setCsrfToken(session.csrf_token);
      queryClient.setQueryData(queryKeys.session, session);
    },
    [queryClient],
  );
}

/** No one is signed in any more (signed out, here or everywhere): nothing cached stays. */
export function useForgetSession(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    setCsrfToken(null);
    queryClient.clear();
    queryClient.setQueryData(queryKeys.session, null);
  }, [queryClient]);
}

/** The person's own sessions, in every Business and browser: not an environment's. */
export function useMySessions() {
  return useQuery({ queryKey: queryKeys.mySessions, queryFn: () => call(api.GET("/v1/session/sessions")) });
}
