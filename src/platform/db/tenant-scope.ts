// The tenant filter every repository uses: a row belongs to one Business in one environment, and a query of
// a tenant's rows says so through here, so the rule is written once (and a table without the two columns
// fails to compile rather than being filtered by hand).
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Tenant } from "../auth/actor.js";

/** A table whose rows belong to one Business in one environment. */
export interface TenantOwnedTable {
  readonly businessId: AnyPgColumn;
  readonly environment: AnyPgColumn;
}

/** `business_id = tenant's AND environment = tenant's`: the row is the tenant's. */
export function ownedBy(table: TenantOwnedTable, tenant: Tenant): SQL {
  return and(eq(table.businessId, tenant.businessId), eq(table.environment, tenant.environment)) as SQL;
}

/**
 * The same filter for a prepared statement: the tenant is bound at execution, as the placeholders
 * `businessId` and `environment`.
 */
export function ownedByPlaceholders(table: TenantOwnedTable): SQL {
  return and(eq(table.businessId, sql.placeholder("businessId")), eq(table.environment, sql.placeholder("environment"))) as SQL;
}
