// Every write of the dashboard is a TanStack mutation made with this hook: the request runs through the
// session's step-up (when the API answers 401 STEP_UP_REQUIRED the person is asked to confirm it is them and the
// request is sent once more, lib/session.tsx), and the mutation's own state is the one pending/error pattern:
// `isPending` for the busy button, `error` for <MutationError> (components/MutationError.tsx).
//
// A resource's mutation hook (hooks/api/<resource>/mutations.ts) passes its request and, in `onSuccess`, returns
// the invalidation of the keys it changed: the mutation stays pending until they are read again, so a page never
// shows "done" beside a list that does not show it yet.
import { type UseMutationOptions, type UseMutationResult, useMutation } from "@tanstack/react-query";
import { useSession } from "../../lib/session-context";

export type ApiMutationOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, "mutationFn"> & {
  mutationFn: (variables: TVariables) => Promise<TData>;
};

export function useApiMutation<TData, TVariables = void>(
  options: ApiMutationOptions<TData, TVariables>,
): UseMutationResult<TData, Error, TVariables> {
  const { withStepUp } = useSession();
  const { mutationFn, ...rest } = options;
  return useMutation({ ...rest, mutationFn: (variables) => withStepUp(() => mutationFn(variables)) });
}

/** The state every mutation has; what the helpers below need of one. */
interface MutationState {
  readonly error: Error | null;
  readonly submittedAt: number;
}

/**
 * The error of the most recently started of several mutations that report in one place (a page's alert for
 * "revoke" and "invite", say): a new attempt of any of them replaces the message, as one error slot did.
 */
export function lastError(...mutations: readonly MutationState[]): Error | null {
  let latest: MutationState | undefined;
  for (const mutation of mutations) if (latest === undefined || mutation.submittedAt > latest.submittedAt) latest = mutation;
  return latest?.error ?? null;
}

/** For a ConfirmButton or an event handler: run the mutation, its refusal shown by its own `error`. */
export function settle(promise: Promise<unknown>): Promise<void> {
  return promise.then(
    () => undefined,
    () => undefined,
  );
}
