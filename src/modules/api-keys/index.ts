import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/client.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { IdGenerator } from "../../platform/ids.js";
import { registerApiKeyRoutes } from "./api-keys.routes.js";
import { ApiKeySchema, IssuedApiKeySchema } from "./api-keys.schemas.js";
import { createApiKeyService } from "./api-keys.service.js";

export { apiKeysRouteRoles } from "./api-keys.access.js";
export { API_KEY_ERRORS } from "./api-keys.errors.js";

export type ApiKeysModule = ReturnType<typeof createApiKeysModule>;

export function createApiKeysModule(deps: { db: Db; clock: Clock; ids: IdGenerator; recordAudit: RecordActorAudit }) {
  const service = createApiKeyService(deps);
  return {
    service,
    sharedSchemas: [ApiKeySchema, IssuedApiKeySchema],
    registerRoutes: (app: AppInstance) => registerApiKeyRoutes(app, service),
  };
}

export type { IssuedApiKeyBody } from "./api-keys.schemas.js";
export type { IssueApiKeyInput } from "./api-keys.service.js";
