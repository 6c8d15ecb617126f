// `events list`, `listen` and `trigger`: the events API (GET /v1/events), forwarding new events to a local URL
// signed like a real webhook delivery, and making a simulator scenario happen.
import { createHmac, randomBytes } from "node:crypto";
import {
  createClient,
  EVENT_TYPES,
  PayoutsApiError,
  type PayoutsClient,
  PayoutsConnectionError,
  type Schemas,
  SIMULATOR_SCENARIOS,
} from "@payout-orchestration/client";
import type { Command } from "commander";
import type { ActionWrapper, Context } from "./command.js";
import { CliError, EXIT, table } from "./output.js";

type Event = Schemas["Event"];

/** How long one feed request waits for a new event (the service allows 30 s). */
const FEED_WAIT_SECONDS = 25;
const FORWARD_TIMEOUT_MS = 10_000;
/** Events forwarded at once. */
const FORWARD_CONCURRENCY = 8;
/** The reader stops reading ahead when this many events wait to be forwarded. */
const MAX_QUEUED = 2000;

export function registerEventCommands(program: Command, action: ActionWrapper): void {
  const events = program.command("events").description("events of this environment");
  events
    .command("list")
    .description("list events, newest first")
    .option("--type <type>", "only this event type")
    .option("--subject <id>", "only events about this payout or Beneficiary")
    .option("--limit <n>", "at most this many (default 50)", (v) => Number(v), 50)
    .action(
      action(async (ctx) => {
        const o = ctx.options as { type?: string; subject?: string; limit: number };
        if (!Number.isInteger(o.limit) || o.limit < 1)
          throw new CliError("invalid_option", "--limit takes a positive integer", EXIT.usage);
        if (o.type !== undefined) checkTypes([o.type]);
        const query = {
          limit: Math.min(o.limit, 200),
          ...(o.type ? { type: o.type as Event["type"] } : {}),
          ...(o.subject ? { subject_id: o.subject } : {}),
        };
        const items: Event[] = [];
        for await (const event of (await ctx.client()).paginate("listEvents", { query })) {
          items.push(event);
          if (items.length >= o.limit) break;
        }
        ctx.out.result(items, () =>
          table([["EVENT", "TYPE", "OCCURRED", "SUBJECT"], ...items.map((e) => [e.id, e.type, e.occurred_at, subjectOf(e)])]),
        );
      }),
    );

  program
    .command("listen")
    .description(
      "forward every new event of this environment to a local URL, signed like a real webhook delivery (X-Service-Signature) with the secret printed at start",
    )
    .requiredOption("--forward-to <url>", "where to POST each event, e.g. http://localhost:4242/webhooks")
    .option("--events <types>", "only these event types, comma-separated (default: all)")
    .option(
      "--give-up-after <seconds>",
      "stop when the service stays unreachable this long (default 300; 0: never)",
      (v) => Number(v),
      300,
    )
    .action(action(listen));

  program
    .command("trigger")
    .description(
      "make a payout scenario happen: a Beneficiary with a bank account, a payout with the scenario's amount, approved (scenarios other than `default` need a production key on the simulator rail)",
    )
    .argument("[scenario]", "scenario name (see --list)")
    .option("--list", "list every scenario")
    .option("--beneficiary <id>", "use this payable Beneficiary instead of creating one")
    .action(action(trigger));
}

function checkTypes(types: readonly string[]): void {
  for (const type of types) {
    if (!(EVENT_TYPES as readonly string[]).includes(type)) {
      throw new CliError("invalid_option", `unknown event type "${type}" (types: ${EVENT_TYPES.join(", ")})`, EXIT.usage);
    }
  }
}

function subjectOf(event: Event): string {
  const data = event.data as Record<string, unknown>;
  return String(data.payout_id ?? data.beneficiary_id ?? "");
}

/** `t=<unix>,v1=<hex>`: HMAC-SHA256 keyed with the whole secret, over `<t>.<body>`, as the service signs deliveries. */
export function signDelivery(secret: string, unixSeconds: number, body: string): string {
  const digest = createHmac("sha256", Buffer.from(secret, "utf8")).update(`${unixSeconds}.${body}`, "utf8").digest("hex");
  return `t=${unixSeconds},v1=${digest}`;
}

async function listen(ctx: Context): Promise<void> {
  const o = ctx.options as { forwardTo: string; events?: string; giveUpAfter: number };
  let target: URL;
  try {
    target = new URL(o.forwardTo);
    if (target.protocol !== "http:" && target.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    throw new CliError("invalid_option", `--forward-to must be an http:// or https:// URL, got "${o.forwardTo}"`, EXIT.usage);
  }
  const types =
    o.events === undefined
      ? null
      : o.events
          .split(",")
          .map((t) => t.trim())
          .filter((t) => t !== "");
  if (types !== null) checkTypes(types);
  const apiKey = await ctx.apiKey();
  const baseUrl = await ctx.baseUrl();
  // Its own retries are off: reconnecting is this loop's job, with a message the user can read.
  const client = createClient({ baseUrl, apiKey, retry: { maxRetries: 0 }, timeoutMs: (FEED_WAIT_SECONDS + 15) * 1000 });
  const environment = apiKey.startsWith("pok_production_")
    ? "production"
    : apiKey.startsWith("pok_sandbox_")
      ? "sandbox"
      : "local";
  const secret = `whsec_${environment}_${randomBytes(32).toString("hex")}`;
  // A single type is filtered by the service; several are filtered here.
  const serverType = types?.length === 1 ? types[0] : undefined;

  // Start from the position "now", read once before announcing: every event committed after the start line
  // is forwarded. The cursor only moves past events that were forwarded, so a reconnect continues exactly there.
  let cursor = "now";
  const first = await client.listEvents({
    query: { after: cursor, ...(serverType ? { type: serverType as Event["type"] } : {}) },
  });
  cursor = first.next_cursor ?? cursor;
  ctx.out.record(
    { event: "listening", secret, forward_to: target.href, base_url: baseUrl, events: types ?? "all" },
    () =>
      `Ready. Forwarding ${types === null ? "all events" : types.join(", ")} to ${target.href}\nSigning secret: ${secret} (verify X-Service-Signature with it)`,
  );

  // The reader fills the queue in feed order; FORWARD_CONCURRENCY forwarders empty it, so a slow receiver or a
  // busy machine does not hold the feed back (receivers order events themselves: deliveries may arrive out of
  // order). An event enters the queue once per run (`queued`), so none is forwarded twice.
  const queued = new Set<string>();
  const queue: Event[] = [];
  let failures = 0;
  let stopping = false;
  let fatal: unknown = null;
  const idleForwarders = new Set<() => void>();
  const wakeForwarders = () => {
    for (const wake of [...idleForwarders]) wake();
    idleForwarders.clear();
  };
  let wakeReader: (() => void) | null = null;
  const controller = new AbortController();
  const stop = () => {
    stopping = true;
    controller.abort();
    wakeForwarders();
    wakeReader?.();
  };
  const enqueue = (events: readonly Event[]) => {
    for (const event of events) {
      if (queued.has(event.id)) continue;
      if (types !== null && !types.includes(event.type)) continue;
      queued.add(event.id);
      queue.push(event);
    }
    wakeForwarders();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);

  const forwarder = async () => {
    while (!stopping) {
      const event = queue.shift();
      if (event === undefined) {
        await new Promise<void>((resolve) => idleForwarders.add(resolve));
        continue;
      }
      if (!(await forward(ctx, target, secret, event))) failures += 1;
      if (queue.length < MAX_QUEUED / 2) wakeReader?.();
    }
  };

  const reader = async () => {
    let unreachableSince: number | null = null;
    let backoffMs = 250;
    while (!stopping) {
      if (queue.length >= MAX_QUEUED) {
        await new Promise<void>((resolve) => {
          wakeReader = resolve;
        });
        wakeReader = null;
        continue;
      }
      try {
        const page = await client.listEvents(
          { query: { after: cursor, wait: FEED_WAIT_SECONDS, ...(serverType ? { type: serverType as Event["type"] } : {}) } },
          { signal: controller.signal },
        );
        if (unreachableSince !== null) ctx.out.warn(`reconnected to ${baseUrl}`);
        unreachableSince = null;
        backoffMs = 250;
        enqueue(page.events);
        cursor = page.next_cursor ?? cursor;
      } catch (error) {
        if (stopping) return;
        const transient =
          error instanceof PayoutsConnectionError ||
          (error instanceof PayoutsApiError && (error.status >= 500 || error.status === 429));
        if (!transient) throw error;
        const now = Date.now();
        if (unreachableSince === null) {
          unreachableSince = now;
          ctx.out.warn(`service unreachable (${error instanceof PayoutsApiError ? error.code : error.code}): reconnecting…`);
        } else if (o.giveUpAfter > 0 && now - unreachableSince > o.giveUpAfter * 1000) {
          throw new CliError("service_unreachable", `${baseUrl} has been unreachable for ${o.giveUpAfter} s; giving up`);
        }
        await new Promise((resolve) => setTimeout(resolve, backoffMs));
        backoffMs = Math.min(backoffMs * 2, 5000);
      }
    }
  };

  enqueue(first.events);
  try {
    await Promise.all([
      reader().catch((error: unknown) => {
        fatal = error;
        stop();
      }),
      ...Array.from({ length: FORWARD_CONCURRENCY }, () => forwarder()),
    ]);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  if (fatal !== null) throw fatal;
  if (failures > 0) ctx.setExitCode(EXIT.failed);
}

/** POSTs one event like a delivery attempt: the envelope with `created_at` = now, signed now. */
async function forward(ctx: Context, target: URL, secret: string, event: Event): Promise<boolean> {
  const sentAt = new Date();
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    api_version: event.api_version,
    occurred_at: event.occurred_at,
    created_at: sentAt.toISOString(),
    sequence: event.sequence,
    data: event.data,
  });
  const started = performance.now();
  let status: number | null = null;
  let problem: string | null = null;
  try {
    const response = await fetch(target, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "payout-orchestration-webhooks/1 (payouts listen)",
        "x-service-signature": signDelivery(secret, Math.floor(sentAt.getTime() / 1000), body),
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    status = response.status;
  } catch (error) {
    problem = describeForwardError(error);
  }
  const ms = Math.round(performance.now() - started);
  const ok = status !== null && status >= 200 && status < 300;
  ctx.out.record(
    {
      event: "forwarded",
      id: event.id,
      type: event.type,
      occurred_at: event.occurred_at,
      status,
      ok,
      error: problem,
      duration_ms: ms,
    },
    () =>
      `${sentAt.toISOString()}  ${event.type.padEnd(36)} ${event.id}  -> ${status !== null ? `${status}` : `failed: ${problem}`} (${ms} ms)`,
  );
  return ok;
}

function describeForwardError(error: unknown): string {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (code === "ECONNREFUSED") return "connection refused (is the receiver running?)";
    if (typeof code === "string" && code !== "ABORT_ERR") return code;
    if (e.name === "TimeoutError") return `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`;
  }
  return error instanceof Error ? error.message : String(error);
}

const TRIGGER_ACCOUNT = {
  account_holder_name: "Trigger Test",
  country: "DE",
  currency: "EUR",
  iban: "DE89370400440532013000",
} as const;

/** The sandbox rail's one path (src/rails/sandbox-rail.ts): no money moves, nothing after `disbursed`. */
const SANDBOX_OUTCOME =
  "sandbox: acknowledged and disbursed at once when the worker picks it up (within seconds); it stays disbursed (sandbox payouts are never delivered, settled or returned, and no money moves).";

async function trigger(ctx: Context, scenarioName: string | undefined): Promise<void> {
  const o = ctx.options as { list?: boolean; beneficiary?: string };
  if (o.list === true || scenarioName === undefined) {
    if (o.list !== true)
      throw new CliError("missing_argument", "name a scenario (payouts trigger --list shows them)", EXIT.usage);
    ctx.out.result(SIMULATOR_SCENARIOS, () =>
      table([
        ["SCENARIO", "AMOUNT_MINOR", "WHAT HAPPENS"],
        ...SIMULATOR_SCENARIOS.map((s) => [s.name, s.amount_minor === null ? "other" : String(s.amount_minor), s.description]),
      ]),
    );
    return;
  }
  const scenario = SIMULATOR_SCENARIOS.find((s) => s.name === scenarioName);
  if (scenario === undefined) {
    throw new CliError("unknown_scenario", `unknown scenario "${scenarioName}" (payouts trigger --list shows them)`, EXIT.usage);
  }
  const apiKey = await ctx.apiKey();
  if (scenario.amount_minor !== null && !apiKey.startsWith("pok_production_")) {
    throw new CliError(
      "scenario_needs_production",
      `"${scenario.name}" is a production simulator scenario: use a pok_production_ key (sandbox payouts always succeed; try "default")`,
    );
  }
  const client = await ctx.client();
  const beneficiaryId = o.beneficiary ?? (await payableBeneficiary(client));
  const payout = await client.createPayout({
    body: {
      beneficiary_id: beneficiaryId,
      amount_minor: scenario.amount_minor ?? 1000,
      currency: "EUR",
      external_ref: `trigger-${scenario.name}`,
    },
  });
  const approved = await client.approvePayout({
    path: { payoutId: payout.payout_id },
    body: { reason: `payouts trigger ${scenario.name}` },
  });
  // What happens next follows the key's environment: the sandbox rail disburses at once and stops there, so
  // the production simulator's timings ("disbursed after 5 min, delivered after 2 h") would mislead.
  const whatHappens = apiKey.startsWith("pok_sandbox_") ? SANDBOX_OUTCOME : `${scenario.description} (production simulator)`;
  ctx.out.result(
    { scenario: scenario.name, beneficiary_id: beneficiaryId, payout: approved.payout, what_happens: whatHappens },
    () =>
      [
        `Scenario ${scenario.name}: payout ${payout.payout_id} (${approved.payout.amount} ${approved.payout.currency}) ${approved.payout.status}.`,
        `What happens next: ${whatHappens}`,
        "Watch its events with `payouts listen --forward-to URL` or `payouts events list`.",
      ].join("\n"),
  );
}

async function payableBeneficiary(client: PayoutsClient): Promise<string> {
  const beneficiary = await client.createBeneficiary({
    body: {
      beneficiary_type: "person",
      email: `trigger-${randomBytes(6).toString("hex")}@example.com`,
      first_name: "Trigger",
      last_name: "Test",
      country_of_residence: "DE",
    },
  });
  await client.createBankAccount({ path: { id: beneficiary.id }, body: TRIGGER_ACCOUNT });
  await client.acknowledgeBeneficiary({ path: { id: beneficiary.id } });
  return beneficiary.id;
}
