// Drizzle queries for Beneficiaries. Every read is scoped by (business, environment). Reads also return the
// count of payout-usable destinations, which the derived `status` needs.
import { and, desc, eq, getTableColumns, gte, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import { type Db, preparedQuery, type Tx } from "../../platform/db/client.js";
import { ownedBy, ownedByPlaceholders } from "../../platform/db/tenant-scope.js";
import { openCollectionRequestJoin } from "../collection/collection.shared.js";
import { countPayoutUsableDestinations, payoutUsableDestinationCount } from "../destinations/destinations.shared.js";
import { beneficiaries, beneficiaryDeclaredDestinationChanges } from "./beneficiaries.schema.js";
import type { BeneficiaryStatus, IdentityRequirements } from "./beneficiaries.state.js";

export type BeneficiaryRow = typeof beneficiaries.$inferSelect;
export type NewBeneficiaryRow = typeof beneficiaries.$inferInsert;
export type BeneficiaryPatch = Partial<Omit<NewBeneficiaryRow, "id" | "businessId" | "environment" | "createdAt">>;

/** A collection request not yet consumed, cancelled or superseded (it may have expired: present() checks with the clock). */
export interface OpenCollectionRequest {
  readonly id: string;
  readonly scope: "full_onboarding" | "payout_destination" | "tax_documents";
  readonly expiresAt: Date;
}

export interface BeneficiaryWithCounts {
  readonly row: BeneficiaryRow;
  readonly payoutUsableDestinations: number;
  /** Open collection requests (0 or 1); absent means none (a Beneficiary just created or imported). */
  readonly openRequests?: readonly OpenCollectionRequest[];
}

/** Payout-usable destinations of the Beneficiary of the current row (read of one, and the status filter). */
export const usableDestinationCount = payoutUsableDestinationCount(sql.raw(`"beneficiaries"."id"`));

const COLUMN_OF_FIELD: Readonly<Record<string, SQL>> = {
  first_name: sql`${beneficiaries.firstName}`,
  last_name: sql`${beneficiaries.lastName}`,
  country_of_residence: sql`${beneficiaries.countryOfResidence}`,
  date_of_birth: sql`${beneficiaries.dateOfBirth}`,
  business_name: sql`${beneficiaries.businessName}`,
  country_of_incorporation: sql`${beneficiaries.countryOfIncorporation}`,
  registration_number: sql`${beneficiaries.registrationNumber}`,
  tax_id: sql`${beneficiaries.taxIdEncrypted}`,
  postal_address: sql`${beneficiaries.postalAddress}`,
  phone: sql`${beneficiaries.phone}`,
};

function allPresent(fields: readonly string[]): SQL {
  if (fields.length === 0) return sql`true`;
  return sql.join(
    fields.map((field) => {
      const column = COLUMN_OF_FIELD[field];
      if (column === undefined) throw new Error(`no column for identity field ${field}`);
      return sql`(${column} is not null)`;
    }),
    sql` and `,
  );
}

/**
 * The SQL twin of deriveBeneficiaryStatus (beneficiaries.state.ts), used only to filter lists by status.
 * A test runs both over every combination of inputs, so they cannot drift apart.
 */
export function statusExpression(requirements: IdentityRequirements): SQL<BeneficiaryStatus> {
  const identityComplete = sql`(case when ${beneficiaries.beneficiaryType} = 'person'
    then ${allPresent(requirements.person)} else ${allPresent(requirements.business)} end)`;
  return sql<BeneficiaryStatus>`(case
    when ${beneficiaries.complianceStatus} = 'suspended' then 'suspended'
    when ${beneficiaries.reacknowledgmentRequired} then 'reacknowledgment_required'
    when not ${identityComplete} then 'pending_details'
    when ${beneficiaries.complianceStatus} = 'pending' then 'pending_kyc'
    when ${usableDestinationCount} = 0 or ${beneficiaries.enrollmentStatus} is not distinct from 'rejected' then 'action_required'
    else 'ready' end)`;
}

const oneOfTenant = (tenant: Tenant, id: string) => and(eq(beneficiaries.id, id), ownedBy(beneficiaries, tenant));

export async function insertBeneficiary(tx: Tx, row: NewBeneficiaryRow): Promise<BeneficiaryRow> {
  const [inserted] = await tx.insert(beneficiaries).values(row).returning();
  if (inserted === undefined) throw new Error("insert returned no row");
  return inserted;
}

export async function findBeneficiary(db: Db, tenant: Tenant, id: string): Promise<BeneficiaryWithCounts | null> {
  const [found] = await db
    .select({ ...withOpenRequestColumns, payoutUsableDestinations: usableDestinationCount })
    .from(beneficiaries)
    .leftJoin(openRequest.table, openRequest.on)
    .where(oneOfTenant(tenant, id))
    .limit(1);
  if (found === undefined) return null;
  return withCounts(found, found.payoutUsableDestinations);
}

/**
 * The Beneficiary's open collection request (not consumed, cancelled or superseded), joined to its row: the
 * partial unique index `collection_requests_one_open_key` guarantees at most one, so the join never repeats a
 * Beneficiary, and a list page reads its requests in the page query itself (no query per row, no extra round
 * trip). The request's columns are selected flat beside the row's (Drizzle maps a nested selection of a
 * joined table several times slower: +0.4 ms of CPU per 100-row page, measured). Whether the request is
 * still live (not expired) is decided at presentation time with the injected clock.
 */
const openRequest = openCollectionRequestJoin(beneficiaries.id);
const withOpenRequestColumns = { ...getTableColumns(beneficiaries), ...openRequest.columns };
type RowWithOpenRequest = BeneficiaryRow & {
  readonly openRequestId: string | null;
  readonly openRequestScope: OpenCollectionRequest["scope"] | null;
  readonly openRequestExpiresAt: Date | null;
};

function withCounts(row: RowWithOpenRequest, payoutUsableDestinations: number): BeneficiaryWithCounts {
  const { openRequestId, openRequestScope, openRequestExpiresAt } = row;
  return {
    row,
    payoutUsableDestinations,
    openRequests:
      openRequestId === null || openRequestScope === null || openRequestExpiresAt === null
        ? []
        : [{ id: openRequestId, scope: openRequestScope, expiresAt: openRequestExpiresAt }],
  };
}

/** Locks the row for the rest of the transaction (concurrent updates of one Beneficiary take turns). */
export async function lockBeneficiary(tx: Tx, tenant: Tenant, id: string): Promise<BeneficiaryRow | null> {
  const [row] = await tx.select().from(beneficiaries).where(oneOfTenant(tenant, id)).for("update").limit(1);
  return row ?? null;
}

export async function updateBeneficiary(tx: Tx, tenant: Tenant, id: string, patch: BeneficiaryPatch): Promise<void> {
  await tx.update(beneficiaries).set(patch).where(oneOfTenant(tenant, id));
}

export type NewDeclaredDestinationChangeRow = typeof beneficiaryDeclaredDestinationChanges.$inferInsert;

/** Appends one change to the declared-destination history (never updated or deleted). */
export async function insertDeclaredDestinationChange(tx: Tx, row: NewDeclaredDestinationChangeRow): Promise<void> {
  await tx.insert(beneficiaryDeclaredDestinationChanges).values(row);
}

export interface BeneficiaryFilters {
  readonly status?: BeneficiaryStatus;
  readonly complianceStatus?: "pending" | "compliant" | "suspended";
  readonly beneficiaryType?: "person" | "business";
  readonly emailNormalized?: string;
  readonly createdFrom?: Date;
  readonly createdTo?: Date;
}

/**
 * Newest first, archived omitted. The usable-destination counts of the page come from one grouped query
 * over the page's ids (an index lookup), not from a correlated subquery per row.
 */
export async function listBeneficiaries(
  db: Db,
  tenant: Tenant,
  filters: BeneficiaryFilters,
  requirements: IdentityRequirements,
  afterId: string | null,
  limit: number,
): Promise<BeneficiaryWithCounts[]> {
  const unfiltered = Object.values(filters).every((value) => value === undefined);
  const rows = unfiltered
    ? await listUnfiltered(db, tenant, afterId, limit)
    : await db
        .select(withOpenRequestColumns)
        .from(beneficiaries)
        .leftJoin(openRequest.table, openRequest.on)
        .where(
          and(
            ownedBy(beneficiaries, tenant),
            isNull(beneficiaries.archivedAt),
            afterId === null ? undefined : lt(beneficiaries.id, afterId),
            filters.complianceStatus === undefined ? undefined : eq(beneficiaries.complianceStatus, filters.complianceStatus),
            filters.beneficiaryType === undefined ? undefined : eq(beneficiaries.beneficiaryType, filters.beneficiaryType),
            filters.emailNormalized === undefined ? undefined : eq(beneficiaries.emailNormalized, filters.emailNormalized),
            filters.createdFrom === undefined ? undefined : gte(beneficiaries.createdAt, filters.createdFrom),
            filters.createdTo === undefined ? undefined : lt(beneficiaries.createdAt, filters.createdTo),
            filters.status === undefined ? undefined : sql`${statusExpression(requirements)} = ${filters.status}`,
          ),
        )
        .orderBy(desc(beneficiaries.id))
        .limit(limit);
  const counts = await countPayoutUsableDestinations(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => withCounts(row, counts.get(row.id) ?? 0));
}

/** The common page (no filters) as prepared statements: first page, and pages after a cursor. */
async function listUnfiltered(db: Db, tenant: Tenant, afterId: string | null, limit: number): Promise<RowWithOpenRequest[]> {
  const scope = () => and(ownedByPlaceholders(beneficiaries), isNull(beneficiaries.archivedAt));
  const values = { businessId: tenant.businessId, environment: tenant.environment, limit };
  if (afterId === null) {
    const first = preparedQuery(db, "beneficiaries_list_first_page", (d) =>
      d
        .select(withOpenRequestColumns)
        .from(beneficiaries)
        .leftJoin(openRequest.table, openRequest.on)
        .where(scope())
        .orderBy(desc(beneficiaries.id))
        .limit(sql.placeholder("limit")),
    );
    return first.execute(values);
  }
  const next = preparedQuery(db, "beneficiaries_list_after_cursor", (d) =>
    d
      .select(withOpenRequestColumns)
      .from(beneficiaries)
      .leftJoin(openRequest.table, openRequest.on)
      .where(and(scope(), lt(beneficiaries.id, sql.placeholder("afterId"))))
      .orderBy(desc(beneficiaries.id))
      .limit(sql.placeholder("limit")),
  );
  return next.execute({ ...values, afterId });
}

// Masking backfill ----------------------------------------------------------------------------------------

/**
 * Rows holding a masked value (tax id, tax form TIN) written under an older masking rule. The version is
 * written into the statement (a small integer constant) so the planner matches beneficiaries_mask_pending_idx.
 */
function maskedBefore(version: number): SQL {
  if (!Number.isInteger(version)) throw new Error("mask version must be an integer");
  return sql`${beneficiaries.maskVersion} < ${sql.raw(String(version))} and (${beneficiaries.taxIdEncrypted} is not null or ${beneficiaries.taxDocument} is not null)`;
}

export type RowToRemask = Pick<BeneficiaryRow, "id" | "taxIdEncrypted" | "taxIdLast4" | "taxDocument">;

/** Up to `limit` such rows, locked for the rest of the transaction; rows another transaction holds are skipped. */
export async function lockBeneficiariesToRemask(tx: Tx, version: number, limit: number): Promise<RowToRemask[]> {
  return tx
    .select({
      id: beneficiaries.id,
      taxIdEncrypted: beneficiaries.taxIdEncrypted,
      taxIdLast4: beneficiaries.taxIdLast4,
      taxDocument: beneficiaries.taxDocument,
    })
    .from(beneficiaries)
    .where(maskedBefore(version))
    .orderBy(beneficiaries.id)
    .limit(limit)
    .for("update", { skipLocked: true });
}

/** Stores re-masked values and the rule version they follow (updated_at is left alone: the data did not change). */
export async function saveRemaskedBeneficiaries(
  tx: Tx,
  version: number,
  rows: ReadonlyArray<Pick<BeneficiaryRow, "id" | "taxIdLast4" | "taxDocument">>,
): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((row) => ({ id: row.id, tax_id_last4: row.taxIdLast4, tax_document: row.taxDocument }));
  await tx.execute(sql`
    update beneficiaries b set tax_id_last4 = r.tax_id_last4, tax_document = r.tax_document, mask_version = ${sql.raw(String(version))}
    from json_to_recordset(${JSON.stringify(records)}::json) as r(id uuid, tax_id_last4 text, tax_document jsonb)
    where b.id = r.id`);
}

export async function anyBeneficiaryToRemask(db: Db, version: number): Promise<boolean> {
  const [row] = await db.select({ id: beneficiaries.id }).from(beneficiaries).where(maskedBefore(version)).limit(1);
  return row !== undefined;
}
