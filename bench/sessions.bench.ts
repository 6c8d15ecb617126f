// Sessions on PostgreSQL (the engine the targets are set for; PGlite is informative):
//  1. `GET /v1/api-keys` with a dashboard session vs the same route with an API key, 32 connections each:
//     target session throughput >= 85% of the key's (within 15%).
//  2. The p99 of `GET /v1/api-keys` (key, 8 connections) idle, then while 20 sign-ins run at once over and
//     over: target p99 under load < 2x idle (scrypt runs on libuv's pool, off the event loop).
import { describeLoad, type LoadSummary, runLoad } from "./lib/load.js";
import { BENCH_PASSWORD, registerBusiness, startService } from "./lib/service.js";
import { round } from "./lib/stats.js";
import type { BenchContext, Benchmark, Engine, Json } from "./lib/types.js";

const ROUTE = "/v1/api-keys";
const CONNECTIONS = 32;
const SIGN_INS_AT_ONCE = 20;
const THROUGHPUT_TARGET = 0.85;
const P99_TARGET = 2;

function figures(load: LoadSummary): { readonly [key: string]: Json } {
  return {
    requests_per_sec: load.requests_per_sec,
    latency_p50_ms: load.latency_p50_ms,
    latency_p99_ms: load.latency_p99_ms,
    responses_2xx: load.responses_2xx,
    non2xx: load.non2xx,
    errors: load.errors,
  };
}

async function runEngine(context: BenchContext, engine: Engine): Promise<{ readonly [key: string]: Json }> {
  if (engine === "postgres" && context.postgresServerUrl === null) {
    return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  }
  const { warmupSeconds, measureSeconds } = context.settings;
  // Every credential check reserves a place on the sign-in throttle before the password is checked (released
  // when it was right), so 20 sign-ins of one person at once would pass the default 5 per account: the
  // benchmark measures sign-in load beside other calls, not the throttle.
  const service = await startService(context, engine, {
    SIGN_IN_FAILURES_PER_ACCOUNT: "1000",
    SIGN_IN_FAILURES_PER_ADDRESS: "100000",
  });
  try {
    const base = service.server.baseUrl;
    const business = await registerBusiness(service, `sessions-${engine}`);
    const signIn = async () => {
      const response = await fetch(`${base}/v1/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: business.email, password: BENCH_PASSWORD }),
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`sign-in answered ${response.status}: ${text}`);
      const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      return cookie;
    };
    const keyHeaders = { authorization: `Bearer ${business.sandboxKey}` };
    const sessionHeaders = { cookie: await signIn(), "x-environment": "sandbox" };
    const url = `${base}${ROUTE}`;

    context.log(`[${engine}] warming up ${warmupSeconds}s (key, then session)`);
    await runLoad({ url, connections: CONNECTIONS, durationSeconds: warmupSeconds, headers: keyHeaders });
    await runLoad({ url, connections: CONNECTIONS, durationSeconds: warmupSeconds, headers: sessionHeaders });
    const key = await runLoad({ url, connections: CONNECTIONS, durationSeconds: measureSeconds, headers: keyHeaders });
    context.log(describeLoad(`[${engine}] key`, key));
    const session = await runLoad({ url, connections: CONNECTIONS, durationSeconds: measureSeconds, headers: sessionHeaders });
    context.log(describeLoad(`[${engine}] session`, session));

    const idle = await runLoad({ url, connections: 8, durationSeconds: measureSeconds, headers: keyHeaders });
    context.log(describeLoad(`[${engine}] idle p99 probe`, idle));
    let signingIn = true;
    let signIns = 0;
    const signers = Array.from({ length: SIGN_INS_AT_ONCE }, async () => {
      while (signingIn) {
        await signIn();
        signIns += 1;
      }
    });
    const loaded = await runLoad({ url, connections: 8, durationSeconds: measureSeconds, headers: keyHeaders });
    signingIn = false;
    await Promise.all(signers);
    context.log(`${describeLoad(`[${engine}] p99 probe during sign-ins`, loaded)}; ${signIns} sign-ins`);

    const ratio = (session.requests_per_sec ?? 0) / Math.max(1, key.requests_per_sec ?? 0);
    const p99Ratio = (loaded.latency_p99_ms ?? Number.POSITIVE_INFINITY) / Math.max(0.001, idle.latency_p99_ms ?? 0);
    const clean = [key, session, idle, loaded].every((load) => load.errors === 0 && load.non2xx === 0);
    return {
      key: figures(key),
      session: figures(session),
      session_to_key_ratio: round(ratio, 3),
      throughput_target: THROUGHPUT_TARGET,
      idle_probe: figures(idle),
      probe_during_sign_ins: figures(loaded),
      sign_ins_completed: signIns,
      sign_ins_per_sec: round(signIns / measureSeconds, 1),
      p99_ratio: round(p99Ratio, 2),
      p99_target: P99_TARGET,
      target_applies: engine === "postgres",
      met: clean && ratio >= THROUGHPUT_TARGET && p99Ratio < P99_TARGET,
    };
  } finally {
    await service.dispose();
  }
}

export const sessionsBenchmark: Benchmark = {
  name: "sessions",
  description: `Session vs key GET ${ROUTE} at ${CONNECTIONS} connections; p99 of other calls while ${SIGN_INS_AT_ONCE} sign-ins run`,
  async run(context) {
    const engines: Record<string, Json> = {};
    for (const engine of context.settings.engines) {
      context.log(`[${engine}] sessions`);
      engines[engine] = await runEngine(context, engine);
    }
    return {
      route: `GET ${ROUTE}`,
      connections: CONNECTIONS,
      sign_ins_at_once: SIGN_INS_AT_ONCE,
      target: `session >= ${THROUGHPUT_TARGET} x key throughput; p99 during sign-ins < ${P99_TARGET} x idle; on postgres`,
      engines,
    };
  },
};
