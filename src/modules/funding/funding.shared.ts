// Reads the funding module offers other modules, in their handle or transaction.
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { findFundingAccountRow } from "./funding.repo.js";
import type { FundingAccountRow } from "./funding.schema.js";

export type { FundingAccountRow } from "./funding.schema.js";

/** The tenant's funding account, or null (another tenant's is indistinguishable from a missing one). */
export type FindFundingAccount = (db: Db, tenant: Tenant, id: string) => Promise<FundingAccountRow | null>;

export const findFundingAccount: FindFundingAccount = (db, tenant, id) => findFundingAccountRow(db, tenant, id);
