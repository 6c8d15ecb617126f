// Self-registration: one transaction creates the Business, its admin user and membership, and one
// sandbox and one production admin key.
import { ENVIRONMENTS } from "../../platform/auth/api-key-format.js";
import type { Clock } from "../../platform/clock.js";
import { hashPassword } from "../../platform/crypto.js";
import type { Db } from "../../platform/db/client.js";
import { isUniqueViolation } from "../../platform/db/errors.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { IssueApiKeyInput, IssuedApiKeyBody } from "../api-keys/index.js";
import { insertBusiness, insertMembership, insertUser, userEmailExists } from "./registration.repo.js";
import type { RegistrationBody, RegistrationResponse } from "./registration.schemas.js";

export interface RegistrationServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly issueApiKey: (tx: Db, input: IssueApiKeyInput) => Promise<IssuedApiKeyBody>;
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;

export function createRegistrationService(deps: RegistrationServiceDeps) {
  const { db, clock, ids, issueApiKey } = deps;

  async function register(body: RegistrationBody): Promise<RegistrationResponse> {
    const email = body.email.trim().toLowerCase();
    // Hashing costs ~100 ms of CPU by design; do it before opening the transaction.
    const passwordHash = await hashPassword(body.password);
    const now = clock.now();
    try {
      return await db.transaction(async (tx) => {
        if (await userEmailExists(tx, email)) throw new AppError("EMAIL_ALREADY_REGISTERED");
        const business = await insertBusiness(tx, { id: ids.newId(), name: body.business_name.trim(), createdAt: now });
        const user = await insertUser(tx, { id: ids.newId(), email, passwordHash, createdAt: now });
        const membership = await insertMembership(tx, {
          id: ids.newId(),
          businessId: business.id,
          userId: user.id,
          role: "business_admin",
          createdAt: now,
        });
        const apiKeys: IssuedApiKeyBody[] = [];
        for (const environment of ENVIRONMENTS) {
          apiKeys.push(
            await issueApiKey(tx, {
              businessId: business.id,
              environment,
              membershipId: membership.id,
              role: "business_admin",
              label: "Issued at registration",
            }),
          );
        }
        return {
          business: { id: business.id, name: business.name, created_at: business.createdAt.toISOString() },
          user: { id: user.id, email: user.email, created_at: user.createdAt.toISOString() },
          membership: { id: membership.id, role: "business_admin" as const },
          api_keys: apiKeys,
        };
      });
    } catch (error) {
      // Two registrations racing on one e-mail: the unique index decides, and the loser gets the same answer.
      if (isUniqueViolation(error, "users_email_key")) throw new AppError("EMAIL_ALREADY_REGISTERED");
      throw error;
    }
  }

  return { register };
}
