// A second person in a Business, made directly in the database (quicker than an invitation, see
// test/helpers/sessions.ts addMember): maker-checker tests need two people (and two keys of one person).

import { createApiKeyService } from "../../src/modules/api-keys/api-keys.service.js";
import { memberships, users } from "../../src/modules/registration/registration.schema.js";
import { noAudit } from "../../src/platform/auth/audit.js";
import { transaction } from "../../src/platform/db/client.js";
import { uuidV7Generator } from "../../src/platform/ids.js";
import type { TestApp } from "./test-app.js";

export interface TeamMember {
  readonly userId: string;
  readonly membershipId: string;
  /** An admin key of this person in each environment. */
  readonly keys: { readonly sandbox: string; readonly production: string };
}

let members = 0;

export async function addTeamMember(t: TestApp, businessId: string): Promise<TeamMember> {
  members += 1;
  const db = t.runtime.deps.database.db;
  const ids = uuidV7Generator;
  const apiKeys = createApiKeyService({ db, clock: t.clock, ids, recordAudit: noAudit });
  const userId = ids.newId();
  const membershipId = ids.newId();
  const now = t.clock.now();
  return transaction(db, async (tx) => {
    await tx.insert(users).values({
      id: userId,
      email: `member-${process.pid}-${members}-${userId}@example.com`,
      passwordHash: "not-used",
      createdAt: now,
    });
    await tx.insert(memberships).values({ id: membershipId, businessId, userId, role: "business_admin", createdAt: now });
    const issue = (environment: "sandbox" | "production") =>
      apiKeys.issueApiKey(tx, { businessId, environment, membershipId, role: "business_admin", label: "Team member" });
    const sandbox = await issue("sandbox");
    const production = await issue("production");
    return { userId, membershipId, keys: { sandbox: sandbox.key, production: production.key } };
  });
}
