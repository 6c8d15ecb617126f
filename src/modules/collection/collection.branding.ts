// The Business's branding of its hosted collection pages (display name, brand colour, logo), per Business
// and environment like every tenant setting. Set by admins through the API; read by the pages.
//
// The logo is an upload, never a URL: an external image would make every payee's browser contact a third
// party (a tracking pixel in the Business's name) and would need the pages' CSP opened to it. PNG and JPEG
// only, recognised by their first bytes whatever `media_type` says, so an SVG (which can carry script) or
// HTML cannot be stored; the pages serve it with its checked type, nosniff and a CSP of their own.
import type { Actor } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import { type Db, transaction } from "../../platform/db/client.js";
import { AppError, type ErrorDetail } from "../../platform/errors.js";
import { type BrandingRow, findBranding, upsertBranding } from "./collection.repo.js";
import { type BrandingBody, LOGO_MAX_BYTES, type UpdateBrandingBody } from "./collection.schemas.js";

const SIGNATURES: Readonly<Record<string, readonly number[]>> = {
  "image/png": [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  "image/jpeg": [0xff, 0xd8, 0xff],
};

/** WCAG relative luminance of `#rrggbb`. */
function luminance(color: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(color.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** Contrast ratio of `#rrggbb` with white, 1 to 21. */
export function contrastWithWhite(color: string): number {
  return 1.05 / (luminance(color) + 0.05);
}

function present(row: BrandingRow | null): BrandingBody {
  return {
    display_name: row?.displayName ?? null,
    brand_color: row?.brandColor ?? null,
    logo:
      row?.logoMediaType && row.logoBase64
        ? { media_type: row.logoMediaType, size_bytes: Buffer.from(row.logoBase64, "base64").length }
        : null,
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

function logoProblems(logo: NonNullable<UpdateBrandingBody["logo"]>): ErrorDetail[] {
  const bytes = Buffer.from(logo.data, "base64");
  if (bytes.length > LOGO_MAX_BYTES) {
    return [{ field: "logo.data", code: "too_long", message: `The image is larger than ${LOGO_MAX_BYTES / 1024} KiB.` }];
  }
  const signature = SIGNATURES[logo.media_type] ?? [];
  if (bytes.length < signature.length || signature.some((byte, index) => bytes[index] !== byte)) {
    return [{ field: "logo.data", code: "invalid_format", message: `The data is not a ${logo.media_type} image.` }];
  }
  return [];
}

export function createBrandingService(deps: { readonly db: Db; readonly clock: Clock; readonly recordAudit: RecordActorAudit }) {
  const { db, clock } = deps;

  async function get(actor: Actor): Promise<BrandingBody> {
    return present(await findBranding(db, tenantOf(actor)));
  }

  /** Changes the fields present in the body (null clears one); absent fields stay as they are. */
  async function update(actor: Actor, body: UpdateBrandingBody): Promise<BrandingBody> {
    const details: ErrorDetail[] = [];
    const color = body.brand_color?.toLowerCase() ?? null;
    if (color !== null && contrastWithWhite(color) < 4.5) {
      details.push({
        field: "brand_color",
        code: "low_contrast",
        message: `White text on ${color} has a contrast ratio of ${contrastWithWhite(color).toFixed(2)}:1; choose a darker colour (at least 4.5:1).`,
      });
    }
    if (body.logo !== undefined && body.logo !== null) details.push(...logoProblems(body.logo));
    if (body.display_name !== undefined && body.display_name !== null && body.display_name.trim() === "") {
      details.push({ field: "display_name", code: "blank", message: "The display name must contain a letter or digit." });
    }
    if (details.length > 0) throw new AppError("validation_failed", { details });
    const tenant = tenantOf(actor);
    return transaction(db, async (tx) => {
      const current = await findBranding(tx, tenant);
      const logo = body.logo === undefined ? undefined : body.logo;
      const saved = await upsertBranding(tx, {
        businessId: tenant.businessId,
        environment: tenant.environment,
        displayName: body.display_name === undefined ? (current?.displayName ?? null) : (body.display_name?.trim() ?? null),
        brandColor: body.brand_color === undefined ? (current?.brandColor ?? null) : color,
        logoMediaType: logo === undefined ? (current?.logoMediaType ?? null) : (logo?.media_type ?? null),
        logoBase64:
          logo === undefined
            ? (current?.logoBase64 ?? null)
            : logo === null
              ? null
              : Buffer.from(logo.data, "base64").toString("base64"),
        updatedAt: clock.now(),
      });
      // What payees see on the page that asks for their bank details: a change is recorded (the logo by type
      // and size only).
      await deps.recordAudit(tx, actor, {
        action: "branding_changed",
        subjectType: "branding",
        subjectId: tenant.environment,
        details: {
          ...(body.display_name === undefined ? {} : { display_name: saved.displayName }),
          ...(body.brand_color === undefined ? {} : { brand_color: saved.brandColor }),
          ...(body.logo === undefined ? {} : { logo: present(saved).logo }),
        },
      });
      return present(saved);
    });
  }

  return { get, update };
}

export type BrandingService = ReturnType<typeof createBrandingService>;
