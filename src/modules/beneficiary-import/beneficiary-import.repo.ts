// Set-based queries of the import: one lookup for every e-mail of a file, and multi-row inserts, so a file
// of 500 rows costs a handful of statements instead of thousands.
//
// The inserts send all rows as ONE JSON parameter expanded by `json_populate_recordset` instead of Drizzle's
// `values([...])`. Measured on PostgreSQL 15 with 500 Beneficiaries: Drizzle spent 40-150 ms building the
// statement's ~10,000 parameters before PostgreSQL saw it, and the server 25-45 ms binding them; the JSON
// form costs 20-35 ms in all. Column names and defaults still come from the Drizzle table, so the query
// cannot drift from the schema.
import { and, eq, getTableColumns, inArray, is, isNull, SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Tenant } from "../../platform/auth/actor.js";
import { type Db, queryRows } from "../../platform/db/client.js";
import { beneficiaries, destinations } from "../../platform/db/schema.js";

export type NewBeneficiaryRow = typeof beneficiaries.$inferInsert;
export type NewDestinationRow = typeof destinations.$inferInsert;

export interface ActiveEmailMatch {
  readonly beneficiaryId: string;
  readonly emailNormalized: string;
  /** A live destination of that Beneficiary whose fingerprint is one of those asked about; null when none. */
  readonly destination: {
    readonly id: string;
    readonly fingerprint: string;
    readonly validationStatus: "validated" | "unvalidated";
    readonly status: "unverified" | "verified" | "rejected";
  } | null;
}

/**
 * The tenant's active Beneficiaries holding any of `emails` (normalised), each joined with its live
 * destinations among `fingerprints`: one row per (Beneficiary, matching destination), or one row with a
 * null destination. One query, served by the tenant e-mail and destination fingerprint indexes.
 */
export async function findActiveByEmails(
  db: Db,
  tenant: Tenant,
  emails: readonly string[],
  fingerprints: readonly string[],
): Promise<ActiveEmailMatch[]> {
  if (emails.length === 0) return [];
  const rows = await db
    .select({
      beneficiaryId: beneficiaries.id,
      emailNormalized: beneficiaries.emailNormalized,
      destinationId: destinations.id,
      fingerprint: destinations.fingerprint,
      validationStatus: destinations.validationStatus,
      status: destinations.status,
    })
    .from(beneficiaries)
    .leftJoin(
      destinations,
      and(
        eq(destinations.beneficiaryId, beneficiaries.id),
        isNull(destinations.deletedAt),
        fingerprints.length === 0 ? sql`false` : inArray(destinations.fingerprint, [...fingerprints]),
      ),
    )
    .where(
      and(
        eq(beneficiaries.businessId, tenant.businessId),
        eq(beneficiaries.environment, tenant.environment),
        isNull(beneficiaries.archivedAt),
        inArray(beneficiaries.emailNormalized, [...emails]),
      ),
    );
  return rows.map((row) => ({
    beneficiaryId: row.beneficiaryId,
    emailNormalized: row.emailNormalized,
    destination:
      row.destinationId === null || row.fingerprint === null || row.validationStatus === null || row.status === null
        ? null
        : { id: row.destinationId, fingerprint: row.fingerprint, validationStatus: row.validationStatus, status: row.status },
  }));
}

/**
 * `insert into <table> (<columns>) select <columns> from json_populate_recordset(null::<table>, $1)` for
 * `rows` given by their Drizzle property names. A column some rows leave undefined gets its static Drizzle
 * default (or null), as a Drizzle insert would; columns no row sets are left to the database's defaults.
 */
function insertFromJson<Table extends PgTable>(table: Table, rows: readonly Table["$inferInsert"][]): SQL {
  const columns = getTableColumns(table);
  const keys = Object.keys(columns).filter((key) => rows.some((row) => (row as Record<string, unknown>)[key] !== undefined));
  const fill = keys.map((key) => {
    const column = columns[key];
    if (column === undefined) throw new Error(`no column ${key}`);
    const fallback = column.defaultFn ?? (is(column.default, SQL) ? undefined : () => column.default ?? null);
    return { key, name: column.name, fallback };
  });
  const records = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const { key, name, fallback } of fill) {
      let value = (row as Record<string, unknown>)[key];
      if (value === undefined) {
        if (fallback === undefined) throw new Error(`${key} has an SQL default: set it on every row or on none`);
        value = fallback();
      }
      record[name] = value;
    }
    return record;
  });
  const list = sql.join(
    fill.map((f) => sql.identifier(f.name)),
    sql`, `,
  );
  // Dates serialise as ISO 8601 and jsonb columns as nested JSON; PostgreSQL's input functions parse both.
  return sql`insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, ${JSON.stringify(records)}::json)`;
}

/**
 * Inserts the Beneficiaries in one statement, in the order given. A row whose e-mail an active Beneficiary
 * of the tenant already holds is skipped, not an error (the partial unique index
 * `beneficiaries_tenant_email_key` decides, also against a concurrent import); returns the ids inserted.
 */
/** The columns of `beneficiaries_tenant_email_key` (partial: archived_at is null). */
const emailKeyColumns = sql.join(
  [beneficiaries.businessId, beneficiaries.environment, beneficiaries.emailNormalized].map((c) => sql.identifier(c.name)),
  sql`, `,
);

export async function insertBeneficiariesSkippingTakenEmails(db: Db, rows: readonly NewBeneficiaryRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await queryRows<{ id: string }>(
    db,
    sql`${insertFromJson(beneficiaries, rows)}
      on conflict (${emailKeyColumns}) where ${sql.identifier(beneficiaries.archivedAt.name)} is null do nothing
      returning ${sql.identifier(beneficiaries.id.name)} as id`,
  );
  return inserted.map((row) => row.id);
}

export async function insertDestinations(db: Db, rows: readonly NewDestinationRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(insertFromJson(destinations, rows));
}
