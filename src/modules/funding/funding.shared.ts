// Reads the funding module offers other modules, in their handle or transaction.
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { findFundingAccountRow, findRailFundingAccountRow } from "./funding.repo.js";
import type { FundingAccountRow } from "./funding.schema.js";

export type { FundingAccountRow } from "./funding.schema.js";

/** The tenant's funding account, or null (another tenant's is indistinguishable from a missing one). */
export type FindFundingAccount = (db: Db, tenant: Tenant, id: string) => Promise<FundingAccountRow | null>;

export const findFundingAccount: FindFundingAccount = (db, tenant, id) => findFundingAccountRow(db, tenant, id);

/** The funding account of the tenant's bank rail in a currency (issue 28: a statement's account), or null. */
export type FindRailFundingAccount = (
  db: Db,
  tenant: Tenant,
  rail: "sepa" | "ach",
  currency: string,
) => Promise<FundingAccountRow | null>;

export const findRailFundingAccount: FindRailFundingAccount = (db, tenant, rail, currency) =>
  findRailFundingAccountRow(db, tenant, rail, currency);
