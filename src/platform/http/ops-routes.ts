// Liveness, readiness and metrics. Kept out of /v1 and out of the OpenAPI document: they are for the
// operator's load balancer and Prometheus, not for API clients.
import { digestsEqual, hashSecret } from "../crypto.js";
import type { Database } from "../db/client.js";
import { pingDatabase } from "../db/client.js";
import { migrationsApplied, readMigrations } from "../db/migrate.js";
import { AppError } from "../errors.js";
import type { Metrics } from "../metrics.js";
import type { AppInstance } from "./types.js";

export interface OpsDeps {
  readonly database: Database;
  /** False once shutdown began, so load balancers stop sending traffic before the listener closes. */
  readonly isAcceptingTraffic: () => boolean;
  /** False while the process waits for its database to be reached and migrated at startup. */
  readonly hasStarted: () => boolean;
}

export interface MetricsRouteDeps {
  readonly metrics: Metrics;
  /** The Bearer token a scrape must present (METRICS_TOKEN); null serves it without one (its own listener only). */
  readonly token: string | null;
}

const BEARER = /^Bearer ([^\s]+)$/i;

export function registerOpsRoutes(app: AppInstance, deps: OpsDeps): void {
  const expectedMigrations = readMigrations();
  const hidden = { hide: true } as Record<string, unknown>;

  app.get("/healthz", { schema: hidden }, async () => ({ status: "ok" }));

  app.get("/readyz", { schema: hidden }, async () => {
    if (!deps.isAcceptingTraffic()) throw new AppError("service_unavailable", { message: "Shutting down." });
    if (!deps.hasStarted()) {
      throw new AppError("service_unavailable", { message: "Starting: waiting for the database to be reachable and migrated." });
    }
    // Asked on every probe, so readiness turns 503 whenever the database goes away and back to 200 when it returns.
    try {
      await pingDatabase(deps.database.db);
    } catch (error) {
      throw new AppError("service_unavailable", { message: "The database is unreachable.", cause: error });
    }
    if (!(await migrationsApplied(deps.database.db, expectedMigrations))) {
      throw new AppError("service_unavailable", { message: "Database migrations are not applied." });
    }
    return { status: "ready", database: deps.database.engine, migrations: expectedMigrations.length };
  });
}

/**
 * GET /metrics in Prometheus text: request counts by route and status, the job queue, process figures. Not
 * for the public: app.ts serves it on the API port only behind METRICS_TOKEN, or on its own listener
 * (METRICS_PORT), where the token is required too when set.
 */
export function registerMetricsRoute(app: AppInstance, deps: MetricsRouteDeps): void {
  // Digests of equal length compared in constant time: neither the token nor its length leaks by timing.
  const expected = deps.token === null ? null : hashSecret(deps.token);
  app.get(
    "/metrics",
    {
      config: { rateLimit: "none" },
      schema: { hide: true } as Record<string, unknown>,
      onRequest: async (request) => {
        if (expected === null) return;
        const presented = BEARER.exec(request.headers.authorization ?? "")?.[1];
        if (presented === undefined || !digestsEqual(hashSecret(presented), expected)) {
          throw new AppError("unauthorized", {
            message: "A valid metrics token is required: send `Authorization: Bearer <METRICS_TOKEN>`.",
          });
        }
      },
    },
    async (_request, reply) => {
      const body = await deps.metrics.registry.metrics();
      return reply.type(deps.metrics.registry.contentType).send(body);
    },
  );
}
