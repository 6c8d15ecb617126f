import type { Tenant } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import type { Db, Tx } from "../../platform/db/client.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { MailOutbox } from "../emails/index.js";
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

export type BeneficiariesModule = ReturnType<typeof createBeneficiariesModule>;
export {
  BUSINESS_IDENTITY_FIELDS,
  DEFAULT_IDENTITY_REQUIREMENTS,
  type IdentityRequirements,
  identityRequirementsOf,
  PERSON_IDENTITY_FIELDS,
} from "./beneficiaries.state.js";

export function createBeneficiariesModule(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  cipher: FieldCipher;
  mail: Pick<MailOutbox, "sendForBusiness">;
  identityRequirements: IdentityRequirements;
  enrollAfterCommit?: (tenant: Tenant, beneficiaryId: string) => Promise<void>;
  closeLinksOnArchive?: (tx: Tx, tenant: Tenant, beneficiaryId: string, at: Date) => Promise<void>;
  recordAudit: RecordActorAudit;
}) {
  const service = createBeneficiaryService(deps);
  return {
    service,
    sharedSchemas: [
      PostalAddressSchema,
      PendingCollectionRequestSchema,
      TaxDocumentSchema,
      DeclaredDestinationChangeSchema,
      BeneficiarySchema,
    ],
    registerRoutes: (app: AppInstance) => registerBeneficiaryRoutes(app, service),
  };
}
export { beneficiariesRouteRoles } from "./beneficiaries.access.js";
export { BENEFICIARY_ERRORS } from "./beneficiaries.errors.js";
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
} from "./beneficiaries.service.js";
/** For the bank-rails module (injected in app.ts): the address a SEPA file carries. */
export { findPostalAddresses } from "./beneficiaries.shared.js";
