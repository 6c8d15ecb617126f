// The session's context: what lib/session.tsx's provider gives every component (the session, the environment,
// step-up). Its own file so the data layer (hooks/api/use-api-mutation.ts) reads it without importing the
// provider, which itself uses the data layer's session hooks.
import { createContext, useContext } from "react";
import type { Environment } from "../api/client";
import type { Session } from "../hooks/api/session/types";

export interface SessionState {
  readonly session: Session | null;
  readonly loading: boolean;
  readonly environment: Environment;
  setEnvironment(value: Environment): void;
  /** Records a session answer (sign-in, second factor, confirmation, switch): new CSRF token and identity. */
  accept(session: Session): void;
  /** Runs `action`; when the API asks for a recent confirmation (401 STEP_UP_REQUIRED), asks the person, confirms and runs it again. */
  withStepUp<T>(action: () => Promise<T>): Promise<T>;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (state === null) throw new Error("useSession outside SessionProvider");
  return state;
}

/** The signed-in session; only inside the signed-in layout. */
export function useSignedIn(): Session & { environment: Environment } {
  const { session, environment } = useSession();
  if (session === null) throw new Error("not signed in");
  return { ...session, environment };
}
