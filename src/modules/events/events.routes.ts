import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { EventListQuerySchema, EventListSchema, EventParamsSchema, MAX_WAIT_SECONDS } from "./events.schemas.js";
import type { EventsService } from "./events.service.js";

const tags = ["Events"];

export function registerEventRoutes(app: AppInstance, service: EventsService): void {
  app.get(
    "/v1/events",
    {
      schema: {
        tags,
        operationId: "listEvents",
        summary: "List events, or wait for new ones",
        description: `The events recorded in this environment, each in the webhook envelope shape, whether or not a webhook was sent for it. Filters: \`type\`, \`subject_id\`, \`since\` / \`until\` (recording time). **List mode** (no \`after\`): newest first, paged with \`cursor\` / \`next_cursor\`. **Feed mode** (\`after\`): oldest first after a position (\`now\`, \`start\` or the \`next_cursor\` of the previous feed answer), for catch-up and for forwarding every event once: an event is never skipped, even when transactions commit out of order (an event is returned once every transaction that began before it has ended), and \`next_cursor\` is never null. With \`wait\` (1 to ${MAX_WAIT_SECONDS} s) and no event yet, the request is held until one commits (woken by the commit, from any process, typically within tens of milliseconds), the wait ends (200 with no events and the same cursor), the client disconnects or the server shuts down (answered at once). Filters apply to both modes; a feed cursor from a filtered feed continues that filter's feed. 400 \`validation_failed\` for a cursor this API did not issue, \`wait\` without \`after\`, \`cursor\` with \`after\`, or \`until\` not after \`since\`.`,
        querystring: EventListQuerySchema,
        response: routeResponses({ 200: EventListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request, reply) => {
      // The client leaving ends a wait: nothing holds on for a response no one will read.
      const gone = new AbortController();
      reply.raw.once("close", () => gone.abort());
      return service.list(requireActor(request), request.query, gone.signal);
    },
  );

  app.get(
    "/v1/events/:id",
    {
      schema: {
        tags,
        operationId: "getEvent",
        summary: "Read one event",
        description:
          "One event of this environment in the webhook envelope shape (`created_at`: when it was recorded). 404 `not_found` for an unknown id or another environment's event.",
        params: EventParamsSchema,
        response: routeResponses({ 200: Type.Ref("Event") }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.get(requireActor(request), request.params.id),
  );
}
