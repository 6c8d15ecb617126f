// Prometheus metrics: requests by route and status, and the job queue's depth and oldest due job age,
// read from the database at scrape time so every process reports the shared queue.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { JobStore } from "./jobs/job-store.js";
import type { PollResult } from "./jobs/worker.js";

export interface Metrics {
  readonly registry: Registry;
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
  /**
   * One e-mail the service issued, by kind and outcome: `sent` (queued for delivery now), `deferred` (queued
   * for later by the per-Business daily limit), `captured` (sandbox, kept and not delivered), `refused`
   * (over the daily limit; the request that asked for it failed).
   */
  observeMail(kind: string, outcome: "sent" | "deferred" | "captured" | "refused"): void;
  /**
   * A bank-file event that needs watching, by rail: `inbound_refused` (an inbound file that could not be
   * parsed), `inbound_too_large` (an inbound file over BANK_RAIL_INBOUND_MAX_FILE_BYTES, refused unread), `file_rejected` (the bank rejected a file or part of it), `unmatched_entry` (an inbound entry
   * naming no payout of ours), `no_status_report` (a file without a status report past its time),
   * `notification_of_change` (an ACH NOC), `poll_failed` (the inbound directory could not be read),
   * `return_code_not_for_credit` (an ACH return with a debit-only code, applied), `file_id_modifiers_exhausted`
   * (a 37th NACHA file of one creation date, refused), `inbound_duplicate` (an inbound file with the content of
   * one already read under another name: nothing applied).
   */
  observeBankFile(rail: string, event: string): void;
  /** One inbound bank file downloaded, by rail, and the bytes read (at most the size limit plus one per file). */
  observeBankInboundRead(rail: string, bytes: number): void;
  /**
   * The job wake-up listener of this process (LISTEN on PostgreSQL): `listening`, or `failed` (could not
   * connect or LISTEN) and `lost` (the connection dropped), after which workers only poll until it recovers.
   */
  observeWakeupListener(state: "listening" | "failed" | "lost"): void;
  /**
   * One poll of the job table by a worker of this process, by result: `claimed`, `empty` (nothing due), `full`
   * (no free slot), `failed`. Mostly `empty` at a steady rate means idle workers polling: wake-ups bring new
   * jobs sooner, so a longer poll interval would cost little.
   */
  observeWorkerPoll(result: PollResult): void;
  /** Requests of this process waiting on the event feed (`GET /v1/events?after=…&wait=…`): +1 when one starts, -1 when it ends. */
  observeEventFeedWaits(delta: 1 | -1): void;
  /**
   * A waiting feed request read again, by cause: `notify` (an event of its environment committed), `recheck`
   * (events held back by an older transaction), `poll` (a timer: often while the listener is down, rarely
   * otherwise), `end` (its wait ended, the client left, or shutdown).
   */
  observeEventFeedReread(cause: "notify" | "recheck" | "poll" | "end"): void;
  /** The event feed's wake-up listener of this process, like observeWakeupListener. */
  observeEventFeedListener(state: "listening" | "failed" | "lost"): void;
}

export function createMetrics(deps: { jobStore: JobStore }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by method, route template and status code.",
    labelNames: ["method", "route", "status_code"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by method, route template and status code.",
    labelNames: ["method", "route", "status_code"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const mails = new Counter({
    name: "mail_messages_total",
    help: "E-mails issued, by kind and outcome (sent, deferred by the daily limit, captured in sandbox, refused over the limit).",
    labelNames: ["kind", "outcome"],
    registers: [registry],
  });
  const bankFiles = new Counter({
    name: "bank_file_events_total",
    help: "Bank-file events that need watching, by rail and event (inbound_refused, inbound_too_large, file_rejected, unmatched_entry, no_status_report, notification_of_change, poll_failed, return_code_not_for_credit, file_id_modifiers_exhausted, inbound_duplicate).",
    labelNames: ["rail", "event"],
    registers: [registry],
  });
  const inboundReads = new Counter({
    name: "bank_inbound_files_read_total",
    help: "Inbound bank files downloaded, by rail (a file already taken is skipped by its listing, not downloaded again).",
    labelNames: ["rail"],
    registers: [registry],
  });
  const inboundBytes = new Counter({
    name: "bank_inbound_bytes_read_total",
    help: "Bytes of inbound bank files downloaded, by rail (at most BANK_RAIL_INBOUND_MAX_FILE_BYTES plus one per file).",
    labelNames: ["rail"],
    registers: [registry],
  });
  const wakeupListening = new Gauge({
    name: "jobs_wakeup_listening",
    help: "1 while this process listens for job wake-ups (PostgreSQL LISTEN), 0 while its workers only poll. Absent before a worker starts.",
    registers: [registry],
  });
  const wakeupFailures = new Counter({
    name: "jobs_wakeup_listen_failures_total",
    help: "Job wake-up listener failures of this process: `failed` (could not connect or LISTEN), `lost` (the connection dropped).",
    labelNames: ["reason"],
    registers: [registry],
  });
  const workerPolls = new Counter({
    name: "jobs_worker_polls_total",
    help: "Polls of the job table by this process's workers, by result: claimed (took jobs), empty (nothing due), full (no free slot), failed.",
    labelNames: ["result"],
    registers: [registry],
  });
  const feedWaiting = new Gauge({
    name: "events_feed_waiting_requests",
    help: "Requests of this process waiting for new events (GET /v1/events with `wait`). They hold no database connection.",
    registers: [registry],
  });
  const feedListening = new Gauge({
    name: "events_feed_listening",
    help: "1 while this process listens for recorded events (LISTEN), 0 while waiting requests poll. Absent before the first wait.",
    registers: [registry],
  });
  const feedRereads = new Counter({
    name: "events_feed_rereads_total",
    help: "Reads of the event feed by a waiting request after its first, by cause: notify, recheck (events held back by an older transaction), poll, end.",
    labelNames: ["cause"],
    registers: [registry],
  });
  let lastStats: Promise<Awaited<ReturnType<JobStore["stats"]>>> | null = null;
  // One query per scrape feeds all four gauges.
  const statsForScrape = () => {
    lastStats ??= deps.jobStore.stats().finally(() => {
      setTimeout(() => {
        lastStats = null;
      }, 100).unref();
    });
    return lastStats;
  };
  const gauge = (name: string, help: string, pick: (s: Awaited<ReturnType<JobStore["stats"]>>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(pick(await statsForScrape()));
      },
    });
  gauge("jobs_pending", "Jobs waiting to run (due or scheduled).", (s) => s.pending);
  gauge("jobs_running", "Jobs currently leased by a worker.", (s) => s.running);
  gauge("jobs_dead", "Jobs that used up their attempts.", (s) => s.dead);
  gauge("jobs_oldest_pending_age_seconds", "How long the oldest due job has been waiting.", (s) => s.oldestPendingAgeSeconds);

  return {
    registry,
    observeRequest(method, route, statusCode, seconds) {
      const labels = { method, route, status_code: String(statusCode) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    observeMail(kind, outcome) {
      mails.inc({ kind, outcome });
    },
    observeBankFile(rail, event) {
      bankFiles.inc({ rail, event });
    },
    observeBankInboundRead(rail, bytes) {
      inboundReads.inc({ rail });
      inboundBytes.inc({ rail }, bytes);
    },
    observeWakeupListener(state) {
      wakeupListening.set(state === "listening" ? 1 : 0);
      if (state !== "listening") wakeupFailures.inc({ reason: state });
    },
    observeWorkerPoll(result) {
      workerPolls.inc({ result });
    },
    observeEventFeedWaits(delta) {
      feedWaiting.inc(delta);
    },
    observeEventFeedReread(cause) {
      feedRereads.inc({ cause });
    },
    observeEventFeedListener(state) {
      feedListening.set(state === "listening" ? 1 : 0);
    },
  };
}
