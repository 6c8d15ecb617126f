// Wake-ups for requests waiting on an environment's event feed. One LISTEN on EVENTS_RECORDED_CHANNEL per
// API process (opened with the first waiting request), fanned out in memory to the requests waiting on the
// environment the NOTIFY names. Waiting requests hold no database connection: they run one short read when
// woken. A NOTIFY is only a hint: the waiter reads the feed again, so a lost or duplicated one costs latency
// at most, and waiters also look again on a timer (often while the listener is down).
import type { Logger } from "pino";
import type { Database } from "../db/client.js";
import type { Metrics } from "../metrics.js";
import { EVENTS_RECORDED_CHANNEL } from "./outbox.js";

export interface FeedWakeups {
  /**
   * Calls `wake` whenever an event of the feed `key` (`eventFeedKey`) commits, in any process, and once for
   * every waiter when the listener reconnects. Resolves once the listener is in place (or has failed and
   * retries), so a read made after it cannot miss a NOTIFY. The result unsubscribes.
   */
  subscribe(key: string, wake: () => void): Promise<() => void>;
  /** Whether the LISTEN works now; waiters poll more often when it does not. */
  listening(): boolean;
  /** Stops listening (process shutdown). */
  close(): Promise<void>;
}

export function createFeedWakeups(deps: {
  readonly database: Pick<Database, "listen">;
  readonly logger: Logger;
  readonly metrics: Pick<Metrics, "observeEventFeedWaits" | "observeEventFeedListener">;
}): FeedWakeups {
  const waiters = new Map<string, Set<() => void>>();
  let healthy = false;
  let closed = false;
  let started: Promise<() => Promise<void>> | null = null;
  const log = deps.logger.child({ component: "event-feed-wakeups", channel: EVENTS_RECORDED_CHANNEL });

  const onNotify = (payload: string): void => {
    if (payload === "") {
      for (const set of waiters.values()) for (const wake of set) wake();
      return;
    }
    for (const wake of waiters.get(payload) ?? []) wake();
  };

  const start = (): Promise<() => Promise<void>> =>
    deps.database
      .listen(EVENTS_RECORDED_CHANNEL, onNotify, {
        listening: (recovered) => {
          healthy = true;
          deps.metrics.observeEventFeedListener("listening");
          if (recovered) log.info("event feed wake-ups restored: listening again");
        },
        failed: (error, retryInMs) => {
          healthy = false;
          deps.metrics.observeEventFeedListener("failed");
          log.warn(
            { err: error, retry_in_ms: retryInMs },
            "event feed wake-ups unavailable (LISTEN failed); waiting requests poll",
          );
        },
        lost: (error) => {
          healthy = false;
          deps.metrics.observeEventFeedListener("lost");
          onNotify("");
          log.warn({ err: error }, "event feed wake-up connection lost; waiting requests poll until it reconnects");
        },
      })
      .catch((error: unknown) => {
        healthy = false;
        deps.metrics.observeEventFeedListener("failed");
        log.warn({ err: error }, "event feed wake-ups unavailable; waiting requests poll");
        return async () => {};
      });

  return {
    async subscribe(key, wake) {
      let set = waiters.get(key);
      if (set === undefined) {
        set = new Set();
        waiters.set(key, set);
      }
      set.add(wake);
      deps.metrics.observeEventFeedWaits(1);
      if (!closed) {
        started ??= start();
        await started;
      }
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        deps.metrics.observeEventFeedWaits(-1);
        const current = waiters.get(key);
        current?.delete(wake);
        if (current?.size === 0) waiters.delete(key);
      };
    },
    listening: () => healthy && !closed,
    async close() {
      closed = true;
      healthy = false;
      if (started !== null) await (await started)();
    },
  };
}
