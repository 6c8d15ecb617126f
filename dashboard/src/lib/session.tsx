// Who is signed in (GET /v1/session), the environment they look at, and step-up confirmation. The CSRF token
// from every session answer goes to the API client's memory; the environment choice is remembered by
// lib/environment.ts.
import { Anchor, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from "react";
import { ApiError, api, call, type Environment, type Schemas, setApiEnvironment, setCsrfToken } from "../api/client";
import { ErrorAlert } from "../components/ErrorAlert";
import { dropEarlyResponses } from "./early-requests";
import { storedEnvironment, storeEnvironment } from "./environment";

export type Session = Schemas["Session"];

interface SessionState {
  readonly session: Session | null;
  readonly loading: boolean;
  readonly environment: Environment;
  setEnvironment(value: Environment): void;
  /** Records a session answer (sign-in, second factor, confirmation, switch): new CSRF token and identity. */
  accept(session: Session): void;
  signOut(): Promise<void>;
  /** Runs `action`; when the API asks for a recent confirmation (401 STEP_UP_REQUIRED), asks the person, confirms and runs it again. */
  withStepUp<T>(action: () => Promise<T>): Promise<T>;
}

const SessionContext = createContext<SessionState | null>(null);

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

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [environment, setEnvironmentState] = useState<Environment>(() => {
    const initial = storedEnvironment();
    setApiEnvironment(initial);
    return initial;
  });
  const query = useQuery({ queryKey: ["session"], queryFn: fetchSession, staleTime: 60_000, retry: false });
  const [stepUp, setStepUp] = useState<{ resolve: (ok: boolean) => void } | null>(null);

  const accept = useCallback(
    (session: Session) => {
      setCsrfToken(session.csrf_token);
      queryClient.setQueryData(["session"], session);
    },
    [queryClient],
  );

  const setEnvironment = useCallback((value: Environment) => {
    // A switch: what the entry fetched early for the old environment is no one's answer any more.
    dropEarlyResponses();
    setApiEnvironment(value);
    storeEnvironment(value);
    setEnvironmentState(value);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await call(api.DELETE("/v1/session"));
    } finally {
      setCsrfToken(null);
      queryClient.clear();
      queryClient.setQueryData(["session"], null);
    }
  }, [queryClient]);

  const withStepUp = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== "STEP_UP_REQUIRED") throw error;
      const confirmed = await new Promise<boolean>((resolve) => setStepUp({ resolve }));
      setStepUp(null);
      if (!confirmed) throw error;
      return await action();
    }
  }, []);

  const state = useMemo<SessionState>(
    () => ({
      session: query.data ?? null,
      loading: query.isPending,
      environment,
      setEnvironment,
      accept,
      signOut,
      withStepUp,
    }),
    [query.data, query.isPending, environment, setEnvironment, accept, signOut, withStepUp],
  );

  return (
    <SessionContext.Provider value={state}>
      {children}
      {stepUp !== null && (
        <StepUpDialog
          twoFactor={query.data?.user.two_factor_enabled ?? false}
          onDone={(session) => {
            if (session !== null) accept(session);
            stepUp.resolve(session !== null);
          }}
        />
      )}
    </SessionContext.Provider>
  );
}

/**
 * Step-up: a person with two-factor authentication confirms with the factor (a code from the app, or one of
 * the recovery codes when the app is not at hand); the API refuses their password alone. A person without it
 * confirms with the password.
 */
function StepUpDialog({ twoFactor, onDone }: { twoFactor: boolean; onDone: (session: Session | null) => void }) {
  const [secret, setSecret] = useState("");
  const [recovery, setRecovery] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const done = useRef(false);
  const finish = (session: Session | null) => {
    if (done.current) return;
    done.current = true;
    onDone(session);
  };
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const body = !twoFactor
        ? { password: secret }
        : recovery
          ? { recovery_code: secret.trim() }
          : { code: secret.replace(/\s/g, "") };
      finish(await call(api.POST("/v1/session/confirmation", { body })));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={() => finish(null)} title="Confirm it is you" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <Text size="sm">
            This action needs a recent confirmation.{" "}
            {!twoFactor
              ? "Enter your password."
              : recovery
                ? "Enter one of your recovery codes (it works once)."
                : "Enter the code from your authenticator app."}
          </Text>
          {twoFactor ? (
            <TextInput
              key={recovery ? "recovery" : "code"}
              label={recovery ? "Recovery code" : "Authentication code"}
              autoComplete="one-time-code"
              inputMode={recovery ? "text" : "numeric"}
              value={secret}
              onChange={(e) => setSecret(e.currentTarget.value)}
              data-autofocus
              required
            />
          ) : (
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              value={secret}
              onChange={(e) => setSecret(e.currentTarget.value)}
              data-autofocus
              required
            />
          )}
          {twoFactor && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => {
                setRecovery(!recovery);
                setSecret("");
              }}
            >
              {recovery ? "Use the authenticator app instead" : "Use a recovery code instead"}
            </Anchor>
          )}
          <ErrorAlert error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => finish(null)}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Confirm
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
