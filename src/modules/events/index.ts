// The events API (ours, beyond the spec): the recorded events of an environment, listed, read one by one,
// and followed as a feed that can wait for new ones. The `events` table belongs to the platform
// (platform/events/); this module only serves it.
import type { Db } from "../../platform/db/client.js";
import type { FeedWakeups } from "../../platform/events/feed-wakeups.js";
import type { AppInstance } from "../../platform/http/types.js";
import { registerEventRoutes } from "./events.routes.js";
import { EventSchema, MAX_WAIT_SECONDS } from "./events.schemas.js";
import { createEventsService, type RereadCause } from "./events.service.js";

export { eventsRouteRoles } from "./events.access.js";

export { MAX_WAIT_SECONDS } from "./events.schemas.js";

export function createEventsModule(deps: {
  readonly db: Db;
  readonly wakeups: FeedWakeups;
  /** CONNECTION_TIMEOUT_MS (0: none): a wait must end before the idle-socket timeout cuts the connection. */
  readonly connectionTimeoutMs: number;
  readonly observeReread?: (cause: RereadCause) => void;
}) {
  const ceilingMs = MAX_WAIT_SECONDS * 1000;
  const maxWaitMs = deps.connectionTimeoutMs > 0 ? Math.max(0, Math.min(ceilingMs, deps.connectionTimeoutMs - 1000)) : ceilingMs;
  const service = createEventsService({
    db: deps.db,
    wakeups: deps.wakeups,
    maxWaitMs,
    ...(deps.observeReread === undefined ? {} : { observeReread: deps.observeReread }),
  });
  return {
    service,
    sharedSchemas: [EventSchema],
    registerRoutes: (app: AppInstance) => registerEventRoutes(app, service),
  };
}
