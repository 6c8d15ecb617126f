// The events API (ours, beyond the spec): the recorded events of an environment, listed, read one by one,
// and followed as a feed that can wait for new ones. The `events` table belongs to the platform
// (platform/events/); this module only serves it.
import { createFeedWakeups } from "../../platform/events/feed-wakeups.js";
import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { eventsRouteRoles } from "./events.access.js";
import { registerEventRoutes } from "./events.routes.js";
import { EventSchema, MAX_WAIT_SECONDS } from "./events.schemas.js";
import { createEventsService } from "./events.service.js";

export { MAX_WAIT_SECONDS } from "./events.schemas.js";

export interface EventsSettings {
  /** CONNECTION_TIMEOUT_MS (0: none): a wait must end before the idle-socket timeout cuts the connection. */
  readonly connectionTimeoutMs: number;
}

export function defineEvents(platform: PlatformServices, settings: EventsSettings) {
  const ceilingMs = MAX_WAIT_SECONDS * 1000;
  const maxWaitMs =
    settings.connectionTimeoutMs > 0 ? Math.max(0, Math.min(ceilingMs, settings.connectionTimeoutMs - 1000)) : ceilingMs;
  return defineModule({
    name: "events",
    routeRoles: eventsRouteRoles,
    // The feed's waits belong to the HTTP server that holds them, so they are built per app: one LISTEN per API
    // app, opened with its first waiting request; shutdown answers the waiting requests at once (before the
    // server waits for open requests), then stops the LISTEN. An app built again on the same process (a test)
    // gets its own.
    registerRoutes: (app) => {
      const wakeups = createFeedWakeups({ database: platform.database, logger: platform.logger, metrics: platform.metrics });
      const service = createEventsService({
        db: platform.db,
        wakeups,
        maxWaitMs,
        observeReread: platform.metrics.observeEventFeedReread,
      });
      registerEventRoutes(app, service);
      app.addHook("preClose", async () => service.endWaits());
      app.addHook("onClose", async () => wakeups.close());
    },
    sharedSchemas: [EventSchema],
    offers: {},
  });
}

export { eventsRouteRoles };
