// Who is signed in (GET /v1/session, hooks/api/session), the environment they look at, and step-up
// confirmation (withStepUp, which every write made with useApiMutation runs through, and its dialog). The CSRF
// token from every session answer goes to the API client's memory; the environment choice is remembered by
// lib/environment.ts. What the provider gives is lib/session-context.ts.
import { Anchor, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { type ReactNode, useCallback, useMemo, useRef, useState } from "react";
import { ApiError, type Environment, setApiEnvironment } from "../api/client";
import { ErrorAlert } from "../components/ErrorAlert";
import { useConfirmStepUp } from "../hooks/api/session/mutations";
import { useAcceptSession, useSessionQuery } from "../hooks/api/session/queries";
import type { Session } from "../hooks/api/session/types";
import { dropEarlyResponses } from "./early-requests";
import { storedEnvironment, storeEnvironment } from "./environment";
import { SessionContext, type SessionState } from "./session-context";

export { type SessionState, useSession, useSignedIn } from "./session-context";
export type { Session };

export function SessionProvider({ children }: { children: ReactNode }) {
  const [environment, setEnvironmentState] = useState<Environment>(() => {
    const initial = storedEnvironment();
    setApiEnvironment(initial);
    return initial;
  });
  const query = useSessionQuery();
  const [stepUp, setStepUp] = useState<{ resolve: (ok: boolean) => void } | null>(null);

  const accept = useAcceptSession();

  const setEnvironment = useCallback((value: Environment) => {
    // A switch: what the entry fetched early for the old environment is no one's answer any more.
    dropEarlyResponses();
    setApiEnvironment(value);
    storeEnvironment(value);
    setEnvironmentState(value);
  }, []);

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
      withStepUp,
    }),
    [query.data, query.isPending, environment, setEnvironment, accept, withStepUp],
  );

  return (
    <SessionContext.Provider value={state}>
      {children}
      {stepUp !== null && (
        <StepUpDialog
          twoFactor={query.data?.user.two_factor_enabled ?? false}
          // The confirmation's answer (a new session id and CSRF token) is accepted by its mutation.
          onDone={(session) => stepUp.resolve(session !== null)}
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
  const [recovery, setRecovery] = useState(false);
  const form = useForm({ initialValues: { secret: "" } });
  const confirm = useConfirmStepUp();
  const done = useRef(false);
  const finish = (session: Session | null) => {
    if (done.current) return;
    done.current = true;
    onDone(session);
  };
  const submit = form.onSubmit(({ secret }) => {
    const body = !twoFactor
      ? { password: secret }
      : recovery
        ? { recovery_code: secret.trim() }
        : { code: secret.replace(/\s/g, "") };
    confirm.mutate(body, { onSuccess: finish });
  });
  return (
    <Modal opened onClose={() => finish(null)} title="Confirm it is you" centered>
      <form onSubmit={submit}>
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
              {...form.getInputProps("secret")}
              data-autofocus
              required
            />
          ) : (
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              {...form.getInputProps("secret")}
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
                form.setFieldValue("secret", "");
              }}
            >
              {recovery ? "Use the authenticator app instead" : "Use a recovery code instead"}
            </Anchor>
          )}
          <ErrorAlert error={confirm.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => finish(null)}>
              Cancel
            </Button>
            <Button type="submit" loading={confirm.isPending}>
              Confirm
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
