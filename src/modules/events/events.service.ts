// The events API: the recorded events of the caller's environment, as a newest-first list, one by one, and
// as a forward feed that can wait for new events (long polling). The ordering guarantee of the feed is in
// platform/events/event-feed.ts; the design is in docs/decisions.md, "Events API".
import { type Actor, type Tenant, tenantOf } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import { eventEnvelope } from "../../platform/events/envelope.js";
import {
  decodeFeedCursor,
  type EventFilter,
  encodeFeedCursor,
  FEED_START,
  type FeedPosition,
  feedHorizon,
  findEventOf,
  listEventsNewestFirst,
  readFeedAfter,
  type StoredEvent,
} from "../../platform/events/event-feed.js";
import type { FeedWakeups } from "../../platform/events/feed-wakeups.js";
import { eventFeedKey } from "../../platform/events/outbox.js";
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import type { EventBody, EventListBody, EventListQuery } from "./events.schemas.js";

/**
 * While committed events wait behind an older transaction still running (below the horizon they are not
 * returned yet), a waiting request looks again this often: that transaction may record no event, so its
 * commit sends no NOTIFY.
 */
const HELD_BACK_RECHECK_MS = 50;
/**
 * While the LISTEN connection is down, a waiting request reads again this often; while it is up, a NOTIFY
 * comes with every commit of an event (and a wake-up for everyone after a reconnect), and this slower poll
 * only bounds the delay should notifications be lost silently (a LISTEN through a transaction-pooling proxy).
 */
const UNLISTENED_POLL_MS = 500;
const LISTENING_POLL_MS = 10_000;

/** Why a waiting request read the feed again (`events_feed_rereads_total`). */
export type RereadCause = "notify" | "recheck" | "poll" | "end";

export interface EventsServiceDeps {
  readonly db: Db;
  readonly wakeups: FeedWakeups;
  /**
   * The longest wait this server grants, in ms: MAX_WAIT_SECONDS, or less when the idle-socket timeout
   * (CONNECTION_TIMEOUT_MS) would cut a longer one.
   */
  readonly maxWaitMs: number;
  /** Counts a waiting request's reads after the first, by cause. */
  readonly observeReread?: (cause: RereadCause) => void;
}

export function presentEvent(row: StoredEvent): EventBody {
  return eventEnvelope(row, row.createdAt) as EventBody;
}

function filterOf(query: EventListQuery): EventFilter {
  return {
    ...(query.type === undefined ? {} : { type: query.type }),
    ...(query.subject_id === undefined ? {} : { subjectId: query.subject_id }),
    ...(query.since === undefined ? {} : { since: new Date(query.since) }),
    ...(query.until === undefined ? {} : { until: new Date(query.until) }),
  };
}

function refuse(field: string, message: string): never {
  throw new AppError("validation_failed", { details: [{ field, code: "invalid_combination", message }] });
}

export function createEventsService(deps: EventsServiceDeps) {
  const { db } = deps;
  /** Aborted when the server shuts down: every waiting request answers at once with what it has. */
  const shutdown = new AbortController();

  async function list(actor: Actor, query: EventListQuery, signal: AbortSignal): Promise<EventListBody> {
    const tenant = tenantOf(actor);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    if (query.since !== undefined && query.until !== undefined && new Date(query.since) >= new Date(query.until)) {
      refuse("until", "`until` must be later than `since`.");
    }
    if (query.after === undefined) {
      if (query.wait !== undefined && query.wait > 0) refuse("wait", "`wait` needs `after` (feed mode).");
      const rows = await listEventsNewestFirst(db, tenant, { ...filterOf(query), beforeId: decodeCursor(query.cursor), limit });
      const page = toPage(rows, limit);
      return { events: page.items.map(presentEvent), next_cursor: page.nextCursor, has_more: page.nextCursor !== null };
    }
    if (query.cursor !== undefined) refuse("cursor", "`cursor` pages the newest-first list; the feed continues with `after`.");
    const position =
      query.after === "now"
        ? await feedHorizon(db)
        : query.after === "start"
          ? FEED_START
          : decodeFeedCursor(query.after, "after");
    const waitMs = Math.min((query.wait ?? 0) * 1000, deps.maxWaitMs);
    const rows = await readFeed(tenant, position, filterOf(query), limit, waitMs, signal);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return {
      events: items.map(presentEvent),
      next_cursor: encodeFeedCursor(last === undefined ? position : { txId: last.txId, sequence: last.sequence }),
      has_more: rows.length > limit,
    };
  }

  /**
   * Reads the feed after `position`; when nothing is there and `waitMs` > 0, waits (holding no connection)
   * until a NOTIFY for this environment, a recheck, the end of the wait, the client leaving or shutdown, and
   * reads again. Subscribes before the first read, so a commit between that read and the wait still wakes it.
   */
  async function readFeed(
    tenant: Tenant,
    position: FeedPosition,
    filter: EventFilter,
    limit: number,
    waitMs: number,
    signal: AbortSignal,
  ): Promise<StoredEvent[]> {
    const read = async () => readFeedAfter(db, tenant, position, { ...filter, limit });
    if (waitMs <= 0 || signal.aborted || shutdown.signal.aborted) return (await read()).rows;

    /** Set when something asks for a read while one runs or before the pause; why, for the metric. */
    let woken: RereadCause | null = null;
    let expired = false;
    let resume: ((cause: RereadCause) => void) | null = null;
    const wakeFor = (cause: RereadCause) => {
      // An end outranks a NOTIFY that came just before it: the next read is the last.
      if (woken !== "end") woken = cause;
      resume?.(cause);
    };
    const end = () => wakeFor("end");
    const deadline = setTimeout(() => {
      expired = true;
      end();
    }, waitMs);
    signal.addEventListener("abort", end);
    shutdown.signal.addEventListener("abort", end);
    const unsubscribe = await deps.wakeups.subscribe(eventFeedKey(tenant), () => wakeFor("notify"));
    try {
      for (;;) {
        woken = null;
        const { rows, heldBack } = await read();
        if (rows.length > 0 || expired || signal.aborted || shutdown.signal.aborted) return rows;
        // A NOTIFY that came during the read may be for an event the read did not see: read again.
        let cause: RereadCause | null = woken;
        if (cause === null) {
          const [pauseMs, timerCause]: [number, RereadCause] = heldBack
            ? [HELD_BACK_RECHECK_MS, "recheck"]
            : [deps.wakeups.listening() ? LISTENING_POLL_MS : UNLISTENED_POLL_MS, "poll"];
          cause = await new Promise<RereadCause>((resolve) => {
            const timer = setTimeout(() => resolve(timerCause), pauseMs);
            resume = (by) => {
              clearTimeout(timer);
              resolve(by);
            };
          });
          resume = null;
        }
        deps.observeReread?.(cause);
      }
    } finally {
      clearTimeout(deadline);
      signal.removeEventListener("abort", end);
      shutdown.signal.removeEventListener("abort", end);
      unsubscribe();
    }
  }

  async function get(actor: Actor, id: string): Promise<EventBody> {
    const row = await findEventOf(db, tenantOf(actor), id);
    if (row === null) throw new AppError("not_found", { message: "No such event in this environment." });
    return presentEvent(row);
  }

  return {
    list,
    get,
    /** Ends every wait now (the server is shutting down): each answers with what it has and a cursor. */
    endWaits: () => shutdown.abort(),
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
