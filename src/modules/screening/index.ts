import { readFile } from "node:fs/promises";
import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { screeningRouteRoles } from "./screening.access.js";
import { SCREENING_ERRORS } from "./screening.errors.js";
import { SCREENING_RESCREEN_JOB } from "./screening.jobs.js";
import { detectListFormat, type ListFile, type ListFormat, type ListId, listIdOfFormat } from "./screening.lists.js";
import type { ScreeningPorts } from "./screening.ports.js";
import { registerScreeningRoutes } from "./screening.routes.js";
import { ScreeningHitSchema } from "./screening.schemas.js";
import { createScreeningService } from "./screening.service.js";

export {
  detectListFormat,
  LIST_FORMATS,
  type ListFile,
  type ListFormat,
  type ListId,
  readSanctionsList,
} from "./screening.lists.js";
export type { ScreeningPorts } from "./screening.ports.js";

export interface ScreeningSettings {
  /** SCREENING_THRESHOLD. */
  readonly threshold: number;
  /** SANCTIONS_LISTS: the files loaded at start (`format` null: told by the file's name or content). */
  readonly lists: readonly { readonly format: string | null; readonly path: string }[];
  /** OPERATOR_TOKEN; null: the operator routes do not exist. */
  readonly operatorToken: string | null;
}

/**
 * Sanctions screening: the lists the operator loads (OFAC SDN, EU consolidated), their entries indexed by name
 * keys, Beneficiaries screened when they are created or their name or country changes and all again when a list
 * changes, the hits an admin clears or confirms.
 */
export function defineScreening(platform: PlatformServices, settings: ScreeningSettings, ports: ScreeningPorts) {
  const service = createScreeningService({
    db: platform.db,
    clock: platform.clock,
    ids: platform.ids,
    events: platform.events,
    jobStore: platform.jobStore,
    threshold: settings.threshold,
    screeningEnabled: ports.screeningEnabled,
    releaseScreeningHold: ports.releaseScreeningHold,
    recordAudit: ports.recordAudit,
  });

  /** Loads SANCTIONS_LISTS (at the start of a process that runs the worker); unchanged files change nothing. */
  async function loadConfiguredLists(): Promise<void> {
    const byList = new Map<ListId, ListFile[]>();
    for (const configured of settings.lists) {
      const content = await readFile(configured.path, "utf8");
      const format = (configured.format as ListFormat | null) ?? detectListFormat(configured.path, content);
      if (format === null) {
        throw new Error(
          `SANCTIONS_LISTS: cannot tell the format of ${configured.path}; name it (ofac_sdn:, ofac_alt:, ofac_add:, eu_csv:, eu_xml:)`,
        );
      }
      const listId = listIdOfFormat(format);
      byList.set(listId, [...(byList.get(listId) ?? []), { format, content }]);
    }
    for (const [listId, files] of byList) {
      const loaded = await service.loadList(listId, files, "config");
      platform.logger.info(
        { list_id: loaded.list_id, version: loaded.version, entries: loaded.entry_count, changed: loaded.changed },
        "sanctions list loaded",
      );
    }
  }

  return defineModule({
    name: "screening",
    routeRoles: screeningRouteRoles,
    errorCodes: SCREENING_ERRORS,
    registerRoutes: (app) => registerScreeningRoutes(app, service, settings.operatorToken),
    sharedSchemas: [ScreeningHitSchema],
    jobs: { definitions: [SCREENING_RESCREEN_JOB], handlers: service.jobs },
    offers: {
      /** For the beneficiaries module (a port): screening in the transaction of a creation or a change. */
      screenInTransaction: service.screenInTransaction,
      /** For the destinations module (a port): the policy's `screening` turned on starts a rescreen run. */
      screenAfterEnabled: service.screenAfterEnabled,
      loadConfiguredLists,
      /** For tests and the benchmark: the same use case the operator route runs. */
      loadList: service.loadList,
    },
  });
}

export { SCREENING_ERRORS, screeningRouteRoles };
