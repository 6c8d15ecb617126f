// Use cases of the Business profile: read it (every role) and change it (admins; step-up from a session is
// the role table's concern). The profile is Business-wide, so the Business id comes from the caller and the
// environment of the request plays no part; the audit record says so (environment null).
import type { Actor } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import { type Db, transaction } from "../../platform/db/client.js";
import { AppError, type ErrorDetail } from "../../platform/errors.js";
import { isCountryCode } from "../../platform/reference/iso-codes.js";
import {
  type BusinessProfilePatch,
  type BusinessProfileRow,
  findBusinessProfile,
  lockBusinessProfile,
  updateBusinessProfile,
} from "./business-profile.repo.js";
import type { BusinessProfileBody, UpdateBusinessProfileBody } from "./business-profile.schemas.js";

export interface BusinessProfileServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly recordAudit: RecordActorAudit;
}

type Field = keyof UpdateBusinessProfileBody;

/** API field -> column, in the order the API lists them (the audit record keeps this order). */
const COLUMNS: Readonly<Record<Field, keyof BusinessProfilePatch>> = {
  name: "name",
  legal_name: "legalName",
  country: "country",
  registration_number: "registrationNumber",
  tax_id: "taxId",
  support_email: "supportEmail",
  website: "website",
  time_zone: "timeZone",
};

export function presentBusinessProfile(row: BusinessProfileRow): BusinessProfileBody {
  return {
    id: row.id,
    name: row.name,
    legal_name: row.legalName,
    country: row.country,
    registration_number: row.registrationNumber,
    tax_id: row.taxId,
    support_email: row.supportEmail,
    website: row.website,
    time_zone: row.timeZone,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt?.toISOString() ?? null,
  };
}

/**
 * The time zone name to store, or null when the runtime's time zone database knows no such zone. Only the
 * letter case is taken from the database (`europe/berlin` -> `Europe/Berlin`): a name it resolves to another
 * zone is kept as typed, since ICU versions differ (Node 20 resolves `Europe/Kyiv` to the old `Europe/Kiev`,
 * and `EST` to `America/Panama`), and what the admin chose must not change under them.
 */
export function storedTimeZone(value: string): string | null {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return resolved.toLowerCase() === value.toLowerCase() ? resolved : value;
}

function websiteProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "Expected a full address starting with https://, e.g. https://example.com.";
  }
  if (url.protocol !== "https:") return "The website must be an https:// address.";
  if (url.username !== "" || url.password !== "") return "The address must not contain a user name or password.";
  if (!url.hostname.includes(".")) return "Expected a public host name, e.g. https://example.com.";
  return null;
}

/** Checks what the schema cannot, and normalises what is stored (trimmed text, the time zone's letter case). */
function validatedPatch(body: UpdateBusinessProfileBody): BusinessProfilePatch {
  const details: ErrorDetail[] = [];
  const patch: BusinessProfilePatch = {};
  if (body.name !== undefined) patch.name = body.name.trim();
  if (body.legal_name !== undefined) patch.legalName = body.legal_name?.trim() ?? null;
  if (body.registration_number !== undefined) patch.registrationNumber = body.registration_number?.trim() ?? null;
  if (body.tax_id !== undefined) patch.taxId = body.tax_id?.trim() ?? null;
  if (body.support_email !== undefined) patch.supportEmail = body.support_email;
  if (body.country !== undefined) {
    if (body.country !== null && !isCountryCode(body.country)) {
      details.push({
        field: "country",
        code: "invalid_country",
        message: `${body.country} is not an ISO 3166-1 alpha-2 country code.`,
      });
    }
    patch.country = body.country;
  }
  if (body.website !== undefined) {
    const problem = body.website === null ? null : websiteProblem(body.website.trim());
    if (problem !== null) details.push({ field: "website", code: "invalid_format", message: problem });
    patch.website = body.website?.trim() ?? null;
  }
  if (body.time_zone !== undefined) {
    const zone = body.time_zone === null ? null : storedTimeZone(body.time_zone);
    if (body.time_zone !== null && zone === null) {
      details.push({
        field: "time_zone",
        code: "invalid_format",
        message: `${body.time_zone} is not an IANA time zone name (for example Europe/Berlin or America/New_York).`,
      });
    }
    patch.timeZone = zone;
  }
  if (details.length > 0) throw new AppError("validation_failed", { details });
  return patch;
}

export function createBusinessProfileService(deps: BusinessProfileServiceDeps) {
  const { db, clock, recordAudit } = deps;

  async function get(actor: Actor): Promise<BusinessProfileBody> {
    const row = await findBusinessProfile(db, actor.businessId);
    if (row === null) throw new AppError("not_found");
    return presentBusinessProfile(row);
  }

  /**
   * Writes the fields sent, and records one audit entry with the before and after of each field that really
   * changed. Sending the stored values again changes nothing: no write, no record, `updated_at` kept.
   */
  async function update(actor: Actor, body: UpdateBusinessProfileBody): Promise<BusinessProfileBody> {
    const patch = validatedPatch(body);
    return transaction(db, async (tx) => {
      const current = await lockBusinessProfile(tx, actor.businessId);
      if (current === null) throw new AppError("not_found");
      const changes: Record<string, { from: string | null; to: string | null }> = {};
      const changed: BusinessProfilePatch = {};
      for (const [field, column] of Object.entries(COLUMNS) as [Field, keyof BusinessProfilePatch][]) {
        if (!(column in patch)) continue;
        const to = patch[column] ?? null;
        const from = current[column];
        if (to === from) continue;
        changes[field] = { from, to };
        Object.assign(changed, { [column]: to });
      }
      if (Object.keys(changes).length === 0) return presentBusinessProfile(current);
      const saved = await updateBusinessProfile(tx, actor.businessId, changed, clock.now());
      await recordAudit(tx, actor, {
        action: "business_profile_changed",
        subjectType: "business",
        subjectId: actor.businessId,
        businessWide: true,
        details: { changes },
      });
      return presentBusinessProfile(saved);
    });
  }

  return { get, update };
}

export type BusinessProfileService = ReturnType<typeof createBusinessProfileService>;
