// The screening module's tables: the sanctions lists the operator loaded (installation-wide, no tenant), their
// entries and the keys they are found by, the hits found on Beneficiaries (per tenant), and the runs that
// screen every Beneficiary again after a list changed.
import { sql } from "drizzle-orm";
import {
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";

/** One row per list (`ofac_sdn`, `eu_consolidated`): what is loaded now. */
export const sanctionsLists = pgTable("sanctions_lists", {
  listId: text("list_id").primaryKey(),
  /** Grows by one at every load that changed the list. */
  version: integer("version").notNull(),
  entryCount: integer("entry_count").notNull(),
  /** sha256 of the files' contents: the same files loaded again change nothing. */
  contentHash: text("content_hash").notNull(),
  /** `config` (SANCTIONS_LISTS at start) or `operator` (the operator route). */
  source: text("source").notNull(),
  loadedAt: timestamp("loaded_at", { withTimezone: true, mode: "date" }).notNull(),
});

/** A listed person, entity, vessel…; replaced as a whole when its list is loaded again. */
export const sanctionsEntries = pgTable(
  "sanctions_entries",
  {
    id: uuid("id").primaryKey(),
    listId: text("list_id").notNull(),
    /** The publisher's id (OFAC ent_num, EU logical id): stable across loads. */
    ref: text("ref").notNull(),
    kind: text("kind").notNull(),
    primaryName: text("primary_name").notNull(),
    /** Every name, primary first; `sanctions_name_keys.name_no` indexes into it. */
    names: jsonb("names").$type<string[]>().notNull(),
    countries: jsonb("countries").$type<string[]>().notNull(),
    programs: jsonb("programs").$type<string[]>().notNull(),
    addresses: jsonb("addresses").$type<string[]>().notNull(),
  },
  (t) => [uniqueIndex("sanctions_entries_list_ref_key").on(t.listId, t.ref)],
);

/**
 * The candidate index: each name of each entry filed under its keys (screening.names.ts `nameKeys`: its words
 * and the first four letters of its long words). A Beneficiary's candidates are the names sharing a key with
 * its own; plain b-tree equality, so it works the same on PGlite (no pg_trgm) and PostgreSQL.
 */
export const sanctionsNameKeys = pgTable(
  "sanctions_name_keys",
  {
    key: text("key").notNull(),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => sanctionsEntries.id, { onDelete: "cascade" }),
    nameNo: smallint("name_no").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.entryId, t.nameNo] }), index("sanctions_name_keys_entry_idx").on(t.entryId)],
);

export const SCREENING_HIT_STATUSES = ["open", "cleared", "confirmed", "withdrawn"] as const;
export type ScreeningHitStatus = (typeof SCREENING_HIT_STATUSES)[number];
export const screeningHitStatusEnum = pgEnum("screening_hit_status", SCREENING_HIT_STATUSES);

/** The entry as it was when the hit was found (the list may change or drop it later). */
export interface HitEntrySnapshot {
  kind: string;
  primary_name: string;
  names: string[];
  countries: string[];
  programs: string[];
  addresses: string[];
}

/**
 * A Beneficiary's name found close to a listed name. `open` until a person decides: `cleared` (a false
 * positive) or `confirmed`; `withdrawn` when a later screening no longer finds it (the name changed, or the
 * entry left the list). One live hit per Beneficiary, entry and screened name.
 */
export const screeningHits = pgTable(
  "screening_hits",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    /** Owned by the beneficiaries module: no foreign key across modules. */
    beneficiaryId: uuid("beneficiary_id").notNull(),
    listId: text("list_id").notNull(),
    entryRef: text("entry_ref").notNull(),
    /** The entry's name closest to the Beneficiary's. */
    matchedName: text("matched_name").notNull(),
    entry: jsonb("entry").$type<HitEntrySnapshot>().notNull(),
    score: doublePrecision("score").notNull(),
    /** The Beneficiary's name and country as screened. */
    screenedName: text("screened_name").notNull(),
    screenedCountry: varchar("screened_country", { length: 2 }),
    status: screeningHitStatusEnum("status").notNull(),
    /** The person whose change of the Beneficiary was screened (null: a list reload, an import, a link): may not decide it. */
    triggeredByApiKeyId: uuid("triggered_by_api_key_id"),
    triggeredByMembershipId: uuid("triggered_by_membership_id"),
    triggeredByUserId: uuid("triggered_by_user_id"),
    decidedByApiKeyId: uuid("decided_by_api_key_id"),
    decidedByMembershipId: uuid("decided_by_membership_id"),
    decidedByUserId: uuid("decided_by_user_id"),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "date" }),
    reason: text("reason"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("screening_hits_tenant_idx").on(t.businessId, t.environment, t.id),
    index("screening_hits_beneficiary_idx").on(t.beneficiaryId),
    uniqueIndex("screening_hits_live_key")
      .on(t.beneficiaryId, t.listId, t.entryRef, t.screenedName)
      .where(sql`${t.status} <> 'withdrawn'`),
    check("screening_hits_decided_consistently", sql`(${t.status} in ('cleared', 'confirmed')) = (${t.reason} is not null)`),
  ],
);

/**
 * Screening every Beneficiary again after a list changed: a durable job works through the Beneficiaries in
 * id order, one batch per transaction, and keeps its place here (`cursor`), so a restarted worker resumes.
 */
export const screeningRuns = pgTable("screening_runs", {
  id: uuid("id").primaryKey(),
  reason: text("reason").notNull(),
  status: text("status").notNull(),
  /** The last Beneficiary id screened; null before the first batch. */
  cursor: uuid("cursor"),
  screened: integer("screened").notNull().default(0),
  hits: integer("hits").notNull().default(0),
  startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull(),
  finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
});
