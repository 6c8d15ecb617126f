// OpenAPI 3.1 generated from the route schemas by @fastify/swagger. Shared schemas ($id) become named
// components; public routes are marked with an empty security requirement.
import type { SwaggerOptions } from "@fastify/swagger";
import type { RouteRoleTable } from "../auth/route-roles.js";
import { openApiWebhooks } from "../events/event-data.js";
import { ERROR_CODES_KEYWORD, finishOpenApiDocument, NOT_RATE_LIMITED } from "./openapi-document.js";

export const API_DESCRIPTION_VERSION = "0.0.1";

export interface DocumentTag {
  readonly name: string;
  readonly description: string;
}

/** `tags`: every tag the routes use, in the order the reference shows them, with what each part of the API does. */
/** `examples`: an example per component name (request bodies and success responses). */
/** `routeRoles`: the role-by-route table (security, x-roles, x-step-up). */
export function openApiDocumentOptions(
  config: { readonly docsBaseUrl: string },
  tags: readonly DocumentTag[],
  examples: Readonly<Record<string, unknown>>,
  routeRoles: RouteRoleTable,
): SwaggerOptions {
  return {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Payout Orchestration API",
        version: API_DESCRIPTION_VERSION,
        description:
          "Register Beneficiaries and their destinations, create Payouts, approve or reject them, and follow every change through signed webhooks. " +
          `Every /v1/ endpoint except registration, sign-in, password resets, invitation acceptance (and this document) needs \`Authorization: Bearer <API_KEY>\` or a dashboard session (the cookie from \`POST /v1/session\`, with \`X-Environment\` and, on writes, \`X-CSRF-Token\`); the key decides the Business, the environment (sandbox or production) and the role. Which roles may call each operation is its \`x-roles\`. Errors: ${config.docsBaseUrl}/errors\n\n` +
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
              "An API key. Its environment segment (sandbox or production) selects the environment of every resource touched. An `X-Environment` header is not needed with a key; one naming another environment is refused with 400 `ENVIRONMENT_MISMATCH`.",
          },
          sessionCookie: {
            type: "apiKey",
            in: "cookie",
            name: "__Host-session",
            description:
              "A dashboard session from `POST /v1/session` (the cookie is named `session` when PUBLIC_BASE_URL is plain HTTP). A session request names its environment in `X-Environment` (sandbox or production; missing or unknown is 400 `ENVIRONMENT_REQUIRED`), and every POST, PUT, PATCH and DELETE carries the session's `X-CSRF-Token` (403 `CSRF_TOKEN_INVALID`) and is refused when the browser marks it cross-site (`Sec-Fetch-Site`, 403 `CROSS_SITE_REQUEST`).",
          },
        },
      },
      security: [{ bearerAuth: [] }, { sessionCookie: [] }],
      tags: tags.map((tag) => ({ ...tag })),
      // Plain JSON Schema objects; @fastify/swagger copies them as they are.
      webhooks: openApiWebhooks() as Record<string, never>,
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === "string" ? json.$id : `def-${i}`),
    },
    transform: ({ schema, url, route }) => {
      const transformed = { ...(schema as Record<string, unknown>) };
      const routeConfig = route.config as { rateLimit?: string } | undefined;
      const access = routeRoles.accessOf(String(route.method), url);
      if (access === "public") transformed.security = [];
      if (access === "session") transformed.security = [{ sessionCookie: [] }];
      if (routeConfig?.rateLimit === "none") transformed[NOT_RATE_LIMITED] = true;
      // The role-by-route table, shown where integrators read: which roles may call, and whether a session
      // needs a recent confirmation (step-up).
      const entry = routeRoles.routeEntry(String(route.method), url);
      if (entry !== null && "access" in entry && entry.access === "session" && entry.stepUp === true) {
        transformed["x-step-up"] = true;
      }
      const rule = routeRoles.routeRule(String(route.method), url);
      if (rule !== null) {
        transformed["x-roles"] = [...rule.roles];
        if (rule.stepUp === true) transformed["x-step-up"] = true;
        const roles = `Roles: ${rule.roles.map((role) => `\`${role}\``).join(", ")}${rule.stepUp === true ? "; from a session, a password or two-factor confirmation within the last STEP_UP_WINDOW_MINUTES (5 by default) is needed, else 401 `STEP_UP_REQUIRED`" : ""}.`;
        transformed.description = typeof transformed.description === "string" ? `${transformed.description}\n\n${roles}` : roles;
      }
      // The error codes routeResponses put on each error status; @fastify/swagger drops keywords beside a
      // $ref, so they travel on the operation and finishOpenApiDocument moves them onto each response.
      const errorCodes: Record<string, unknown> = {};
      for (const [status, response] of Object.entries((transformed.response ?? {}) as Record<string, Record<string, unknown>>)) {
        if (Array.isArray(response[ERROR_CODES_KEYWORD])) errorCodes[status] = response[ERROR_CODES_KEYWORD];
      }
      // A step-up route answers a session without a recent confirmation 401 STEP_UP_REQUIRED.
      if (rule?.stepUp === true && Array.isArray(errorCodes["401"]) && !errorCodes["401"].includes("STEP_UP_REQUIRED")) {
        errorCodes["401"] = [...errorCodes["401"], "STEP_UP_REQUIRED"];
        const responses = transformed.response as Record<string, Record<string, unknown>>;
        const unauthorized = responses["401"];
        if (unauthorized !== undefined && typeof unauthorized.description === "string") {
          transformed.response = {
            ...responses,
            "401": { ...unauthorized, description: unauthorized.description.replace(/\.$/, " or `STEP_UP_REQUIRED`.") },
          };
        }
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
