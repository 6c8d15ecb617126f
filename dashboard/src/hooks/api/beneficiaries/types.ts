// The Beneficiary resource as the pages use it, from the generated OpenAPI types.
import type { Schemas } from "../../../api/client";

/** As the list and the detail route answer it (the deprecated, always-null `bank_details` aside). */
export type Beneficiary = Omit<Schemas["Beneficiary"], "bank_details">;
export type BeneficiaryStatus = Beneficiary["status"];
export type BeneficiaryType = Beneficiary["beneficiary_type"];
export type ComplianceStatus = Beneficiary["compliance_status"];
export type Destination = Schemas["Destination"];
export type CollectionScope = Schemas["CreateCollectionRequestBody"]["scope"];
export type CollectionLink = Schemas["CollectionRequestCreated"];

export type CreateBeneficiaryRequest = Schemas["CreateBeneficiaryRequest"];
export type UpdateBeneficiaryRequest = Schemas["UpdateBeneficiaryRequest"];
export type CreateBankAccountRequest = Schemas["CreateBankAccountRequest"];
export type ImportRows = Schemas["BeneficiaryImportRequest"]["rows"];
export type ImportResult = Schemas["BeneficiaryImportResult"];

/** The Beneficiaries list's filters, as the page reads them from its address. */
export interface BeneficiaryListFilters {
  readonly status: BeneficiaryStatus | null;
  readonly type: BeneficiaryType | null;
  readonly compliance: ComplianceStatus | null;
  /** An exact e-mail; empty for none. */
  readonly email: string;
}

export interface CollectionLinkInput {
  readonly scope: CollectionScope;
  readonly sendEmail: boolean;
}
