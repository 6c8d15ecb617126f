import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { apiKeysRouteRoles } from "./api-keys.access.js";
import { API_KEY_ERRORS } from "./api-keys.errors.js";
import type { ApiKeysPorts } from "./api-keys.ports.js";
import { registerApiKeyRoutes } from "./api-keys.routes.js";
import { ApiKeySchema, IssuedApiKeySchema } from "./api-keys.schemas.js";
import { createApiKeyService } from "./api-keys.service.js";

export type { ApiKeysPorts } from "./api-keys.ports.js";
export type { IssuedApiKeyBody } from "./api-keys.schemas.js";
export type { IssueApiKeyInput } from "./api-keys.service.js";

/** API keys: their API, the authentication of a key (the access hook), and the keys registration issues. */
export function defineApiKeys(platform: PlatformServices, ports: ApiKeysPorts) {
  const service = createApiKeyService({
    db: platform.db,
    clock: platform.clock,
    ids: platform.ids,
    recordAudit: ports.recordAudit,
  });
  return defineModule({
    name: "api-keys",
    routeRoles: apiKeysRouteRoles,
    errorCodes: API_KEY_ERRORS,
    registerRoutes: (app) => registerApiKeyRoutes(app, service),
    sharedSchemas: [ApiKeySchema, IssuedApiKeySchema],
    offers: {
      /** For the access hook (app.ts): the actor a presented key stands for, or null. */
      authenticate: service.authenticate,
      /** For registration: the first keys of a verified Business, in its transaction. */
      issueApiKey: service.issueApiKey,
      /** For the people module: a removed member's keys are revoked with the removal. */
      revokeKeysOfRemovedMember: service.revokeKeysOfRemovedMember,
    },
  });
}

export { API_KEY_ERRORS, apiKeysRouteRoles };
