import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { collectionRouteRoles } from "./collection.access.js";
import { createBrandingService } from "./collection.branding.js";
import type { CollectionPorts } from "./collection.ports.js";
import { registerCollectionRoutes } from "./collection.routes.js";
import { BrandingSchema, CollectionRequestCreatedSchema } from "./collection.schemas.js";
import { createCollectionService } from "./collection.service.js";

export type { CollectionPorts } from "./collection.ports.js";
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
/** For the beneficiaries module's archive use case (a port, src/composition.ts): closes the live link in its transaction. */
export { closeRequestsOfArchived as closeLinksOfArchivedBeneficiary } from "./collection.shared.js";
export { formFor, TAX_FORMS, type TaxForm, W8BENE_ENTITY_TYPES, W9_CLASSIFICATIONS } from "./collection.tax.js";

export interface CollectionSettings {
  /** PUBLIC_BASE_URL: the base of the link URLs. */
  readonly publicBaseUrl: string;
}

/** Collection links: a Beneficiary gives its details and bank account on a hosted page the Business sends it. */
export function defineCollection(platform: PlatformServices, settings: CollectionSettings, ports: CollectionPorts) {
  const deps = {
    db: platform.db,
    clock: platform.clock,
    ids: platform.ids,
    cipher: platform.cipher,
    events: platform.events,
    mail: ports.mail,
    publicBaseUrl: settings.publicBaseUrl,
    beneficiaries: ports.beneficiaries,
    destinations: ports.destinations,
    enrollAfterCommit: ports.enrollAfterCommit,
    checkRailRoute: ports.checkRailRoute,
    recordAudit: ports.recordAudit,
  };
  const service = createCollectionService(deps);
  const branding = createBrandingService(deps);
  return defineModule({
    name: "collection",
    routeRoles: collectionRouteRoles,
    registerRoutes: (app) => registerCollectionRoutes(app, service, branding),
    sharedSchemas: [CollectionRequestCreatedSchema, BrandingSchema],
    offers: {
      /** For the hosted collection pages (src/pages/collection, registered by app.ts). */
      service,
    },
  });
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

export { collectionRouteRoles };
