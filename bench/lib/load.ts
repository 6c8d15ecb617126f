// Closed-loop HTTP load with autocannon: N keep-alive connections, each sending its next request as soon
// as the previous response arrives, for a bounded duration. Throughput counts 2xx responses only, so a
// server that answers errors fast cannot look good.
import autocannon from "autocannon";
import { mean, percentile, round, SampleBuffer } from "./stats.js";

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly method?: "GET" | "POST";
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** A fresh body per request (e.g. a new idempotency key each time); overrides `body`. */
  readonly bodyFactory?: () => string;
}

export interface LoadSummary {
  readonly connections: number;
  readonly duration_s: number | null;
  readonly requests_per_sec: number | null;
  readonly latency_p50_ms: number | null;
  readonly latency_p99_ms: number | null;
  readonly latency_mean_ms: number | null;
  readonly latency_max_ms: number | null;
  readonly responses_2xx: number;
  readonly non2xx: number;
  /** Connection errors and timeouts (autocannon counts timeouts among errors). */
  readonly errors: number;
  readonly timeouts: number;
  /** Status code -> count, for anything that is not 2xx. */
  readonly non2xx_status: Readonly<Record<string, number>>;
}

export async function runLoad(options: LoadOptions): Promise<LoadSummary> {
  const latencies = new SampleBuffer();
  const otherStatuses: Record<string, number> = {};
  let ok = 0;
  let non2xx = 0;
  const bodyFactory = options.bodyFactory ?? (() => options.body ?? "");
  const started = performance.now();
  let instance: autocannon.Instance | undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.durationSeconds,
        pipelining: 1,
        timeout: 10,
        method: options.method ?? "GET",
        headers: { ...(options.headers ?? {}) },
        ...(options.body === undefined ? {} : { body: options.body }),
        ...(options.bodyFactory === undefined
          ? {}
          : { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: bodyFactory() }) }] }),
      },
      (error: unknown, result) => (error ? reject(error) : resolve(result)),
    );
  });
  instance?.on("response", (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) {
      ok += 1;
      latencies.push(responseTime);
    } else {
      non2xx += 1;
      otherStatuses[statusCode] = (otherStatuses[statusCode] ?? 0) + 1;
    }
  });
  const result = await finished;
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.sorted();
  return {
    connections: options.connections,
    duration_s: round(seconds),
    requests_per_sec: round(ok / seconds, 1),
    latency_p50_ms: round(percentile(sorted, 50), 3),
    latency_p99_ms: round(percentile(sorted, 99), 3),
    latency_mean_ms: round(mean(sorted), 3),
    latency_max_ms: round(sorted[sorted.length - 1] ?? Number.NaN, 3),
    responses_2xx: ok,
    non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx_status: otherStatuses,
  };
}

/** Load whose figures are discarded except for a one-line sanity summary. */
export async function warmUp(options: LoadOptions): Promise<LoadSummary> {
  return runLoad(options);
}

export function describeLoad(label: string, summary: LoadSummary): string {
  return `${label}: ${summary.requests_per_sec} req/s, p50 ${summary.latency_p50_ms} ms, p99 ${summary.latency_p99_ms} ms, non2xx ${summary.non2xx}, errors ${summary.errors}`;
}
