// A running worker is woken by the commit of an event that needs a delivery (PostgreSQL LISTEN/NOTIFY,
// PGlite's listen): with a one-minute poll interval, the delivery still arrives long before the next poll.
import { setTimeout as sleep } from "node:timers/promises";
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

  it("delivers without waiting for the poll interval", async () => {
    bed.worker.start();
    // Let the worker's first poll find nothing, so only a wake-up can bring it back within the minute.
    await sleep(500);
    const event = await bed.recordEvent("beneficiary.details_submitted");
    await waitFor("the delivery to arrive", async () => (bed.receiver.deliveries().length > 0 ? true : undefined), 20_000);
    expect(JSON.parse(bed.receiver.deliveries()[0]?.rawBody.toString() ?? "{}").id).toBe(event.id);
  }, 30_000);
});
