// OpenAPI 3.1 generated from the route schemas by @fastify/swagger. Shared schemas ($id) become named
// components; public routes are marked with an empty security requirement.
import type { SwaggerOptions } from "@fastify/swagger";
import type { Config } from "../../config.js";
import { openApiWebhooks } from "../events/event-data.js";
import { ERROR_CODES_KEYWORD, finishOpenApiDocument, NOT_RATE_LIMITED } from "./openapi-document.js";

export const API_DESCRIPTION_VERSION = "0.0.1";

export interface DocumentTag {
  readonly name: string;
  readonly description: string;
}

/** `tags`: every tag the routes use, in the order the reference shows them, with what each part of the API does. */
/** `examples`: an example per component name (request bodies and success responses). */
export function openApiDocumentOptions(
  config: Config,
  tags: readonly DocumentTag[],
  examples: Readonly<Record<string, unknown>> = {},
): SwaggerOptions {
  return {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Payout Orchestration API",
        version: API_DESCRIPTION_VERSION,
        description:
          "Register Beneficiaries and their destinations, create Payouts, approve or reject them, and follow every change through signed webhooks. " +
          `Every /v1/ endpoint except registration (and this document) needs \`Authorization: Bearer <API_KEY>\`; the key decides the Business, the environment (sandbox or production) and the role. Errors: ${config.docsBaseUrl}/errors\n\n` +
          "Input rules for every endpoint: bodies are `application/json` in UTF-8 (another `charset`, or any `Content-Encoding` other than `identity`, is 415); text is refused, never repaired, when it holds bytes that are not UTF-8, U+0000, an unpaired surrogate or a control character, and tabs and line breaks are refused in every field except those marked `x-multiline` (400 `validation_failed`, detail code `invalid_character` or `invalid_encoding`, naming the field). Date-times are RFC 3339 with a time zone between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z. A known path with a wrong method is 405 with `Allow`. Requests must arrive within REQUEST_TIMEOUT_MS (30 s by default; headers within 10 s), else 408 `request_timeout`; a request line and headers over 16 KB are 431 `request_header_too_large`.",
      },
      // Relative: true wherever the document is served from (the paths start with /v1/).
      servers: [{ url: "/", description: "This service: the host that served this document." }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "pok_<environment>_<id>_<secret>",
            description:
              "An API key. Its environment segment (sandbox or production) selects the environment of every resource touched.",
          },
        },
      },
      security: [{ bearerAuth: [] }],
      tags: tags.map((tag) => ({ ...tag })),
      // Plain JSON Schema objects; @fastify/swagger copies them as they are.
      webhooks: openApiWebhooks() as Record<string, never>,
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === "string" ? json.$id : `def-${i}`),
    },
    transform: ({ schema, url, route }) => {
      const transformed = { ...(schema as Record<string, unknown>) };
      const routeConfig = route.config as { access?: string; rateLimit?: string } | undefined;
      if (routeConfig?.access === "public") transformed.security = [];
      if (routeConfig?.rateLimit === "none") transformed[NOT_RATE_LIMITED] = true;
      // The error codes routeResponses put on each error status; @fastify/swagger drops keywords beside a
      // $ref, so they travel on the operation and finishOpenApiDocument moves them onto each response.
      const errorCodes: Record<string, unknown> = {};
      for (const [status, response] of Object.entries((transformed.response ?? {}) as Record<string, Record<string, unknown>>)) {
        if (Array.isArray(response[ERROR_CODES_KEYWORD])) errorCodes[status] = response[ERROR_CODES_KEYWORD];
      }
      if (Object.keys(errorCodes).length > 0) transformed[ERROR_CODES_KEYWORD] = errorCodes;
      return { schema: transformed as typeof schema, url };
    },
    transformObject: (documentObject) => {
      if (!("openapiObject" in documentObject)) return documentObject.swaggerObject;
      return finishOpenApiDocument(documentObject.openapiObject as Record<string, unknown>, {
        examples,
      }) as typeof documentObject.openapiObject;
    },
  };
}
