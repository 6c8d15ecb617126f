import type { Db } from "../../platform/db/client.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import { registerRailSimulatorRoutes } from "./rail-simulator.routes.js";
import { createRailSimulatorService } from "./rail-simulator.service.js";

export type RailSimulatorModule = ReturnType<typeof createRailSimulatorModule>;

/** The operator control endpoint of the production simulator (only built when a control token is configured). */
export function createRailSimulatorModule(deps: { db: Db; jobStore: Pick<JobStore, "enqueue">; controlToken: string }) {
  const service = createRailSimulatorService(deps);
  return { service, registerRoutes: (app: AppInstance) => registerRailSimulatorRoutes(app, service) };
}
