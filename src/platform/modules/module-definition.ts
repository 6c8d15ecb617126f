// What a module contributes to the service: the shape every module's `define<Module>()` (its index.ts) returns
// and the composition root (src/composition.ts) collects in one ordered list. The API reads the routes and shared
// schemas from that list, the worker its job handlers, and other modules its offers. The platform names no
// module: this file only says what a contribution looks like.
import type { TSchema } from "@sinclair/typebox";
import type { Logger } from "pino";
import type { RouteRoles } from "../auth/route-roles.js";
import type { Clock } from "../clock.js";
import type { FieldCipher } from "../crypto.js";
import type { Database, Db } from "../db/client.js";
import type { ErrorCodeTable } from "../errors.js";
import type { EventRecorder } from "../events/outbox.js";
import type { AppInstance } from "../http/types.js";
import type { IdGenerator } from "../ids.js";
import type { JobStore } from "../jobs/job-store.js";
import type { JobHandlers } from "../jobs/worker.js";
import type { Metrics } from "../metrics.js";

/**
 * The platform services every module may use, built once per process by runtime.ts. A module's define function
 * takes this whole (it is the same for every module); what is the module's own (configuration values, a rail
 * registry, an outbound policy) comes as its settings, and what it needs from other modules as its ports.
 */
export interface PlatformServices {
  readonly database: Database;
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  readonly events: EventRecorder;
  readonly jobStore: JobStore;
  readonly logger: Logger;
  readonly metrics: Metrics;
}

/**
 * A schema other schemas and routes refer to by its `$id` (a named component of the OpenAPI document). TypeBox
 * types `$id` as optional, so its presence is checked when the modules are composed (src/composition.ts).
 */
export type SharedSchema = TSchema;

/** The jobs a module runs: the types it declares (each a job definition's `type`) and a handler for each. */
export interface ModuleJobs {
  readonly definitions: readonly { readonly type: string }[];
  /** Keyed by job definition type (`jobHandler(DEFINITION, run)`); each must be idempotent. */
  readonly handlers: JobHandlers;
}

export interface ModuleDefinition<Offers extends object = object> {
  /** The module's folder name under src/modules/. */
  readonly name: string;
  /** Registers its HTTP routes on the API (absent: the module serves no route). */
  readonly registerRoutes?: (app: AppInstance) => void;
  /** Its schemas with an `$id`, added to the API before any route (named components, `$ref` targets). */
  readonly sharedSchemas?: readonly SharedSchema[];
  /** Its background jobs (the worker registers the handlers). */
  readonly jobs?: ModuleJobs;
  /** Releases what the module holds for the life of the process (threads, connections); called once at shutdown. */
  readonly onClose?: () => Promise<void>;
  /** The named functions other modules may use (passed to them as ports by the composition root). */
  readonly offers: Offers;
  /** Who may call each of its routes (its `<m>.access.ts`); the composition assembles one role-by-route table. */
  readonly routeRoles?: RouteRoles;
  /** The error codes it owns (its `<m>.errors.ts`); the composition assembles one error-code table (/docs/errors). */
  readonly errorCodes?: ErrorCodeTable;
}

/** Identity, for inference: `defineModule({...})` keeps the exact type of `offers` for the composition root. */
export function defineModule<Offers extends object>(definition: ModuleDefinition<Offers>): ModuleDefinition<Offers> {
  return definition;
}
