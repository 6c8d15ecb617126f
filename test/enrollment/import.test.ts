// Imported Beneficiaries acknowledged in the file are enrolled by the worker after the import commits (one
// durable job per import), never inside the import's request.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BENEFICIARY_ENROLL_JOB } from "../../src/modules/enrollment/index.js";
import { transaction } from "../../src/platform/db/client.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import { type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import {
  CLOSED_ACCOUNT,
  CLOSED_REFUSAL,
  call,
  email,
  enrollmentEvents,
  GOOD_ACCOUNT,
  listAccounts,
  PERSON_REFUSAL,
  readBeneficiary,
} from "./fixtures.js";

let t: TestApp;
let biz: RegisteredBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  biz = await registerBusiness(t.app, "Import enrollment");
});
afterAll(async () => t?.close());

const row = (fields: Record<string, unknown>) => ({
  first_name: "Ana",
  last_name: "Lima",
  country_of_residence: "US",
  email: email(),
  ...fields,
});
const enrollJobs = () => t.runtime.deps.database.db.select().from(jobs).where(eq(jobs.type, BENEFICIARY_ENROLL_JOB.type));

describe("import and enrollment", () => {
  it("queues one job for the acknowledged rows; the worker enrolls them with the production simulator", async () => {
    const key = biz.keys.production;
    const jobsBefore = (await enrollJobs()).length;
    const response = await call(t.app, key, "POST", "/v1/beneficiaries/import", {
      rows: [
        row({ bank: GOOD_ACCOUNT, acknowledged: true }),
        row({ email: email("+refuse_enrollment"), bank: GOOD_ACCOUNT, acknowledged: true }),
        row({ bank: CLOSED_ACCOUNT, acknowledged: true }),
        row({ bank: CLOSED_ACCOUNT }),
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const ids = (response.json() as { results: Array<{ beneficiary_id: string; status: string }> }).results.map((r) => {
      expect(r.status).toBe("created");
      return r.beneficiary_id;
    });
    const [good, person, account, unacknowledged] = ids as [string, string, string, string];

    // Nothing enrolled during the request itself.
    for (const id of ids) expect((await readBeneficiary(t.app, key, id)).enrollment_status).toBeNull();
    const queued = (await enrollJobs()).slice(jobsBefore);
    expect(queued).toHaveLength(1);
    expect((queued[0]!.payload as { beneficiaryIds: string[] }).beneficiaryIds.sort()).toEqual([good, person, account].sort());

    await t.runtime.createWorker("import-enroll").drain();
    expect(await readBeneficiary(t.app, key, good)).toMatchObject({ enrollment_status: "verified", status: "ready" });
    expect(await readBeneficiary(t.app, key, person)).toMatchObject({
      enrollment_status: "rejected",
      enrollment_failure_detail: PERSON_REFUSAL,
      enrollment_failure_bank_account_id: null,
    });
    const [closed] = await listAccounts(t.app, key, account);
    expect(await readBeneficiary(t.app, key, account)).toMatchObject({
      enrollment_status: "rejected",
      enrollment_failure_detail: CLOSED_REFUSAL,
      enrollment_failure_bank_account_id: closed?.id,
    });
    expect(closed).toMatchObject({ status: "rejected", rail_rejection_reason: CLOSED_REFUSAL });
    expect((await readBeneficiary(t.app, key, unacknowledged)).enrollment_status).toBeNull();
    expect((await listAccounts(t.app, key, unacknowledged))[0]).toMatchObject({ status: "unverified" });
    expect(await enrollmentEvents(t, person)).toHaveLength(1);

    // The job running again (a worker died before recording its completion) enrolls nobody twice.
    await transaction(t.runtime.deps.database.db, async (tx) => {
      await t.runtime.deps.jobStore.enqueue(tx, BENEFICIARY_ENROLL_JOB, BENEFICIARY_ENROLL_JOB.decode(queued[0]?.payload));
    });
    await t.runtime.createWorker("import-enroll-again").drain();
    expect(await enrollmentEvents(t, person)).toHaveLength(1);
    expect(await enrollmentEvents(t, account)).toHaveLength(1);
  });

  it("an import with no acknowledged row queues nothing", async () => {
    const before = (await enrollJobs()).length;
    const response = await call(t.app, biz.keys.sandbox, "POST", "/v1/beneficiaries/import", {
      rows: [row({ bank: GOOD_ACCOUNT })],
    });
    expect(response.statusCode).toBe(200);
    expect((await enrollJobs()).length).toBe(before);
  });
});
