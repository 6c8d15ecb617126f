import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/client.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { ApiKeysModule } from "../api-keys/index.js";
import { registerRegistrationRoutes } from "./registration.routes.js";
import { createRegistrationService } from "./registration.service.js";

export function createRegistrationModule(deps: { db: Db; clock: Clock; ids: IdGenerator; apiKeys: ApiKeysModule }) {
  const service = createRegistrationService({
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    issueApiKey: deps.apiKeys.service.issueApiKey,
  });
  return {
    service,
    registerRoutes: (app: AppInstance) => registerRegistrationRoutes(app, service),
  };
}

export { findBusinessName } from "./registration.repo.js";
