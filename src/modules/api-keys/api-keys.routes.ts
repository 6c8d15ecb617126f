import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { API_KEY_ERRORS } from "./api-keys.errors.js";
import { ApiKeyIdParamsSchema, ApiKeyListSchema, CreateApiKeyBodySchema, ListApiKeysQuerySchema } from "./api-keys.schemas.js";
import type { ApiKeyService } from "./api-keys.service.js";

const tags = ["API keys"];

export function registerApiKeyRoutes(app: AppInstance, service: ApiKeyService): void {
  app.post(
    "/v1/api-keys",
    {
      schema: {
        tags,
        operationId: "createApiKey",
        summary: "Create an API key",
        description:
          "Creates a key for the caller's Business and environment, owned by the caller's membership. The full key is in `key`, shown only here.",
        body: CreateApiKeyBodySchema,
        response: routeResponses({ 201: Type.Ref("IssuedApiKey") }, { access: "write", hasBody: true }),
      },
    },
    async (request, reply) => reply.code(201).send(await service.createApiKey(requireActor(request), request.body)),
  );

  app.get(
    "/v1/api-keys",
    {
      schema: {
        tags,
        operationId: "listApiKeys",
        summary: "List API keys",
        description:
          "Keys of the caller's Business and environment, newest first, revoked ones included. Secrets are never returned.",
        querystring: ListApiKeysQuerySchema,
        response: routeResponses({ 200: ApiKeyListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => service.listKeys(requireActor(request), request.query),
  );

  app.delete(
    "/v1/api-keys/:id",
    {
      schema: {
        tags,
        operationId: "revokeApiKey",
        summary: "Revoke an API key",
        description:
          "Revokes the key; the next request made with it answers 401. Revoking a revoked key succeeds unchanged. The last active `business_admin` key of an environment cannot be revoked (409 `LAST_ACTIVE_ADMIN_KEY`).",
        params: ApiKeyIdParamsSchema,
        response: routeResponses(
          { 200: Type.Ref("ApiKey") },
          { access: "write", hasInput: true, codes: ["not_found", API_KEY_ERRORS.LAST_ACTIVE_ADMIN_KEY] },
        ),
      },
    },
    async (request) => service.revokeKey(requireActor(request), request.params.id),
  );
}
