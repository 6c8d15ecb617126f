// Use cases of the Beneficiary resource. Each owns its transaction.

import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import { noActor, type RecordActorAudit } from "../../platform/auth/audit.js";
import type { MakerIdentity } from "../../platform/auth/maker-checker.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { isUniqueViolation } from "../../platform/db/errors.js";
import { AppError, type ErrorDetail } from "../../platform/errors.js";
import { compileDetailsValidator } from "../../platform/http/validation.js";
import type { IdGenerator } from "../../platform/ids.js";
import { renderEmail } from "../../platform/mail/templates.js";
import { endingIn, MASK_VERSION, maskTrailing } from "../../platform/masking.js";
import { decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { isCountryCode } from "../../platform/reference/iso-codes.js";
import { countryWords, currencyWords } from "../../platform/reference/words.js";
import type { MailOutbox } from "../emails/index.js";
import { findBusinessName } from "../registration/registration.shared.js";
import { BENEFICIARY_ERRORS } from "./beneficiaries.errors.js";
import {
  anyBeneficiaryToRemask,
  type BeneficiaryPatch,
  type BeneficiaryRow,
  type BeneficiaryWithCounts,
  findBeneficiary,
  insertBeneficiary,
  insertDeclaredDestinationChange,
  listBeneficiaries,
  lockBeneficiariesToRemask,
  lockBeneficiary,
  type NewBeneficiaryRow,
  saveRemaskedBeneficiaries,
  updateBeneficiary,
} from "./beneficiaries.repo.js";
import type { DeclaredDestinationChangeValue, TaxDocumentSummaryValue } from "./beneficiaries.schema.js";
import {
  type BeneficiaryBody,
  type CreateBeneficiaryBody,
  type ListBeneficiariesQuery,
  type PostalAddressBody,
  PostalAddressSchema,
  type TaxDocumentBody,
  type UpdateBeneficiaryBody,
  UpdateBeneficiaryBodySchema,
} from "./beneficiaries.schemas.js";
import {
  type BusinessIdentityField,
  deriveBeneficiaryStatus,
  type IdentityRequirements,
  missingForReady,
  type PersonIdentityField,
  REACKNOWLEDGMENT_TRIGGER_FIELDS,
} from "./beneficiaries.state.js";

export interface BeneficiaryServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  /** Sends the notice e-mails (declared destination changes) through the mail outbox, in the use case's transaction. */
  readonly mail: Pick<MailOutbox, "sendForBusiness">;
  readonly identityRequirements: IdentityRequirements;
  /** Enrolls the Beneficiary with the payout rail after a change that may make it payable has committed. */
  readonly enrollAfterCommit?: (tenant: Tenant, beneficiaryId: string) => Promise<void>;
  /** Closes the Beneficiary's live collection link as `archived`, inside the archiving transaction (collection module). */
  readonly closeLinksOnArchive?: (tx: Tx, tenant: Tenant, beneficiaryId: string, at: Date) => Promise<void>;
  /** The audit log (people module, a port passed in src/composition.ts): every change of a declared destination is recorded. */
  readonly recordAudit: RecordActorAudit;
  /** Queues the payee name check of the Beneficiary's live accounts (destinations module) when its legal name changes. */
  readonly requestNameChecks?: (tx: Tx, tenant: Tenant, beneficiaryId: string) => Promise<void>;
  /** Sanctions screening (screening module, a port): Beneficiaries created or whose name or country changed, in that transaction. */
  readonly screenInTransaction?: ScreenInTransaction;
}

/** Screens the tenant's Beneficiaries in the caller's transaction; `by` is whose change it was (null: no person's). */
export type ScreenInTransaction = (
  tx: Tx,
  tenant: Tenant,
  beneficiaryIds: readonly string[],
  by: MakerIdentity | null,
) => Promise<void>;

/** The columns whose change is screened again: the names and the countries. */
const SCREENED_COLUMNS = [
  "name",
  "firstName",
  "lastName",
  "businessName",
  "countryOfResidence",
  "countryOfIncorporation",
  "postalAddress",
] as const;

export type BeneficiaryService = ReturnType<typeof createBeneficiaryService>;

/** A validated new Beneficiary's columns; the id, tenant and timestamps are added on insert. */
export type PreparedBeneficiary = Omit<NewBeneficiaryRow, "id" | "businessId" | "environment" | "createdAt" | "updatedAt">;

const notFound = () => new AppError("not_found", { message: "No such Beneficiary." });

/** What a declared-destination notice names of a destination: its kind and masked value, never a number. */
export interface NoticeDestination {
  readonly id: string;
  readonly kind: "bank_account" | "card";
  readonly last4: string;
  readonly currency: string;
  readonly country: string;
}

/** A change of the declared destination: to what (null clears it), by whom, and why. */
export interface DeclaredDestinationChange {
  readonly destination: NoticeDestination | null;
  readonly by:
    | { readonly kind: "business"; readonly actor: Actor }
    | { readonly kind: "beneficiary_link"; readonly collectionRequestId: string };
  readonly reason: DeclaredDestinationChangeValue["reason"];
}

/** The identity values as the API names them (tax_id as its masked tail only). */
function identityView(row: BeneficiaryRow): Record<string, unknown> {
  return {
    name: row.name,
    first_name: row.firstName,
    last_name: row.lastName,
    country_of_residence: row.countryOfResidence,
    date_of_birth: row.dateOfBirth,
    business_name: row.businessName,
    country_of_incorporation: row.countryOfIncorporation,
    registration_number: row.registrationNumber,
    tax_id: row.taxIdLast4,
    postal_address: row.postalAddress,
    phone: row.phone,
  };
}

/** How to read each identity field that can be required, from a row (also the collection pages' completeness check). */
export const IDENTITY_READERS: Readonly<Record<PersonIdentityField | BusinessIdentityField, (row: BeneficiaryRow) => unknown>> = {
  first_name: (row) => row.firstName,
  last_name: (row) => row.lastName,
  country_of_residence: (row) => row.countryOfResidence,
  date_of_birth: (row) => row.dateOfBirth,
  business_name: (row) => row.businessName,
  country_of_incorporation: (row) => row.countryOfIncorporation,
  registration_number: (row) => row.registrationNumber,
  tax_id: (row) => row.taxIdLast4,
  postal_address: (row) => row.postalAddress,
  phone: (row) => row.phone,
};

export function createBeneficiaryService(deps: BeneficiaryServiceDeps) {
  const { db, clock, ids, cipher, identityRequirements } = deps;

  // Column readers of the required identity fields, built once: presenting a page of 100 rows runs this
  // check 100 times, and building an identity view per row was a measurable share of a list request.
  const requiredReaders = {
    person: identityRequirements.person.map((field) => [field, IDENTITY_READERS[field]] as const),
    business: identityRequirements.business.map((field) => [field, IDENTITY_READERS[field]] as const),
  };

  function missingFields(row: BeneficiaryRow): string[] {
    const missing: string[] = [];
    for (const [field, read] of requiredReaders[row.beneficiaryType]) {
      const value = read(row);
      if (value === null || value === undefined || value === "") missing.push(field);
    }
    return missing;
  }

  function present({ row, payoutUsableDestinations, openRequests }: BeneficiaryWithCounts): BeneficiaryBody {
    const missing = missingFields(row);
    const now = clock.now();
    const iso = (value: Date | null) => value?.toISOString() ?? null;
    return {
      id: row.id,
      beneficiary_type: row.beneficiaryType,
      name: row.name,
      nickname: row.nickname,
      display_name: row.nickname ?? row.name,
      email: row.email,
      phone: row.phone,
      first_name: row.firstName,
      last_name: row.lastName,
      country_of_residence: row.countryOfResidence,
      date_of_birth: row.dateOfBirth,
      business_name: row.businessName,
      country_of_incorporation: row.countryOfIncorporation,
      registration_number: row.registrationNumber,
      tax_id: row.taxIdLast4 === null ? null : `•••••${row.taxIdLast4}`,
      postal_address: row.postalAddress ?? null,
      bank_details: null,
      compliance_status: row.complianceStatus,
      identity_complete: missing.length === 0,
      missing_identity_fields: missing,
      acknowledged_at: iso(row.acknowledgedAt),
      reacknowledgment_required: row.reacknowledgmentRequired,
      collection_status: row.collectionStatus,
      details_submitted_at: iso(row.detailsSubmittedAt),
      declared_destination_id: row.declaredDestinationId,
      declared_destination_change: row.declaredDestinationChange ?? null,
      status: deriveBeneficiaryStatus({
        identityComplete: missing.length === 0,
        complianceStatus: row.complianceStatus,
        reacknowledgmentRequired: row.reacknowledgmentRequired,
        payoutUsableDestinations,
        enrollmentRejected: row.enrollmentStatus === "rejected",
      }),
      enrollment_status: row.enrollmentStatus,
      enrollment_failure_detail: row.enrollmentStatus === "rejected" ? row.enrollmentFailureDetail : null,
      enrollment_failure_bank_account_id: row.enrollmentStatus === "rejected" ? row.enrollmentFailureBankAccountId : null,
      missing_for_ready: missingForReady({
        archived: row.archivedAt !== null,
        complianceStatus: row.complianceStatus,
        missingIdentityFields: missing,
        reacknowledgmentRequired: row.reacknowledgmentRequired,
        acknowledged: row.acknowledgedAt !== null,
        payoutUsableDestinations,
        enrollmentRejected: row.enrollmentStatus === "rejected",
        enrollmentFailureDetail: row.enrollmentStatus === "rejected" ? row.enrollmentFailureDetail : null,
      }),
      // Live = open and not yet expired, judged now with the injected clock (expiry needs no write).
      pending_requests: (openRequests ?? [])
        .filter((request) => request.expiresAt > now)
        .map((request) => ({ id: request.id, scope: request.scope, expires_at: request.expiresAt.toISOString() })),
      tax_document: row.taxDocument === null ? null : presentTaxDocument(row.taxDocument, now),
      screening_status: row.screeningStatus,
      screening_match: row.screeningMatch ?? null,
      screened_at: iso(row.screenedAt),
      archived_at: iso(row.archivedAt),
      environment: row.environment,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  /**
   * Checks JSON Schema cannot express: real country codes, a date of birth in the past. `prefix` names the
   * fields when the identity sits inside a larger input.
   */
  function identityValueProblems(body: UpdateBeneficiaryBody, prefix = ""): ErrorDetail[] {
    const details: ErrorDetail[] = [];
    const country = (field: string, value: string | null | undefined) => {
      if (value !== null && value !== undefined && !isCountryCode(value)) {
        details.push({ field, code: "invalid_country", message: `${value} is not an ISO 3166-1 alpha-2 country code.` });
      }
    };
    country("country_of_residence", body.country_of_residence);
    country("country_of_incorporation", body.country_of_incorporation);
    country("postal_address.country", body.postal_address?.country);
    if (body.date_of_birth !== null && body.date_of_birth !== undefined) {
      const today = clock.now().toISOString().slice(0, 10);
      if (body.date_of_birth >= today || body.date_of_birth < "1900-01-01") {
        details.push({ field: "date_of_birth", code: "out_of_range", message: "Must be a date in the past, after 1900-01-01." });
      }
    }
    return prefix === "" ? details : details.map((d) => ({ ...d, field: `${prefix}${d.field}` }));
  }

  function checkIdentityValues(body: UpdateBeneficiaryBody): void {
    const details = identityValueProblems(body);
    if (details.length > 0) throw new AppError("validation_failed", { details });
  }

  function legalName(
    type: "person" | "business",
    values: { first?: string | null; last?: string | null; business?: string | null },
  ) {
    if (type === "business") return values.business ?? null;
    const parts = [values.first, values.last].filter((part): part is string => typeof part === "string" && part !== "");
    return parts.length > 0 ? parts.join(" ") : null;
  }

  /** Maps API identity fields onto columns; only fields present in the body appear in the patch. */
  function identityPatch(body: UpdateBeneficiaryBody): BeneficiaryPatch {
    const patch: BeneficiaryPatch = {};
    if (body.nickname !== undefined) patch.nickname = body.nickname;
    if (body.phone !== undefined) patch.phone = body.phone;
    if (body.first_name !== undefined) patch.firstName = body.first_name;
    if (body.last_name !== undefined) patch.lastName = body.last_name;
    if (body.country_of_residence !== undefined) patch.countryOfResidence = body.country_of_residence;
    if (body.date_of_birth !== undefined) patch.dateOfBirth = body.date_of_birth;
    if (body.business_name !== undefined) patch.businessName = body.business_name;
    if (body.country_of_incorporation !== undefined) patch.countryOfIncorporation = body.country_of_incorporation;
    if (body.registration_number !== undefined) patch.registrationNumber = body.registration_number;
    if (body.postal_address !== undefined)
      patch.postalAddress = body.postal_address === null ? null : normalizeAddress(body.postal_address);
    if (body.tax_id !== undefined) {
      const taxId = normalizeTaxId(body.tax_id);
      patch.taxIdEncrypted = taxId === null ? null : cipher.encrypt(taxId);
      patch.taxIdLast4 = taxId === null ? null : maskTrailing(taxId);
    }
    if (body.email !== undefined) {
      patch.email = body.email.trim();
      patch.emailNormalized = body.email.trim().toLowerCase();
    }
    if (body.name !== undefined) patch.name = body.name.trim();
    return patch;
  }

  function emailTaken() {
    return new AppError(BENEFICIARY_ERRORS.BENEFICIARY_EMAIL_TAKEN);
  }

  async function readOrFail(db: Db, tenant: Tenant, id: string): Promise<BeneficiaryBody> {
    const found = await findBeneficiary(db, tenant, id);
    if (found === null) throw notFound();
    return present(found);
  }

  /**
   * Everything creating a Beneficiary checks and derives, without writing anything: the API's create and the
   * import share it. `acknowledged` records the compliance acknowledgment at creation (import rows).
   */
  function prepareBeneficiary(
    body: CreateBeneficiaryBody,
    options: { acknowledged?: boolean } = {},
  ): { ok: true; value: PreparedBeneficiary } | { ok: false; details: ErrorDetail[] } {
    const details = identityValueProblems(body);
    const patch = identityPatch(body);
    const name =
      patch.name ??
      legalName(body.beneficiary_type, {
        first: body.first_name ?? null,
        last: body.last_name ?? null,
        business: body.business_name ?? null,
      });
    if (name === null) {
      details.push({
        field: "name",
        code: "required",
        message: body.beneficiary_type === "person" ? "Give name, or first_name and last_name." : "Give name, or business_name.",
      });
    }
    if (details.length > 0 || name === null) return { ok: false, details };
    return {
      ok: true,
      value: {
        ...patch,
        beneficiaryType: body.beneficiary_type,
        name,
        email: body.email.trim(),
        emailNormalized: body.email.trim().toLowerCase(),
        maskVersion: MASK_VERSION,
        ...(options.acknowledged === true ? { complianceStatus: "compliant", acknowledgedAt: clock.now() } : {}),
      },
    };
  }

  async function create(actor: Actor, body: CreateBeneficiaryBody): Promise<BeneficiaryBody> {
    const prepared = prepareBeneficiary(body);
    if (!prepared.ok) throw new AppError("validation_failed", { details: prepared.details });
    const now = clock.now();
    const tenant = tenantOf(actor);
    try {
      return await transaction(db, async (tx) => {
        const row = await insertBeneficiary(tx, {
          ...prepared.value,
          id: ids.newId(),
          businessId: tenant.businessId,
          environment: tenant.environment,
          createdAt: now,
          updatedAt: now,
        });
        if (deps.screenInTransaction === undefined) return present({ row, payoutUsableDestinations: 0 });
        await deps.screenInTransaction(tx, tenant, [row.id], actor);
        return readOrFail(tx, tenant, row.id);
      });
    } catch (error) {
      if (isUniqueViolation(error, "beneficiaries_tenant_email_key")) throw emailTaken();
      throw error;
    }
  }

  async function get(actor: Actor, id: string): Promise<BeneficiaryBody> {
    return readOrFail(db, tenantOf(actor), id);
  }

  async function list(actor: Actor, query: ListBeneficiariesQuery) {
    const limit = query.limit ?? 50;
    const rows = await listBeneficiaries(
      db,
      tenantOf(actor),
      {
        ...(query.status !== undefined ? { status: query.status } : {}),
        ...(query.compliance_status !== undefined ? { complianceStatus: query.compliance_status } : {}),
        ...(query.beneficiary_type !== undefined ? { beneficiaryType: query.beneficiary_type } : {}),
        ...(query.email !== undefined ? { emailNormalized: query.email.trim().toLowerCase() } : {}),
        ...(query.created_from !== undefined ? { createdFrom: new Date(query.created_from) } : {}),
        ...(query.created_to !== undefined ? { createdTo: new Date(query.created_to) } : {}),
      },
      identityRequirements,
      decodeCursor(query.cursor),
      limit + 1,
    );
    const page = toPage(
      rows.map((r) => ({ ...r, id: r.row.id })),
      limit,
    );
    return { beneficiaries: page.items.map(present), next_cursor: page.nextCursor };
  }

  /** Locks the Beneficiary, refuses archived ones, runs `change`, and returns the fresh representation. */
  async function changeActive(
    actor: Actor,
    id: string,
    change: (tx: Tx, row: BeneficiaryRow, tenant: Tenant) => Promise<BeneficiaryPatch | null>,
  ): Promise<BeneficiaryBody> {
    const tenant = tenantOf(actor);
    try {
      return await transaction(db, async (tx) => {
        const row = await lockBeneficiary(tx, tenant, id);
        if (row === null) throw notFound();
        if (row.archivedAt !== null) throw new AppError(BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED);
        const patch = await change(tx, row, tenant);
        if (patch !== null) await updateBeneficiary(tx, tenant, id, { ...patch, updatedAt: clock.now() });
        if (patch !== null && SCREENED_COLUMNS.some((column) => patch[column] !== undefined)) {
          await screenChanged(tx, tenant, [id], actor);
        }
        return readOrFail(tx, tenant, id);
      });
    } catch (error) {
      if (isUniqueViolation(error, "beneficiaries_tenant_email_key")) throw emailTaken();
      throw error;
    }
  }

  /**
   * PUT: fields sent replace the stored ones, null clears, omitted fields are kept. A change of a trigger
   * identity field after acknowledgment sets reacknowledgment_required (compliance status stays).
   */
  async function update(actor: Actor, id: string, body: UpdateBeneficiaryBody): Promise<BeneficiaryBody> {
    checkIdentityValues(body);
    return changeActive(actor, id, async (tx, row, tenant) => {
      const patch = identityUpdatePatch(row, body);
      // The legal name is what the accounts' holder names are checked against: check them again.
      if (patch.name !== undefined && patch.name !== row.name) await deps.requestNameChecks?.(tx, tenant, row.id);
      return patch;
    });
  }

  /** Whether the update changes a field the compliance acknowledgment was about (tax id compared in full). */
  function changesTriggerField(row: BeneficiaryRow, patch: BeneficiaryPatch, body: UpdateBeneficiaryBody): boolean {
    const before: Record<string, unknown> = {
      ...identityView(row),
      tax_id: row.taxIdEncrypted === null ? null : cipher.decrypt(row.taxIdEncrypted),
    };
    const after: Record<string, unknown> = { ...before };
    if (patch.name !== undefined) after.name = patch.name;
    for (const field of REACKNOWLEDGMENT_TRIGGER_FIELDS) {
      if (field === "name" || field === "tax_id") continue;
      const value = body[field];
      if (value !== undefined) after[field] = value;
    }
    if (body.tax_id !== undefined) after.tax_id = normalizeTaxId(body.tax_id);
    return REACKNOWLEDGMENT_TRIGGER_FIELDS.some((field) => (before[field] ?? null) !== (after[field] ?? null));
  }

  /**
   * The Business states it has checked the Beneficiary: compliance becomes `compliant` and any pending
   * re-acknowledgment is cleared. A suspended Beneficiary cannot be acknowledged.
   */
  async function acknowledge(actor: Actor, id: string): Promise<BeneficiaryBody> {
    const acknowledged = await changeActive(actor, id, async (_tx, row) => {
      if (row.complianceStatus === "suspended") throw new AppError(BENEFICIARY_ERRORS.BENEFICIARY_SUSPENDED);
      return { complianceStatus: "compliant", acknowledgedAt: clock.now(), reacknowledgmentRequired: false };
    });
    if (deps.enrollAfterCommit === undefined) return acknowledged;
    // Now compliant: enroll with the rail (after the commit above), and answer with the result.
    await deps.enrollAfterCommit(tenantOf(actor), acknowledged.id);
    return readOrFail(db, tenantOf(actor), acknowledged.id);
  }

  /**
   * Archiving also closes the live collection link (as `archived`) in the same transaction: un-archiving
   * revives nothing, and the Business mints a new link when it wants one.
   */
  async function archive(actor: Actor, id: string): Promise<BeneficiaryBody> {
    const tenant = tenantOf(actor);
    return transaction(db, async (tx) => {
      const row = await lockBeneficiary(tx, tenant, id);
      if (row === null) throw notFound();
      if (row.archivedAt === null) {
        const now = clock.now();
        await updateBeneficiary(tx, tenant, id, { archivedAt: now, updatedAt: now });
        await deps.closeLinksOnArchive?.(tx, tenant, row.id, now);
      }
      return readOrFail(tx, tenant, id);
    });
  }

  /** Un-archiving is refused while another active Beneficiary holds the same e-mail. */
  async function unarchive(actor: Actor, id: string): Promise<BeneficiaryBody> {
    const tenant = tenantOf(actor);
    try {
      return await transaction(db, async (tx) => {
        const row = await lockBeneficiary(tx, tenant, id);
        if (row === null) throw notFound();
        if (row.archivedAt !== null) await updateBeneficiary(tx, tenant, id, { archivedAt: null, updatedAt: clock.now() });
        return readOrFail(tx, tenant, id);
      });
    } catch (error) {
      if (isUniqueViolation(error, "beneficiaries_tenant_email_key")) throw emailTaken();
      throw error;
    }
  }

  /**
   * Identity input from outside the JSON API (the hosted collection form): the same checks the PUT route's
   * schema and the service make, answered as details instead of a thrown error.
   */
  function identityProblems(body: Record<string, unknown>): ErrorDetail[] {
    const shape = checkIdentityShape(body);
    if (shape.length > 0) return shape;
    return identityValueProblems(body as UpdateBeneficiaryBody);
  }

  /**
   * The change an identity update makes to a row, with the re-acknowledgment trigger rule applied: the PUT
   * route and a `full_onboarding` submission share it. `body` must have passed identityProblems (or the schema).
   */
  function identityUpdatePatch(row: BeneficiaryRow, body: UpdateBeneficiaryBody): BeneficiaryPatch {
    const patch = identityPatch(body);
    if (
      body.name === undefined &&
      (body.first_name !== undefined || body.last_name !== undefined || body.business_name !== undefined)
    ) {
      const derived = legalName(row.beneficiaryType, {
        first: body.first_name !== undefined ? body.first_name : row.firstName,
        last: body.last_name !== undefined ? body.last_name : row.lastName,
        business: body.business_name !== undefined ? body.business_name : row.businessName,
      });
      if (derived !== null) patch.name = derived;
    }
    if (row.acknowledgedAt !== null && changesTriggerField(row, patch, body)) patch.reacknowledgmentRequired = true;
    return patch;
  }

  /**
   * The one way to set, change or clear a Beneficiary's declared destination, whoever does it: the Business
   * (the declared-destination route, deleting the declared destination) or a collection link's submission
   * (which the Business may have submitted itself). In the caller's transaction, on a row it has locked: it
   * writes the new value with who changed it, appends the change to the history, and queues the notice e-mail
   * to the Beneficiary, so the payee hears of every change. Returns false when `destination` is already the
   * declared one (nothing changes, nothing is sent).
   */
  async function changeDeclaredDestination(
    tx: Tx,
    tenant: Tenant,
    beneficiary: BeneficiaryRow,
    change: DeclaredDestinationChange,
  ): Promise<boolean> {
    const next = change.destination?.id ?? null;
    if (beneficiary.declaredDestinationId === next) return false;
    const now = clock.now();
    const id = ids.newId();
    const by = change.by;
    const record: DeclaredDestinationChangeValue = {
      changed_at: now.toISOString(),
      changed_by: by.kind,
      reason: change.reason,
      previous_destination_id: beneficiary.declaredDestinationId,
      destination_id: next,
      api_key_id: by.kind === "business" ? by.actor.apiKeyId : null,
      membership_id: by.kind === "business" ? by.actor.membershipId : null,
      user_id: by.kind === "business" ? by.actor.userId : null,
      collection_request_id: by.kind === "beneficiary_link" ? by.collectionRequestId : null,
    };
    await updateBeneficiary(tx, tenant, beneficiary.id, {
      declaredDestinationId: next,
      declaredDestinationChange: record,
      updatedAt: now,
    });
    await insertDeclaredDestinationChange(tx, {
      id,
      businessId: tenant.businessId,
      environment: tenant.environment,
      beneficiaryId: beneficiary.id,
      previousDestinationId: record.previous_destination_id,
      destinationId: next,
      changedBy: record.changed_by,
      reason: record.reason,
      apiKeyId: record.api_key_id,
      membershipId: record.membership_id,
      userId: record.user_id,
      collectionRequestId: record.collection_request_id,
      createdAt: now,
    });
    await mailDeclaredDestinationNotice(tx, tenant, beneficiary, change, id);
    // Where this Beneficiary's payouts go changed: the audit log names who did it (a person or key of the
    // Business, or nobody when the payee submitted a collection link) and the masked destination only.
    await deps.recordAudit(tx, by.kind === "business" ? by.actor : noActor(tenant), {
      action: "declared_destination_changed",
      subjectType: "beneficiary",
      subjectId: beneficiary.id,
      details: {
        change_id: id,
        changed_by: by.kind,
        reason: change.reason,
        previous_destination_id: record.previous_destination_id,
        destination_id: next,
        destination_last4: change.destination?.last4 ?? null,
        collection_request_id: record.collection_request_id,
      },
    });
    return true;
  }

  /** Tells the Beneficiary where their payouts now go (masked), or that no account is declared any more. */
  async function mailDeclaredDestinationNotice(
    tx: Tx,
    tenant: Tenant,
    beneficiary: BeneficiaryRow,
    change: DeclaredDestinationChange,
    changeId: string,
  ) {
    const businessName = (await findBusinessName(tx, tenant.businessId)) ?? "Your payer";
    const destination = change.destination;
    const where =
      destination === null
        ? ""
        : `the ${destination.kind === "card" ? "card" : "account"}${endingIn(destination.last4)} (${currencyWords(destination.currency)} ${destination.kind === "card" ? "card" : "account"} in ${countryWords(destination.country)})`;
    const paragraphs =
      destination === null
        ? [
            `${businessName} removed the account your payouts were sent to.`,
            "Until a new one is chosen, payouts that name no account cannot be sent to you. If you did not expect this, contact them.",
          ]
        : change.by.kind === "business"
          ? [
              `${businessName} changed where your payouts are sent.`,
              `From now on they go to ${where}.`,
              "If you did not expect this change, contact them before your next payout.",
            ]
          : [
              `The account your payouts from ${businessName} are sent to was changed on the secure form ${businessName} sent you.`,
              `From now on they go to ${where}.`,
              `If you did not make this change yourself, contact ${businessName} before your next payout.`,
            ];
    const mail = renderEmail({
      businessName,
      heading: destination === null ? "Your payout account was removed" : "Your payout account changed",
      paragraphs,
      footer: `You receive this because ${businessName} pays you through this service. Every change of where your payouts go is announced this way.`,
    });
    // Spec: the service e-mails the Beneficiary about this change. Owed, so never refused: over the
    // Business's daily limit it is sent later, when the window frees (and captured in sandbox like all mail).
    await deps.mail.sendForBusiness(tx, tenant, {
      kind: destination === null ? "declared_destination_removed" : "declared_destination_changed",
      to: beneficiary.email,
      subject:
        destination === null
          ? `${businessName}: your payout account was removed`
          : `${businessName}: your payout account changed`,
      text: mail.text,
      html: mail.html,
      idempotencyKey: `declared-destination-change:${changeId}`,
      overLimit: "defer",
    });
  }

  /** For the import and the collection pages: screening of the Beneficiaries they created or changed, in their transaction. */
  async function screenChanged(tx: Tx, tenant: Tenant, ids: readonly string[], by: MakerIdentity | null): Promise<void> {
    if (deps.screenInTransaction !== undefined) await deps.screenInTransaction(tx, tenant, ids, by);
  }

  return {
    create,
    get,
    list,
    screenChanged,
    update,
    acknowledge,
    archive,
    unarchive,
    changeDeclaredDestination,
    present,
    prepareBeneficiary,
    identityProblems,
    identityUpdatePatch,
    identityRequirements,
  };
}

const checkIdentityShape = compileDetailsValidator(UpdateBeneficiaryBodySchema, [PostalAddressSchema]);

/** W-8 forms stay valid until the end of the third calendar year after signing; a W-9 does not expire. */
function presentTaxDocument(summary: TaxDocumentSummaryValue, now: Date): TaxDocumentBody {
  const expiresAt =
    summary.form === "W-9" ? null : new Date(Date.UTC(Number(summary.signed_on.slice(0, 4)) + 4, 0, 1)).toISOString();
  return {
    form: summary.form,
    status: expiresAt !== null && now.toISOString() >= expiresAt ? "expired" : "submitted",
    submitted_at: summary.submitted_at,
    expires_at: expiresAt,
    name: summary.name,
    tin_type: summary.tin_type,
    tin: summary.tin_last4 === null ? null : `•••••${summary.tin_last4}`,
    country: summary.country,
    treaty_country: summary.treaty_country,
    signed_by: summary.signed_by,
    signed_on: summary.signed_on,
  };
}

function normalizeTaxId(value: string | null): string | null {
  return value === null ? null : value.replace(/\s+/g, "").toUpperCase();
}

function normalizeAddress(address: PostalAddressBody): PostalAddressBody {
  return Object.fromEntries(
    Object.entries(address).map(([key, value]) => [key, typeof value === "string" ? value.trim() : value]),
  ) as PostalAddressBody;
}

/**
 * Re-masks up to `limit` Beneficiaries whose tax id or tax form TIN was masked under an older rule, from the
 * decrypted values, in the caller's transaction. `readTaxFormTin` gives the full TIN of the tax form the
 * summary describes (the collection module keeps the encrypted forms). Returns how many rows it visited.
 */
export async function remaskStoredBeneficiaries(
  tx: Tx,
  cipher: Pick<FieldCipher, "decrypt">,
  limit: number,
  readTaxFormTin: (tx: Tx, beneficiaryId: string, submittedAt: string) => Promise<string | null>,
): Promise<number> {
  const rows = await lockBeneficiariesToRemask(tx, MASK_VERSION, limit);
  const saved: Array<Pick<BeneficiaryRow, "id" | "taxIdLast4" | "taxDocument">> = [];
  for (const row of rows) {
    const taxIdLast4 = row.taxIdEncrypted === null ? null : maskTrailing(cipher.decrypt(row.taxIdEncrypted));
    let taxDocument = row.taxDocument;
    if (taxDocument !== null && taxDocument.tin_last4 !== null) {
      const tin = await readTaxFormTin(tx, row.id, taxDocument.submitted_at);
      // No readable form behind the summary: show nothing of the TIN rather than a value we cannot check.
      taxDocument = { ...taxDocument, tin_last4: tin === null ? null : maskTrailing(tin) };
    }
    saved.push({ id: row.id, taxIdLast4, taxDocument });
  }
  await saveRemaskedBeneficiaries(tx, MASK_VERSION, saved);
  return rows.length;
}

/** Whether Beneficiaries masked under an older rule remain. */
export async function beneficiariesLeftToRemask(db: Db): Promise<boolean> {
  return anyBeneficiaryToRemask(db, MASK_VERSION);
}
