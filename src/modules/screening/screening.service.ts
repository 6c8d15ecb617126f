// Screening use cases: loading a list (operator), screening Beneficiaries (in the transaction of their change, and
// batch by batch after a list changed), listing hits, and an admin's decision on a Beneficiary's open hits.
import { createHash } from "node:crypto";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import { isSameMaker, type MakerIdentity } from "../../platform/auth/maker-checker.js";
import type { Clock } from "../../platform/clock.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { EventRecorder, NewEvent } from "../../platform/events/outbox.js";
import type { IdGenerator } from "../../platform/ids.js";
import { jobHandler } from "../../platform/jobs/job-definition.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import { type JobHandlers, LeaseLostError } from "../../platform/jobs/worker.js";
import { decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import {
  findBeneficiariesToScreen,
  listBeneficiariesToScreen,
  recordScreeningOutcomes,
  type ScreenedBeneficiary,
  type ScreeningMatchValue,
  type ScreeningOutcome,
  type ScreeningStatus,
} from "../beneficiaries/beneficiaries.shared.js";
import { SCREENING_ERRORS } from "./screening.errors.js";
import { SCREENING_RESCREEN_JOB } from "./screening.jobs.js";
import { type ListFile, type ListId, readSanctionsList, SanctionsListError } from "./screening.lists.js";
import { type CandidateEntry, type Finding, findHits, screenedNames } from "./screening.matcher.js";
import { createTokenSimilarity, nameKeys, nameTokens } from "./screening.names.js";
import {
  decideHits,
  type EntryRow,
  findAllEntries,
  findAllKeyedNames,
  findEntries,
  findHit,
  findKeyedNamesByKey,
  type HitRow,
  insertHits,
  insertRun,
  listHits,
  listLists,
  lockList,
  lockLiveHitsOf,
  lockRun,
  type NewEntryRow,
  type NewHitRow,
  type NewKeyRow,
  replaceEntries,
  saveList,
  stillListed,
  supersedeRunningRuns,
  updateRun,
  withdrawHits,
} from "./screening.repo.js";
import type { SanctionsListBody, ScreeningHitBody, ScreeningHitListQuery } from "./screening.schemas.js";

/**
 * Beneficiaries screened per job (one transaction each) when every one is screened again. 2,500: a batch costs
 * about fifteen round trips whatever its size, which dominated at 250 (bench/README.md "Screening"); a bigger
 * batch holds its Beneficiaries' locks longer (a rename waits for the batch: about a second on the bench).
 */
export const RESCREEN_BATCH = 2500;

export interface ScreeningServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly events: EventRecorder;
  readonly jobStore: Pick<JobStore, "enqueue">;
  /** SCREENING_THRESHOLD: the lowest score that is a hit. */
  readonly threshold: number;
  readonly screeningEnabled: (db: Db, tenant: Tenant) => Promise<boolean>;
  readonly releaseScreeningHold: (tx: Tx, tenant: Tenant, beneficiaryId: string) => Promise<number>;
  readonly recordAudit: RecordActorAudit;
  /** Beneficiaries per rescreen job; RESCREEN_BATCH unless a benchmark compares sizes. */
  readonly rescreenBatch?: number;
}

const tenantKey = (b: Pick<ScreenedBeneficiary, "businessId" | "environment">) => `${b.businessId}:${b.environment}`;
const pairKey = (listId: string, ref: string) => `${listId}:${ref}`;
const BLOCKING: readonly ScreeningStatus[] = ["potential_match", "confirmed_match"];

export function createScreeningService(deps: ScreeningServiceDeps) {
  const { db, clock, ids, events, jobStore, threshold } = deps;
  const batchSize = deps.rescreenBatch ?? RESCREEN_BATCH;
  // One memo of word similarities per process: names repeat their words across Beneficiaries and lists.
  const similarity = createTokenSimilarity();

  // Loading ------------------------------------------------------------------------------------------------------

  /**
   * Reads the files (outside any transaction), then in one transaction replaces the list's entries and their
   * keys, bumps its version and starts a run screening every Beneficiary again. The same files again change
   * nothing.
   */
  async function loadList(listId: ListId, files: readonly ListFile[], source: "config" | "operator"): Promise<SanctionsListBody> {
    let parsed: ReturnType<typeof readSanctionsList>;
    try {
      parsed = readSanctionsList(listId, files);
    } catch (error) {
      if (error instanceof SanctionsListError)
        throw new AppError(SCREENING_ERRORS.SANCTIONS_LIST_INVALID, { message: error.message });
      throw error;
    }
    const hash = createHash("sha256");
    for (const file of [...files].sort((a, b) => a.format.localeCompare(b.format)))
      hash.update(`${file.format}\n${file.content}\n`);
    const contentHash = hash.digest("hex");
    const entries: NewEntryRow[] = [];
    const keys: NewKeyRow[] = [];
    for (const entry of parsed) {
      const id = ids.newId();
      entries.push({
        id,
        listId,
        ref: entry.ref,
        kind: entry.kind,
        primaryName: entry.primaryName,
        names: [...entry.names],
        countries: [...entry.countries],
        programs: [...entry.programs],
        addresses: [...entry.addresses],
      });
      entry.names.forEach((name, nameNo) => {
        for (const key of nameKeys(nameTokens(name))) keys.push({ key, entryId: id, nameNo });
      });
    }
    // The same ref twice (a malformed file) would break the unique index: the first one wins.
    const seen = new Set<string>();
    const uniqueEntries = entries.filter((entry) => {
      if (seen.has(entry.ref)) return false;
      seen.add(entry.ref);
      return true;
    });
    const kept = new Set(uniqueEntries.map((entry) => entry.id));
    const uniqueKeys = keys.filter((key) => kept.has(key.entryId));
    return transaction(db, async (tx) => {
      const now = clock.now();
      const existing = await lockList(tx, listId);
      if (existing !== null && existing.contentHash === contentHash) {
        return presentList(existing, false, null);
      }
      await replaceEntries(tx, listId, uniqueEntries, uniqueKeys);
      const row = {
        listId,
        version: (existing?.version ?? 0) + 1,
        entryCount: uniqueEntries.length,
        contentHash,
        source,
        loadedAt: now,
      };
      await saveList(tx, row);
      const runId = await startRun(tx, `list_loaded:${listId}:${row.version}`);
      return presentList(row, true, runId);
    });
  }

  async function startRun(tx: Tx, reason: string): Promise<string> {
    const now = clock.now();
    await supersedeRunningRuns(tx, now);
    const runId = ids.newId();
    await insertRun(tx, { id: runId, reason, status: "running", cursor: null, screened: 0, hits: 0, startedAt: now });
    await jobStore.enqueue(tx, SCREENING_RESCREEN_JOB, { runId }, { dedupeKey: `screening-rescreen:${runId}:start` });
    return runId;
  }

  function presentList(
    row: { listId: string; version: number; entryCount: number; source: string; loadedAt: Date },
    changed: boolean,
    runId: string | null,
  ): SanctionsListBody {
    return {
      list_id: row.listId as ListId,
      version: row.version,
      entry_count: row.entryCount,
      source: row.source,
      loaded_at: row.loadedAt.toISOString(),
      changed,
      rescreen_run_id: runId,
    };
  }

  async function lists(): Promise<SanctionsListBody[]> {
    return (await listLists(db)).map((row) => presentList(row, false, null));
  }

  // Screening ----------------------------------------------------------------------------------------------------

  /** The candidates of each Beneficiary of a batch: one read of the key index and one of the entries. */
  /**
   * The rescreen run reads the whole index once per process and list version (tens of thousands of rows, a few
   * MB) instead of once per batch: the versions are read in the batch's transaction, so a reload is seen at once.
   */
  let cachedIndex: {
    versions: string;
    byKey: Map<string, { entryId: string; nameNo: number }[]>;
    entries: Map<string, CandidateEntry>;
  } | null = null;
  async function wholeIndex(tx: Db) {
    const versions = (await listLists(tx)).map((list) => `${list.listId}:${list.version}`).join(",");
    if (cachedIndex?.versions === versions) return cachedIndex;
    const byKey = new Map<string, { entryId: string; nameNo: number }[]>();
    for (const row of await findAllKeyedNames(tx)) {
      const list = byKey.get(row.key) ?? [];
      list.push(row);
      byKey.set(row.key, list);
    }
    const entries = new Map<string, CandidateEntry>();
    for (const row of await findAllEntries(tx)) entries.set(row.id, toCandidate(row));
    cachedIndex = { versions, byKey, entries };
    return cachedIndex;
  }

  async function candidatesOf(tx: Db, batch: readonly { id: string; names: ReturnType<typeof screenedNames> }[], whole: boolean) {
    let byKey: Map<string, { entryId: string; nameNo: number }[]>;
    let entries: Map<string, CandidateEntry>;
    if (whole) {
      ({ byKey, entries } = await wholeIndex(tx));
    } else {
      const allKeys = new Set<string>();
      for (const b of batch) for (const name of b.names) for (const key of name.keys) allKeys.add(key);
      const keyed = await findKeyedNamesByKey(tx, [...allKeys]);
      byKey = new Map();
      for (const row of keyed) {
        const list = byKey.get(row.key) ?? [];
        list.push(row);
        byKey.set(row.key, list);
      }
      entries = new Map();
      for (const row of await findEntries(tx, [...new Set(keyed.map((row) => row.entryId))]))
        entries.set(row.id, toCandidate(row));
    }
    const out = new Map<string, Map<string, { entry: CandidateEntry; nameNos: Set<number> }>>();
    for (const b of batch) {
      const candidates = new Map<string, { entry: CandidateEntry; nameNos: Set<number> }>();
      for (const name of b.names) {
        for (const key of name.keys) {
          for (const { entryId, nameNo } of byKey.get(key) ?? []) {
            const entry = entries.get(entryId);
            if (entry === undefined) continue;
            const found = candidates.get(entryId) ?? { entry, nameNos: new Set<number>() };
            found.nameNos.add(nameNo);
            candidates.set(entryId, found);
          }
        }
      }
      out.set(b.id, candidates);
    }
    return out;
  }

  const tokenCache = new Map<string, string[]>();
  function toCandidate(row: EntryRow): CandidateEntry {
    return {
      id: row.id,
      listId: row.listId,
      ref: row.ref,
      snapshot: {
        kind: row.kind,
        primary_name: row.primaryName,
        names: row.names,
        countries: row.countries,
        programs: row.programs,
        addresses: row.addresses,
      },
      nameTokens: row.names.map((name) => {
        let tokens = tokenCache.get(name);
        if (tokens === undefined) {
          tokens = nameTokens(name);
          if (tokenCache.size > 200_000) tokenCache.clear();
          tokenCache.set(name, tokens);
        }
        return tokens;
      }),
    };
  }

  /**
   * Screens these Beneficiaries in the caller's transaction and records the outcome: new hits (`open`), hits no
   * longer found withdrawn (a confirmed one only when its entry left the list), the Beneficiary's status and
   * match, the events, and the release of held payouts when it is no longer blocked. Returns the hits found.
   */
  async function screenBatch(
    tx: Tx,
    beneficiaries: readonly ScreenedBeneficiary[],
    trigger: MakerIdentity | null,
    whole = false,
  ): Promise<number> {
    if (beneficiaries.length === 0) return 0;
    const now = clock.now();
    const prepared = beneficiaries.map((b) => ({ b, id: b.id, names: screenedNames(b) }));
    const candidates = await candidatesOf(tx, prepared, whole);
    const live = await lockLiveHitsOf(
      tx,
      beneficiaries.map((b) => b.id),
    );
    const liveOf = new Map<string, HitRow[]>();
    for (const hit of live) liveOf.set(hit.beneficiaryId, [...(liveOf.get(hit.beneficiaryId) ?? []), hit]);
    // Confirmed hits are withdrawn only when their entry left the list (never by a change of name).
    const confirmedPairs = live
      .filter((hit) => hit.status === "confirmed")
      .map((hit) => ({ listId: hit.listId, ref: hit.entryRef }));
    const listed = await stillListed(tx, confirmedPairs);

    const toInsert: NewHitRow[] = [];
    const toWithdraw: string[] = [];
    const outcomes: ScreeningOutcome[] = [];
    // Events go in one INSERT per batch (a rescreen records thousands, one round trip each cost a fifth of it);
    // written before a held payout is released, so the events keep the order they had one by one.
    const pending: NewEvent[] = [];
    const flushEvents = async () => {
      await events.recordMany(tx, pending.splice(0));
    };
    let found = 0;
    for (const { b, names } of prepared) {
      const findings = findHits(names, candidates.get(b.id) ?? new Map(), threshold, similarity);
      found += findings.length;
      const screenedName = b.names.join(" / ");
      const byPair = new Map<string, Finding>(findings.map((f) => [pairKey(f.listId, f.entryRef), f]));
      const kept: HitRow[] = [];
      for (const hit of liveOf.get(b.id) ?? []) {
        const key = pairKey(hit.listId, hit.entryRef);
        const again = byPair.get(key);
        if (again !== undefined && hit.screenedName === screenedName) {
          kept.push(hit);
          byPair.delete(key);
        } else if (hit.status === "confirmed" && listed.has(key)) {
          kept.push(hit);
        } else {
          toWithdraw.push(hit.id);
        }
      }
      const fresh: NewHitRow[] = [...byPair.values()].map((f) => ({
        id: ids.newId(),
        businessId: b.businessId,
        environment: b.environment,
        beneficiaryId: b.id,
        listId: f.listId,
        entryRef: f.entryRef,
        matchedName: f.matchedName,
        entry: f.entry,
        score: f.score,
        screenedName,
        screenedCountry: b.country,
        status: "open",
        triggeredByApiKeyId: trigger?.apiKeyId ?? null,
        triggeredByMembershipId: trigger?.membershipId ?? null,
        triggeredByUserId: trigger?.userId ?? null,
        createdAt: now,
        updatedAt: now,
      }));
      toInsert.push(...fresh);
      const current = [...kept, ...fresh.map((f) => f as HitRow)];
      const { status, match } = statusOf(current);
      const tenant: Tenant = { businessId: b.businessId, environment: b.environment };
      // A Beneficiary without hits before and after is not written again (most of a rescreen run).
      if (status !== b.screeningStatus || match !== null) {
        outcomes.push({ id: b.id, status, match });
      }
      const firstFresh = fresh[0];
      if (firstFresh !== undefined) {
        pending.push({
          tenant,
          type: "beneficiary.screening_hit",
          subjectId: b.id,
          data: {
            beneficiary_id: b.id,
            screening_status: status,
            hit: hitEventData(firstFresh),
          },
        });
      }
      if (BLOCKING.includes(b.screeningStatus) && !BLOCKING.includes(status)) {
        pending.push({
          tenant,
          type: "beneficiary.screening_cleared",
          subjectId: b.id,
          data: { beneficiary_id: b.id, screening_status: status, cleared_by: "rescreening", reason: null, hit_ids: [] },
        });
        await flushEvents();
        await deps.releaseScreeningHold(tx, tenant, b.id);
      }
    }
    await flushEvents();
    await withdrawHits(tx, toWithdraw, now);
    await insertHits(tx, toInsert);
    await recordScreeningOutcomes(tx, outcomes, now);
    return found;
  }

  async function listsLoaded(tx: Db): Promise<boolean> {
    return (await listLists(tx)).length > 0;
  }

  /**
   * For the beneficiaries module (a port): screens the tenant's Beneficiaries just created or changed (name or
   * country), in the transaction of that change. Nothing when the policy is off or no list is loaded.
   */
  async function screenInTransaction(
    tx: Tx,
    tenant: Tenant,
    beneficiaryIds: readonly string[],
    by: MakerIdentity | null,
  ): Promise<void> {
    if (beneficiaryIds.length === 0) return;
    if (!(await deps.screeningEnabled(tx, tenant))) return;
    if (!(await listsLoaded(tx))) return;
    const rows = await findBeneficiariesToScreen(tx, tenant, beneficiaryIds);
    for (let i = 0; i < rows.length; i += RESCREEN_BATCH) await screenBatch(tx, rows.slice(i, i + RESCREEN_BATCH), by);
  }

  /**
   * For the destinations module (a port): the Business turned its policy's `screening` on in this transaction.
   * Its Beneficiaries were not screened while it was off, so a run screening every Beneficiary again starts here,
   * in the same transaction (the same durable run a list load starts; Businesses with screening off are skipped
   * by the run). Nothing while no list is loaded: there is nothing to screen against, and a load starts its own
   * run. Returns the run's id, or null.
   */
  async function screenAfterEnabled(tx: Tx, tenant: Tenant): Promise<string | null> {
    if (!(await listsLoaded(tx))) return null;
    return startRun(tx, `screening_enabled:${tenant.businessId}:${tenant.environment}`);
  }

  const rescreen = jobHandler(SCREENING_RESCREEN_JOB, async ({ runId }, context) => {
    await transaction(db, async (tx) => {
      const run = await lockRun(tx, runId);
      if (run !== null && run.status === "running") {
        const batch = await listBeneficiariesToScreen(tx, run.cursor, batchSize);
        const enabled = new Map<string, boolean>();
        const screened: ScreenedBeneficiary[] = [];
        for (const b of batch) {
          const key = tenantKey(b);
          let on = enabled.get(key);
          if (on === undefined) {
            on = await deps.screeningEnabled(tx, { businessId: b.businessId, environment: b.environment });
            enabled.set(key, on);
          }
          if (on) screened.push(b);
        }
        const hits = await screenBatch(tx, screened, null, true);
        const last = batch.at(-1);
        const done = batch.length < batchSize;
        await updateRun(tx, runId, {
          cursor: last?.id ?? run.cursor,
          screened: run.screened + screened.length,
          hits: run.hits + hits,
          ...(done ? { status: "done", finishedAt: clock.now() } : {}),
        });
        if (!done && last !== undefined) {
          await jobStore.enqueue(tx, SCREENING_RESCREEN_JOB, { runId }, { dedupeKey: `screening-rescreen:${runId}:${last.id}` });
        }
      }
      if (!(await context.completeWithin(tx))) throw new LeaseLostError();
    });
  });

  // Hits and decisions -----------------------------------------------------------------------------------------

  async function list(actor: Actor, query: ScreeningHitListQuery) {
    const limit = query.limit ?? 50;
    const rows = await listHits(
      db,
      tenantOf(actor),
      { status: query.status, beneficiaryId: query.beneficiary_id },
      decodeCursor(query.cursor),
      limit + 1,
    );
    const page = toPage(rows, limit);
    return { screening_hits: page.items.map(presentHit), next_cursor: page.nextCursor };
  }

  async function get(actor: Actor, id: string): Promise<ScreeningHitBody> {
    const hit = await findHit(db, tenantOf(actor), id);
    if (hit === null) throw new AppError("not_found", { message: "No such screening hit." });
    return presentHit(hit);
  }

  /**
   * An admin clears (false positive) or confirms every open hit of the Beneficiary, with a reason; never the
   * person whose change was screened. Clearing releases the payouts the hits held.
   */
  async function decide(actor: Actor, beneficiaryId: string, outcome: "clear" | "confirm", reason: string) {
    const tenant = tenantOf(actor);
    return transaction(db, async (tx) => {
      const [beneficiary] = await findBeneficiariesToScreen(tx, tenant, [beneficiaryId]);
      if (beneficiary === undefined) throw new AppError("not_found", { message: "No such Beneficiary." });
      const live = (await lockLiveHitsOf(tx, [beneficiaryId])).filter(
        (hit) => hit.businessId === tenant.businessId && hit.environment === tenant.environment,
      );
      const open = live.filter((hit) => hit.status === "open");
      if (open.length === 0) throw new AppError(SCREENING_ERRORS.SCREENING_NO_OPEN_HIT);
      for (const hit of open) {
        const maker = {
          apiKeyId: hit.triggeredByApiKeyId,
          membershipId: hit.triggeredByMembershipId,
          userId: hit.triggeredByUserId,
        };
        if (isSameMaker(maker, actor)) throw new AppError(SCREENING_ERRORS.SCREENING_MAKER_CHECKER_VIOLATION);
      }
      const now = clock.now();
      const decided = await decideHits(
        tx,
        tenant,
        open.map((hit) => hit.id),
        {
          status: outcome === "clear" ? "cleared" : "confirmed",
          decidedByApiKeyId: actor.apiKeyId,
          decidedByMembershipId: actor.membershipId,
          decidedByUserId: actor.userId,
          decidedAt: now,
          reason,
          updatedAt: now,
        },
      );
      if (decided.length !== open.length) throw new AppError(SCREENING_ERRORS.SCREENING_HIT_ALREADY_DECIDED);
      const decidedIds = new Set(decided.map((hit) => hit.id));
      const current = [...live.filter((hit) => !decidedIds.has(hit.id)), ...decided];
      const { status, match } = statusOf(current);
      await recordScreeningOutcomes(tx, [{ id: beneficiaryId, status, match }], now);
      if (!BLOCKING.includes(status)) {
        await events.record(tx, {
          tenant,
          type: "beneficiary.screening_cleared",
          subjectId: beneficiaryId,
          data: {
            beneficiary_id: beneficiaryId,
            screening_status: status,
            cleared_by: "admin",
            reason,
            hit_ids: decided.map((hit) => hit.id),
          },
        });
        await deps.releaseScreeningHold(tx, tenant, beneficiaryId);
      }
      await deps.recordAudit(tx, actor, {
        action: "beneficiary_screening_decided",
        subjectType: "beneficiary",
        subjectId: beneficiaryId,
        details: {
          outcome,
          reason,
          hit_ids: decided.map((hit) => hit.id),
          entries: decided.map((hit) => pairKey(hit.listId, hit.entryRef)),
        },
      });
      return { beneficiary_id: beneficiaryId, screening_status: status, hits: decided.map(presentHit) };
    });
  }

  return {
    loadList,
    lists,
    screenInTransaction,
    screenAfterEnabled,
    list,
    get,
    decide,
    jobs: { ...rescreen } satisfies JobHandlers,
  };
}

export type ScreeningService = ReturnType<typeof createScreeningService>;

/** Confirmed beats open beats cleared; the highest score among them is the match shown. */
function statusOf(hits: readonly Pick<HitRow, "id" | "status" | "score" | "listId" | "entryRef" | "entry" | "matchedName">[]): {
  status: ScreeningStatus;
  match: ScreeningMatchValue | null;
} {
  const rank = (status: string) => (status === "confirmed" ? 3 : status === "open" ? 2 : status === "cleared" ? 1 : 0);
  const best = [...hits]
    .filter((hit) => rank(hit.status) > 0)
    .sort((a, b) => rank(b.status) - rank(a.status) || b.score - a.score)[0];
  if (best === undefined) return { status: "clear", match: null };
  const status: ScreeningStatus =
    best.status === "confirmed" ? "confirmed_match" : best.status === "open" ? "potential_match" : "cleared";
  return {
    status,
    match: {
      hit_id: best.id,
      list_id: best.listId,
      entry_ref: best.entryRef,
      entry_name: best.entry.primary_name,
      matched_name: best.matchedName,
      score: best.score,
      status: best.status as ScreeningMatchValue["status"],
    },
  };
}

function hitEventData(hit: Pick<HitRow, "id" | "listId" | "entryRef" | "entry" | "matchedName" | "score">) {
  return {
    hit_id: hit.id,
    list_id: hit.listId,
    entry_ref: hit.entryRef,
    entry_name: hit.entry.primary_name,
    matched_name: hit.matchedName,
    score: hit.score,
  };
}

function person(apiKeyId: string | null, membershipId: string | null, userId: string | null) {
  return apiKeyId === null && membershipId === null && userId === null
    ? null
    : { api_key_id: apiKeyId, membership_id: membershipId, user_id: userId };
}

export function presentHit(hit: HitRow): ScreeningHitBody {
  return {
    id: hit.id,
    object: "screening_hit",
    beneficiary_id: hit.beneficiaryId,
    status: hit.status,
    score: hit.score,
    screened_name: hit.screenedName,
    screened_country: hit.screenedCountry,
    matched_name: hit.matchedName,
    entry: {
      list_id: hit.listId as ListId,
      ref: hit.entryRef,
      kind: hit.entry.kind,
      name: hit.entry.primary_name,
      aliases: hit.entry.names.filter((name) => name !== hit.entry.primary_name),
      countries: hit.entry.countries,
      programs: hit.entry.programs,
      addresses: hit.entry.addresses,
    },
    triggered_by: person(hit.triggeredByApiKeyId, hit.triggeredByMembershipId, hit.triggeredByUserId),
    decided_by: hit.decidedAt === null ? null : person(hit.decidedByApiKeyId, hit.decidedByMembershipId, hit.decidedByUserId),
    decided_at: hit.decidedAt?.toISOString() ?? null,
    reason: hit.reason,
    created_at: hit.createdAt.toISOString(),
    updated_at: hit.updatedAt.toISOString(),
  };
}
