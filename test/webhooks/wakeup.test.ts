// A running worker is woken by the commit of an event that needs a delivery (PostgreSQL LISTEN/NOTIFY,
// PGlite's listen): with a one-minute poll interval, the delivery still arrives long before the next poll.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../fixtures/child-processes.js";
import { startWebhookTestBed, type WebhookTestBed } from "./webhook-test-bed.js";

describe("worker wake-up on commit", () => {
  let bed: WebhookTestBed;
  beforeAll(async () => {
    bed = await startWebhookTestBed({ env: { JOB_POLL_INTERVAL_MS: "60000" } });
    await bed.subscribe();
  });
  afterAll(async () => bed?.close());

  /** The value of one series of this runtime's metrics (0 when it has not been set). */
  async function metricValue(name: string, labels: Record<string, string> = {}): Promise<number> {
    const metric = bed.testApp.runtime.deps.metrics.registry.getSingleMetric(name);
    if (metric === undefined) throw new Error(`no metric ${name}`);
    const { values } = await metric.get();
    const series = values.find((value) => Object.entries(labels).every(([key, label]) => value.labels[key] === label));
    return series?.value ?? 0;
  }

  it("delivers without waiting for the poll interval", async () => {
    // Nothing due when the worker starts (the setup's own jobs, if any, run now), so its first poll finds
    // nothing and only a wake-up can bring it back within the minute.
    await bed.drain();
    bed.worker.start();
    await waitFor(
      "the wake-up listener to listen and the worker's first poll to find nothing",
      async () =>
        (await metricValue("jobs_wakeup_listening")) === 1 &&
        (await metricValue("jobs_worker_polls_total", { result: "empty" })) >= 1
          ? true
          : undefined,
      20_000,
    );
    expect(await metricValue("jobs_worker_polls_total", { result: "claimed" })).toBe(0);

    const event = await bed.recordEvent("beneficiary.details_submitted");
    await waitFor("the delivery to arrive", async () => (bed.receiver.deliveries().length > 0 ? true : undefined), 20_000);
    expect(JSON.parse(bed.receiver.deliveries()[0]?.rawBody.toString() ?? "{}").id).toBe(event.id);
    // The poll that took it was the woken one, not the first.
    expect(await metricValue("jobs_worker_polls_total", { result: "claimed" })).toBe(1);
  }, 30_000);
});
