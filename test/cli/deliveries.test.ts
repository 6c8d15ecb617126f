// `payouts deliveries list|redeliver` as a child process against the real service: a delivery the receiver
// kept refusing is abandoned, the CLI lists it by status and sends it again, and the receiver gets the same
// event; redelivering one that is not abandoned exits 1 with the envelope's code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookTestBed, type WebhookTestBed } from "../webhooks/webhook-test-bed.js";
import { type CliHarness, createCliHarness } from "./cli-helpers.js";

// The retry schedule after the first attempt (spec: Limits); the eighth failure abandons the delivery.
const DELAYS_S = [30, 60, 120, 240, 480, 960, 1920];

let bed: WebhookTestBed;
let cli: CliHarness;

beforeAll(async () => {
  bed = await startWebhookTestBed();
  await bed.testApp.app.listen({ port: 0, host: "127.0.0.1" });
  const address = bed.testApp.app.server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  cli = await createCliHarness({ PAYOUTS_BASE_URL: `http://127.0.0.1:${address.port}`, PAYOUTS_API_KEY: bed.key });
});
afterAll(async () => {
  await cli?.close();
  await bed?.close();
});

function envelopeIdOf(body: Buffer): string {
  return (JSON.parse(body.toString("utf8")) as { id: string }).id;
}

describe("payouts deliveries", () => {
  it("lists an abandoned delivery by status and redelivers it; a second redelivery is refused with its code", async () => {
    await bed.subscribe();
    bed.receiver.respondWith(() => ({ status: 500 }));
    const event = await bed.recordEvent("beneficiary.details_submitted");
    await bed.drain();
    for (const delay of DELAYS_S) {
      bed.testApp.clock.advance(delay * 1000);
      await bed.drain();
    }
    expect(bed.receiver.deliveries()).toHaveLength(8);

    const pending = await cli.run(["deliveries", "list", "--status", "pending", "--json"]);
    expect(pending.code, pending.stderr).toBe(0);
    expect(JSON.parse(pending.stdout)).toEqual([]);
    const abandoned = await cli.run(["deliveries", "list", "--status", "abandoned", "--json"]);
    expect(abandoned.code, abandoned.stderr).toBe(0);
    expect(JSON.parse(abandoned.stdout)).toMatchObject([
      { id: event.id, event_type: "beneficiary.details_submitted", status: "abandoned" },
    ]);

    bed.receiver.respondWith(() => ({ status: 200 }));
    const redeliver = await cli.run(["deliveries", "redeliver", event.id, "--json"]);
    expect(redeliver.code, redeliver.stderr).toBe(0);
    expect(JSON.parse(redeliver.stdout)).toMatchObject({ id: event.id, status: "pending", series: 2 });
    await bed.drain();
    const received = bed.receiver.deliveries();
    expect(received).toHaveLength(9);
    expect(envelopeIdOf((received[8] as { rawBody: Buffer }).rawBody)).toBe(event.id);
    expect((await bed.delivery(event.id)).status).toBe("succeeded");

    const again = await cli.run(["deliveries", "redeliver", event.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: .+\[WEBHOOK_DELIVERY_NOT_ABANDONED, request .+\]/);
  });
});
