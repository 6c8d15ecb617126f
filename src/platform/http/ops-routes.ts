// Liveness, readiness and metrics. Kept out of /v1 and out of the OpenAPI document: they are for the
// operator's load balancer and Prometheus, not for API clients.
import type { Database } from "../db/client.js";
import { pingDatabase } from "../db/client.js";
import { migrationsApplied, readMigrations } from "../db/migrate.js";
import { AppError } from "../errors.js";
import type { Metrics } from "../metrics.js";
import type { AppInstance } from "./types.js";

export interface OpsDeps {
  readonly database: Database;
  readonly metrics: Metrics;
  /** False once shutdown began, so load balancers stop sending traffic before the listener closes. */
  readonly isAcceptingTraffic: () => boolean;
}

export function registerOpsRoutes(app: AppInstance, deps: OpsDeps): void {
  const expectedMigrations = readMigrations();
  const hidden = { hide: true } as Record<string, unknown>;

  app.get("/healthz", { config: { access: "public" }, schema: hidden }, async () => ({ status: "ok" }));

  app.get("/readyz", { config: { access: "public" }, schema: hidden }, async () => {
    if (!deps.isAcceptingTraffic()) throw new AppError("service_unavailable", { message: "Shutting down." });
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

  app.get("/metrics", { config: { access: "public" }, schema: hidden }, async (_request, reply) => {
    const body = await deps.metrics.registry.metrics();
    return reply.type(deps.metrics.registry.contentType).send(body);
  });
}
