// Use cases for API keys: issue (inside a caller's transaction, e.g. registration), create, list, revoke,
// and authenticate a presented key.

import type { Actor, Role, Tenant } from "../../platform/auth/actor.js";
import { lowerRole, tenantOf } from "../../platform/auth/actor.js";
import { type Environment, formatApiKey, generateApiKeySecret, parseApiKey } from "../../platform/auth/api-key-format.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import { digestsEqual, hashSecret } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import { decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { API_KEY_ERRORS } from "./api-keys.errors.js";
import {
  type ApiKeyRow,
  findApiKey,
  findApiKeyForAuth,
  insertApiKey,
  LAST_USED_GRANULARITY_MS,
  listApiKeys,
  lockActiveAdminKeyIds,
  revokeApiKey,
  revokeApiKeysOfMembership,
  touchApiKeyLastUsed,
} from "./api-keys.repo.js";
import type { ApiKeyBody, CreateApiKeyBody, IssuedApiKeyBody, ListApiKeysQuery } from "./api-keys.schemas.js";

export interface ApiKeyServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The audit log: key creation and revocation are recorded in their transaction (required: pass `noAudit` explicitly where none is wanted). */
  readonly recordAudit: RecordActorAudit;
}

export interface IssueApiKeyInput extends Tenant {
  readonly membershipId: string;
  readonly role: Role;
  readonly label: string | null;
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

export function presentApiKey(row: ApiKeyRow): ApiKeyBody {
  return {
    id: row.id,
    environment: row.environment,
    role: row.role,
    label: row.label,
    key_hint: `${formatApiKey(row.environment, row.id, "").slice(0, -1)}_…${row.secretLast4}`,
    membership_id: row.membershipId,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

export function createApiKeyService(deps: ApiKeyServiceDeps) {
  const { db, clock, ids } = deps;
  const { recordAudit } = deps;

  /** Issues a key inside the caller's transaction; the full key exists only in the returned value. */
  async function issueApiKey(tx: Tx, input: IssueApiKeyInput): Promise<IssuedApiKeyBody> {
    const id = ids.newId();
    const secret = generateApiKeySecret();
    const row = await insertApiKey(tx, {
      id,
      businessId: input.businessId,
      membershipId: input.membershipId,
      environment: input.environment,
      role: input.role,
      label: input.label,
      secretHash: hashSecret(secret),
      secretLast4: secret.slice(-4),
      createdAt: clock.now(),
    });
    return { ...presentApiKey(row), key: formatApiKey(input.environment, id, secret) };
  }

  /** A key creates keys only for its own Business and environment, owned by its own membership. */
  async function createApiKey(actor: Actor, body: CreateApiKeyBody): Promise<IssuedApiKeyBody> {
    return transaction(db, async (tx) => {
      const issued = await issueApiKey(tx, {
        ...tenantOf(actor),
        membershipId: actor.membershipId,
        role: body.role,
        label: body.label ?? null,
      });
      await recordAudit(tx, actor, {
        action: "api_key_created",
        subjectType: "api_key",
        subjectId: issued.id,
        details: { role: body.role },
      });
      return issued;
    });
  }

  async function listKeys(actor: Actor, query: ListApiKeysQuery) {
    const limit = query.limit ?? 50;
    const rows = await listApiKeys(db, tenantOf(actor), decodeCursor(query.cursor), limit + 1);
    const page = toPage(rows, limit);
    return { api_keys: page.items.map(presentApiKey), next_cursor: page.nextCursor };
  }

  /**
   * Revocation takes effect on the next request (authentication reads the row every time). Revoking a
   * revoked key succeeds unchanged. The last active admin key of an environment cannot be revoked: with no
   * dashboard yet, that would lock the Business out of the environment for good.
   */
  async function revokeKey(actor: Actor, id: string): Promise<ApiKeyBody> {
    const tenant = tenantOf(actor);
    return transaction(db, async (tx) => {
      const key = await findApiKey(tx, tenant, id);
      if (key === null) throw new AppError("not_found", { message: "No such API key." });
      if (key.revokedAt === null && key.role === "business_admin") {
        const activeAdmins = await lockActiveAdminKeyIds(tx, tenant);
        if (activeAdmins.length <= 1) throw new AppError(API_KEY_ERRORS.LAST_ACTIVE_ADMIN_KEY);
      }
      if (key.revokedAt === null) {
        await revokeApiKey(tx, tenant, id, clock.now());
        await recordAudit(tx, actor, { action: "api_key_revoked", subjectType: "api_key", subjectId: id });
      }
      const after = await findApiKey(tx, tenant, id);
      if (after === null) throw new Error("revoked key vanished");
      return presentApiKey(after);
    });
  }

  /**
   * For the people module (a port passed in src/composition.ts): a member's removal revokes all their keys, in the removal's
   * own transaction, each recorded as `api_key_revoked` by whoever removed them (in the key's environment).
   * The last-admin-key rule does not apply: the keys already stopped authenticating with the removal, and
   * the Business's other admins sign in to the dashboard to make new ones.
   */
  async function revokeKeysOfRemovedMember(tx: Tx, actor: Actor, membershipId: string): Promise<number> {
    const revoked = await revokeApiKeysOfMembership(tx, actor.businessId, membershipId, clock.now());
    for (const key of revoked) {
      await recordAudit(
        tx,
        { ...actor, environment: key.environment as Environment },
        {
          action: "api_key_revoked",
          subjectType: "api_key",
          subjectId: key.id,
          details: { reason: "member_removed", membership_id: membershipId },
        },
      );
    }
    return revoked.length;
  }

  /**
   * Resolves a presented key to its actor, or null for anything that is not a live key. The stored hash is
   * compared in constant time; the environment segment must match the stored one.
   */
  async function authenticate(rawKey: string): Promise<Actor | null> {
    const parsed = parseApiKey(rawKey);
    if (parsed === null) return null;
    const row = await findApiKeyForAuth(db, parsed.id);
    if (row === null || row.revokedAt !== null || row.environment !== parsed.environment) return null;
    // A removed member's keys stop working at once, whatever their own state.
    if (row.memberRemovedAt !== null) return null;
    if (!digestsEqual(hashSecret(parsed.secret), row.secretHash)) return null;
    const now = clock.now();
    if (row.lastUsedAt === null || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_GRANULARITY_MS) {
      await touchApiKeyLastUsed(db, row.id, now, LAST_USED_GRANULARITY_MS);
    }
    return {
      businessId: row.businessId,
      environment: row.environment as Environment,
      userId: row.userId,
      membershipId: row.membershipId,
      role: lowerRole(row.role, row.memberRole),
      apiKeyId: row.id,
      sessionId: null,
    };
  }

  return { issueApiKey, createApiKey, listKeys, revokeKey, revokeKeysOfRemovedMember, authenticate };
}
