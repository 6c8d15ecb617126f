import type { AppInstance } from "../../platform/http/types.js";
import { createBrandingService } from "./collection.branding.js";
import { registerCollectionRoutes } from "./collection.routes.js";
import { BrandingSchema, CollectionRequestCreatedSchema } from "./collection.schemas.js";
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
  type LinkBranding,
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
  const branding = createBrandingService(deps);
  return {
    service,
    branding,
    sharedSchemas: [CollectionRequestCreatedSchema, BrandingSchema],
    registerRoutes: (app: AppInstance) => registerCollectionRoutes(app, service, branding),
  };
}
/** The destination rules the API validates with, for the pages to ask for exactly what a country and currency need. */
export {
  type BankForm,
  type BankFormField,
  bankFormFor,
  defaultCurrencyOf,
  isCountryCode,
  isCurrencyCode,
  isSepaCountry,
} from "../destinations/index.js";
export { collectionRouteRoles } from "./collection.access.js";
