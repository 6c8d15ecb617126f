import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import type { Db } from "../../platform/db/client.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import type { TargetPolicy } from "../../platform/outbound-http/url-safety.js";
import type { WebhookSender } from "../../platform/outbound-http/webhook-sender.js";
import { registerWebhookRoutes } from "./webhooks.routes.js";
import { WebhookDeliverySchema, WebhookSubscriptionSchema } from "./webhooks.schemas.js";
import { createWebhookService } from "./webhooks.service.js";

export { webhooksRouteRoles } from "./webhooks.access.js";
export {
  createDeliveryHook,
  createDeliveryJobHandler,
  MAX_ATTEMPTS,
  RETRY_DELAYS_MS,
  signatureHeader,
} from "./webhooks.delivery.js";
export { WEBHOOK_ERRORS } from "./webhooks.errors.js";
export { WEBHOOK_DELIVER_JOB } from "./webhooks.jobs.js";

export type WebhooksModule = ReturnType<typeof createWebhooksModule>;

export function createWebhooksModule(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  cipher: FieldCipher;
  jobStore: Pick<JobStore, "enqueue">;
  policy: TargetPolicy;
  sender: WebhookSender;
  recordAudit: RecordActorAudit;
}) {
  const service = createWebhookService(deps);
  return {
    service,
    sharedSchemas: [WebhookSubscriptionSchema, WebhookDeliverySchema],
    registerRoutes: (app: AppInstance) => registerWebhookRoutes(app, service),
  };
}
