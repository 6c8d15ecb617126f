import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { beneficiariesRouteRoles } from "./beneficiaries.access.js";
import { BENEFICIARY_ERRORS } from "./beneficiaries.errors.js";
import type { BeneficiariesPorts } from "./beneficiaries.ports.js";
import { registerBeneficiaryRoutes } from "./beneficiaries.routes.js";
import {
  BeneficiarySchema,
  DeclaredDestinationChangeSchema,
  PendingCollectionRequestSchema,
  PostalAddressSchema,
  TaxDocumentSchema,
} from "./beneficiaries.schemas.js";
import { createBeneficiaryService } from "./beneficiaries.service.js";
import type { IdentityRequirements } from "./beneficiaries.state.js";

export type { BeneficiariesPorts } from "./beneficiaries.ports.js";
export {
  BUSINESS_IDENTITY_FIELDS,
  DEFAULT_IDENTITY_REQUIREMENTS,
  type IdentityRequirements,
  identityRequirementsOf,
  PERSON_IDENTITY_FIELDS,
} from "./beneficiaries.state.js";

export interface BeneficiariesSettings {
  /** IDENTITY_REQUIRED_PERSON / IDENTITY_REQUIRED_BUSINESS: what a Beneficiary must state to be paid. */
  readonly identityRequirements: IdentityRequirements;
}

/** Beneficiaries: their API, identity and compliance, and what other modules read of them. */
export function defineBeneficiaries(platform: PlatformServices, settings: BeneficiariesSettings, ports: BeneficiariesPorts) {
  const service = createBeneficiaryService({
    db: platform.db,
    clock: platform.clock,
    ids: platform.ids,
    cipher: platform.cipher,
    mail: ports.mail,
    identityRequirements: settings.identityRequirements,
    enrollAfterCommit: ports.enrollAfterCommit,
    closeLinksOnArchive: ports.closeLinksOnArchive,
    recordAudit: ports.recordAudit,
    requestNameChecks: ports.requestNameChecks,
    screenInTransaction: ports.screenInTransaction,
  });
  return defineModule({
    name: "beneficiaries",
    routeRoles: beneficiariesRouteRoles,
    errorCodes: BENEFICIARY_ERRORS,
    registerRoutes: (app) => registerBeneficiaryRoutes(app, service),
    sharedSchemas: [
      PostalAddressSchema,
      PendingCollectionRequestSchema,
      TaxDocumentSchema,
      DeclaredDestinationChangeSchema,
      BeneficiarySchema,
    ],
    offers: {
      /** For destinations, collection, the export and the import: Beneficiaries read and prepared by their rules. */
      service,
      /** For enrollment: the Beneficiary as the API presents it. */
      readBeneficiary: service.get,
    },
  });
}
export type { BeneficiaryRow, BeneficiaryWithCounts } from "./beneficiaries.repo.js";
export type { DeclaredDestinationChangeValue, PostalAddressValue, TaxDocumentSummaryValue } from "./beneficiaries.schema.js";
export {
  type BeneficiaryBody,
  type CreateBeneficiaryBody,
  CreateBeneficiaryBodySchema,
  PostalAddressSchema,
} from "./beneficiaries.schemas.js";
export {
  type BeneficiaryService,
  beneficiariesLeftToRemask,
  type DeclaredDestinationChange,
  IDENTITY_READERS,
  type NoticeDestination,
  type PreparedBeneficiary,
  remaskStoredBeneficiaries,
  type ScreenInTransaction,
} from "./beneficiaries.service.js";
/** For the bank-rails module (a port, src/composition.ts): the address a SEPA file carries. */
export { findPostalAddresses, type ScreenedBeneficiary } from "./beneficiaries.shared.js";
export { BENEFICIARY_ERRORS, beneficiariesRouteRoles };
