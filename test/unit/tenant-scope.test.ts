// The tenant filter every repository uses (src/platform/db/tenant-scope.ts): the SQL it writes, and, checked by
// the compiler (`npm run typecheck` compiles this file), that a table without business_id and environment is
// refused. The `@ts-expect-error` fails the typecheck if that refusal goes away.
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { payouts } from "../../src/modules/payouts/payouts.schema.js";
import { users } from "../../src/modules/registration/registration.schema.js";
import { ownedBy, ownedByPlaceholders } from "../../src/platform/db/tenant-scope.js";

const tenant = { businessId: "00000000-0000-4000-8000-000000000000", environment: "production" } as const;

describe("the tenant filter", () => {
  it("is business_id and environment of the tenant, bound as parameters or as named placeholders", () => {
    const dialect = new PgDialect();
    expect(dialect.sqlToQuery(ownedBy(payouts, tenant))).toMatchObject({
      sql: '("payouts"."business_id" = $1 and "payouts"."environment" = $2)',
      params: [tenant.businessId, tenant.environment],
    });
    expect(dialect.sqlToQuery(ownedByPlaceholders(payouts)).sql).toBe(
      '("payouts"."business_id" = $1 and "payouts"."environment" = $2)',
    );
  });

  it("does not compile for a table that no tenant owns", () => {
    // @ts-expect-error users have no business_id and environment: a user is not a tenant's row
    const wrong = () => ownedBy(users, tenant);
    expect(typeof wrong).toBe("function");
  });
});
