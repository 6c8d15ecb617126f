// The list filter `status=` runs the SQL twin of the derivation; here both run over every combination of
// inputs, so the filter always returns exactly the Beneficiaries that read with that status.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { beneficiaries } from "../../src/modules/beneficiaries/beneficiaries.schema.js";
import { destinations } from "../../src/modules/destinations/destinations.schema.js";
import { uuidV7Generator } from "../../src/platform/ids.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

describe("status filter agrees with the derived status", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it("over every combination of inputs", async () => {
    const biz = await registerBusiness(t.app);
    const db = t.runtime.deps.database.db;
    const now = t.clock.now();
    let i = 0;
    for (const type of ["person", "business"] as const)
      for (const compliance of ["pending", "compliant", "suspended"] as const)
        for (const reack of [false, true])
          for (const complete of [false, true])
            for (const usable of ["none", "validated", "unvalidated", "unvalidated_verified", "rejected"] as const)
              for (const enrollment of [null, "verified", "rejected"] as const) {
                i += 1;
                const id = uuidV7Generator.newId();
                await db.insert(beneficiaries).values({
                  id,
                  businessId: biz.businessId,
                  environment: "sandbox",
                  beneficiaryType: type,
                  name: `B${i}`,
                  email: `b${i}@example.com`,
                  emailNormalized: `b${i}@example.com`,
                  ...(complete
                    ? type === "person"
                      ? { firstName: "F", lastName: "L", countryOfResidence: "DE" }
                      : { businessName: "Co", countryOfIncorporation: "DE" }
                    : {}),
                  complianceStatus: compliance,
                  reacknowledgmentRequired: reack,
                  enrollmentStatus: enrollment,
                  createdAt: now,
                  updatedAt: now,
                });
                if (usable !== "none") {
                  await db.insert(destinations).values({
                    id: uuidV7Generator.newId(),
                    businessId: biz.businessId,
                    environment: "sandbox",
                    beneficiaryId: id,
                    kind: "bank_account",
                    scheme: "iban",
                    accountHolderName: "Holder",
                    country: "DE",
                    currency: "EUR",
                    accountType: "checking",
                    sensitiveEncrypted: "x",
                    fingerprint: `fp${i}`,
                    last4: "3000",
                    validationStatus: usable.startsWith("unvalidated") ? "unvalidated" : "validated",
                    status: usable === "rejected" ? "rejected" : usable === "unvalidated_verified" ? "verified" : "unverified",
                    createdAt: now,
                    updatedAt: now,
                  });
                }
              }

    const all: Array<{ id: string; status: string }> = [];
    let cursor: string | null = null;
    do {
      const res = await t.app.inject({
        url: `/v1/beneficiaries?limit=200${cursor ? `&cursor=${cursor}` : ""}`,
        headers: bearer(biz.keys.sandbox),
      });
      const page = res.json() as { beneficiaries: Array<{ id: string; status: string }>; next_cursor: string | null };
      all.push(...page.beneficiaries);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(all).toHaveLength(i);

    const statuses = ["suspended", "reacknowledgment_required", "pending_details", "pending_kyc", "action_required", "ready"];
    for (const status of statuses) {
      const res = await t.app.inject({ url: `/v1/beneficiaries?limit=200&status=${status}`, headers: bearer(biz.keys.sandbox) });
      const filtered = (res.json() as { beneficiaries: Array<{ id: string }> }).beneficiaries.map((b) => b.id).sort();
      const derived = all
        .filter((b) => b.status === status)
        .map((b) => b.id)
        .sort();
      expect(filtered, status).toEqual(derived);
      expect(derived.length, `${status} occurs`).toBeGreaterThan(0);
    }
  });
});
