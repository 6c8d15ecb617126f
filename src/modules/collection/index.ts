import type { AppInstance } from "../../platform/http/types.js";
import { registerCollectionRoutes } from "./collection.routes.js";
import { CollectionRequestCreatedSchema } from "./collection.schemas.js";
import { type CollectionServiceDeps, createCollectionService } from "./collection.service.js";

export type CollectionModule = ReturnType<typeof createCollectionModule>;
export {
  type ChoosableDestination,
  type ClosedReason,
  type CollectionScope,
  type CollectionService,
  type DestinationChoice,
  hashToken,
  LINK_LIFETIME_MS,
  type LinkLookup,
  type LinkView,
  readTaxFormTin,
  type Submission,
  type SubmitOutcome,
} from "./collection.service.js";
/** For the beneficiaries module's archive use case (injected in app.ts): closes the live link in its transaction. */
export { closeRequestsOfArchived as closeLinksOfArchivedBeneficiary } from "./collection.shared.js";
export { formFor, TAX_FORMS, type TaxForm, W8BENE_ENTITY_TYPES, W9_CLASSIFICATIONS } from "./collection.tax.js";

export function createCollectionModule(deps: CollectionServiceDeps) {
  const service = createCollectionService(deps);
  return {
    service,
    sharedSchemas: [CollectionRequestCreatedSchema],
    registerRoutes: (app: AppInstance) => registerCollectionRoutes(app, service),
  };
}
