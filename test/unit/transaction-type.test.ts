// The transaction type is checked by the compiler (`npm run typecheck` compiles this file): a function that must
// run inside a transaction takes a `Tx`, which only transaction(db, fn) makes, so handing it the outer handle does
// not compile (on PGlite, which has one connection, that query would wait for the open transaction forever).
// Each `@ts-expect-error` fails the typecheck if the refusal it documents goes away.
import { describe, expect, it } from "vitest";
import { lockBeneficiary } from "../../src/modules/beneficiaries/beneficiaries.shared.js";
import type { Db, Tx } from "../../src/platform/db/client.js";

const tenant = { businessId: "00000000-0000-4000-8000-000000000000", environment: "sandbox" } as const;

describe("the transaction type", () => {
  it("refuses the outer handle where a transaction is needed, and accepts a transaction where a handle is", () => {
    const outer = null as unknown as Db;
    const inner = null as unknown as Tx;
    // @ts-expect-error the outer handle is not a transaction
    const wrong = () => lockBeneficiary(outer, tenant, "id");
    const right = () => lockBeneficiary(inner, tenant, "id");
    const asHandle: Db = inner;
    expect([typeof wrong, typeof right, asHandle]).toEqual(["function", "function", null]);
  });

  it("offers no transaction method on a handle: transactions are opened by transaction(db, fn) only", () => {
    const outer = null as unknown as Db;
    // @ts-expect-error Db has no transaction(): a Tx comes only from transaction(db, fn)
    const open = () => outer.transaction(async () => {});
    expect(typeof open).toBe("function");
  });
});
