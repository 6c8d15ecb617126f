import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { registerRailSimulatorRoutes } from "./rail-simulator.routes.js";
import { createRailSimulatorService } from "./rail-simulator.service.js";

export interface RailSimulatorSettings {
  /**
   * SIMULATOR_CONTROL_TOKEN when the production rail is the simulator; null otherwise, and then the operator
   * control endpoint does not exist.
   */
  readonly controlToken: string | null;
}

/** The operator control endpoint of the production simulator (routes only when a control token is configured). */
export function defineRailSimulator(platform: PlatformServices, settings: RailSimulatorSettings) {
  const { controlToken } = settings;
  return defineModule({
    name: "rail-simulator",
    ...(controlToken === null
      ? {}
      : {
          registerRoutes: (app) =>
            registerRailSimulatorRoutes(
              app,
              createRailSimulatorService({ db: platform.db, jobStore: platform.jobStore, controlToken }),
            ),
        }),
    offers: {},
  });
}
