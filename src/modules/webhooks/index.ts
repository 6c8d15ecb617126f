import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import type { TargetPolicy } from "../../platform/outbound-http/url-safety.js";
import type { WebhookSender } from "../../platform/outbound-http/webhook-sender.js";
import { webhooksRouteRoles } from "./webhooks.access.js";
import { createDeliveryJobHandler } from "./webhooks.delivery.js";
import { WEBHOOK_ERRORS } from "./webhooks.errors.js";
import { WEBHOOK_DELIVER_JOB } from "./webhooks.jobs.js";
import type { WebhooksPorts } from "./webhooks.ports.js";
import { registerWebhookRoutes } from "./webhooks.routes.js";
import { WebhookDeliverySchema, WebhookSubscriptionSchema } from "./webhooks.schemas.js";
import { createWebhookService } from "./webhooks.service.js";

export {
  /** `createDeliveryHook` for the events of one `recordMany`. */
  createDeliveriesHook,
  /** For the events outbox (runtime.ts, built before any module): every recorded event is matched to the subscription. */
  createDeliveryHook,
  MAX_ATTEMPTS,
  RETRY_DELAYS_MS,
  signatureHeader,
} from "./webhooks.delivery.js";
export { WEBHOOK_DELIVER_JOB } from "./webhooks.jobs.js";
export type { WebhooksPorts } from "./webhooks.ports.js";

export interface WebhooksSettings {
  /** Where webhook URLs may point (checked when a subscription is saved and again at every call). */
  readonly policy: TargetPolicy;
  /** The guarded client that calls them (the test delivery of the API, the deliveries of the job). */
  readonly sender: WebhookSender;
}

/** Webhook subscriptions (their API) and the delivery of recorded events to them (WEBHOOK_DELIVER_JOB). */
export function defineWebhooks(platform: PlatformServices, settings: WebhooksSettings, ports: WebhooksPorts) {
  const { db, clock, ids, cipher } = platform;
  const service = createWebhookService({
    db,
    clock,
    ids,
    cipher,
    jobStore: platform.jobStore,
    policy: settings.policy,
    sender: settings.sender,
    recordAudit: ports.recordAudit,
  });
  return defineModule({
    name: "webhooks",
    routeRoles: webhooksRouteRoles,
    errorCodes: WEBHOOK_ERRORS,
    registerRoutes: (app) => registerWebhookRoutes(app, service),
    sharedSchemas: [WebhookSubscriptionSchema, WebhookDeliverySchema],
    jobs: {
      definitions: [WEBHOOK_DELIVER_JOB],
      handlers: createDeliveryJobHandler({
        db,
        clock,
        ids,
        cipher,
        sender: settings.sender,
        logger: platform.logger.child({ component: "webhooks" }),
      }),
    },
    offers: {},
  });
}

export { WEBHOOK_ERRORS, webhooksRouteRoles };
