import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { WEBHOOK_ERRORS } from "./webhooks.errors.js";
import {
  CreateSubscriptionBodySchema,
  CreateSubscriptionResponseSchema,
  DeliveryListQuerySchema,
  DeliveryListSchema,
  DeliveryParamsSchema,
  UpdateSubscriptionBodySchema,
} from "./webhooks.schemas.js";
import type { WebhookService } from "./webhooks.service.js";

const tags = ["Webhooks"];
const subscription = Type.Ref("WebhookSubscription");
const delivery = Type.Ref("WebhookDelivery");
const URL_CODES = [
  WEBHOOK_ERRORS.WEBHOOK_URL_NOT_PUBLIC,
  WEBHOOK_ERRORS.WEBHOOK_URL_UNRESOLVABLE,
  WEBHOOK_ERRORS.WEBHOOK_URL_REDIRECTS,
  WEBHOOK_ERRORS.WEBHOOK_URL_UNREACHABLE,
] as const;

export function registerWebhookRoutes(app: AppInstance, service: WebhookService): void {
  app.post(
    "/v1/webhook-subscriptions",
    {
      schema: {
        tags,
        operationId: "createWebhookSubscription",
        summary: "Create the webhook endpoint, or rotate its secret",
        description:
          "One endpoint per environment. Creates it (201), or, when one exists, rotates the signing secret (the old one stops at once, no overlap), replaces `url` and `enabled_events` with the values sent and sets `enabled` true (200); pending retries of types no longer listed are dropped. The secret is returned only here. The URL must be HTTPS, resolve only to public (global unicast) addresses and not answer with a redirect; an IPv6 address passes only inside `2000::/3` and outside every special-purpose range, so IPv4-compatible (`[::127.0.0.1]`) and IPv4-mapped forms are refused. A refusal names the host sent, never the address it resolved to: an unknown event type or a non-HTTPS URL is 400 `validation_failed` (detail codes `invalid_enum`, `https_required`), the URL checks are 422 (`WEBHOOK_URL_NOT_PUBLIC`, `WEBHOOK_URL_UNRESOLVABLE`, `WEBHOOK_URL_REDIRECTS`, `WEBHOOK_URL_UNREACHABLE`). A test POST with `X-Service-Endpoint-Check: 1` and no signature is sent to the URL; any status but a redirect passes.",
        body: CreateSubscriptionBodySchema,
        response: routeResponses(
          { 201: CreateSubscriptionResponseSchema, 200: CreateSubscriptionResponseSchema },
          { access: "write", hasBody: true, codes: URL_CODES },
        ),
      },
    },
    async (request, reply) => {
      const result = await service.createOrRotate(requireActor(request), request.body);
      return reply
        .code(result.created ? 201 : 200)
        .header("cache-control", "no-store")
        .send(result.body);
    },
  );

  app.get(
    "/v1/webhook-subscriptions",
    {
      schema: {
        tags,
        operationId: "getWebhookSubscription",
        summary: "Read the webhook endpoint",
        description: "The environment's endpoint, without its secret. 404 `not_found` when there is none.",
        response: routeResponses({ 200: subscription }, { access: "read", codes: ["not_found"] }),
      },
    },
    async (request) => service.get(requireActor(request)),
  );

  app.patch(
    "/v1/webhook-subscriptions",
    {
      schema: {
        tags,
        operationId: "updateWebhookSubscription",
        summary: "Change the webhook endpoint",
        description:
          "Any of `url`, `enabled_events`, `enabled`; the secret is kept, also when `url` changes: the signing secret never travels to the URL (only signatures made with it do, and a signature does not reveal it), so unlike a bank rail's SFTP password it cannot follow the destination to a new host; rotate it with POST when the receiver changes hands. Disabling drops every pending retry; removing a type drops its pending retries; enabling again resends nothing. A new `url` passes the same checks as on POST. 404 `not_found` when there is no endpoint.",
        body: UpdateSubscriptionBodySchema,
        response: routeResponses({ 200: subscription }, { access: "write", hasBody: true, codes: ["not_found", ...URL_CODES] }),
      },
    },
    async (request) => service.update(requireActor(request), request.body),
  );

  app.delete(
    "/v1/webhook-subscriptions",
    {
      schema: {
        tags,
        operationId: "deleteWebhookSubscription",
        summary: "Delete the webhook endpoint",
        description:
          "Answers 204, also when there is none. Pending retries are dropped. The delivery log is kept; a new POST creates a new endpoint with a new id and secret.",
        response: routeResponses({ 204: Type.Null({ description: "Deleted." }) }, { access: "write" }),
      },
    },
    async (request, reply) => {
      await service.remove(requireActor(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/v1/webhook-deliveries",
    {
      schema: {
        tags,
        operationId: "listWebhookDeliveries",
        summary: "List webhook deliveries (the delivery log)",
        description:
          "Deliveries of this environment, newest first, each with its attempts (time, status code, duration, error class). Filters: `event_type`, `status`, `since` / `until` (creation time), `subject_id` (the deliveries of the events about one object, e.g. a payout). Kept after the endpoint is deleted. Bodies and signatures are not stored.",
        querystring: DeliveryListQuerySchema,
        response: routeResponses({ 200: DeliveryListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => service.listLog(requireActor(request), request.query),
  );

  app.get(
    "/v1/webhook-deliveries/:id",
    {
      schema: {
        tags,
        operationId: "getWebhookDelivery",
        summary: "Read one webhook delivery",
        description: "One delivery with all its attempts. The id is the envelope `id`.",
        params: DeliveryParamsSchema,
        response: routeResponses({ 200: delivery }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.getDelivery(requireActor(request), request.params.id),
  );

  app.post(
    "/v1/webhook-deliveries/:id/redeliver",
    {
      schema: {
        tags,
        operationId: "redeliverWebhookDelivery",
        summary: "Redeliver an abandoned delivery",
        description:
          "Starts a new series of up to 8 attempts (same schedule) for a delivery abandoned after 8 failures, to the current endpoint, with the same envelope `id` (receivers deduplicate on it). Answers 202 with the delivery, now `pending`. 409 `WEBHOOK_DELIVERY_NOT_ABANDONED` for any other status (dropped deliveries are never resent), 409 `WEBHOOK_SUBSCRIPTION_INACTIVE` when the endpoint is missing, disabled or does not list the type.",
        params: DeliveryParamsSchema,
        response: routeResponses(
          { 202: delivery },
          {
            access: "write",
            hasInput: true,
            codes: ["not_found", WEBHOOK_ERRORS.WEBHOOK_DELIVERY_NOT_ABANDONED, WEBHOOK_ERRORS.WEBHOOK_SUBSCRIPTION_INACTIVE],
          },
        ),
      },
    },
    async (request, reply) => reply.code(202).send(await service.redeliver(requireActor(request), request.params.id)),
  );
}
