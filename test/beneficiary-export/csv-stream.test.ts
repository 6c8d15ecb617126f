// The export's streaming machinery over a fake batch reader: it reads only as fast as the client takes the
// file (backpressure), stops reading when the client goes away, and reports failures the right way before
// and after the first byte.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import type { ExportRecord } from "../../src/modules/beneficiary-export/beneficiary-export.columns.js";
import { type ExportBatchReader, openCsvStream } from "../../src/modules/beneficiary-export/beneficiary-export.service.js";
import { parseCsvRecords } from "./csv.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fakeRecord(n: number): ExportRecord {
  const id = `00000000-0000-7000-8000-${String(1e12 - n).padStart(12, "0")}`;
  return {
    beneficiary: {
      id,
      beneficiary_type: "person",
      name: `Person ${n}`,
      nickname: null,
      display_name: `Person ${n}`,
      email: `p${n}@example.com`,
      phone: null,
      first_name: null,
      last_name: null,
      country_of_residence: null,
      date_of_birth: null,
      business_name: null,
      country_of_incorporation: null,
      registration_number: null,
      tax_id: null,
      postal_address: null,
      bank_details: null,
      compliance_status: "pending",
      identity_complete: false,
      missing_identity_fields: ["first_name"],
      missing_for_ready: [],
      acknowledged_at: null,
      reacknowledgment_required: false,
      collection_status: "not_invited",
      details_submitted_at: null,
      declared_destination_id: null,
      declared_destination_change: null,
      status: "pending_details",
      enrollment_status: null,
      enrollment_failure_detail: null,
      enrollment_failure_bank_account_id: null,
      pending_requests: [],
      tax_document: null,
      screening_status: "not_screened",
      screening_match: null,
      screened_at: null,
      archived_at: null,
      environment: "sandbox",
      created_at: "2026-05-27T12:00:00.000Z",
      updated_at: "2026-05-27T12:00:00.000Z",
    },
    destinationCount: 0,
    payoutDestination: null,
  };
}

interface EndlessReader {
  read: ExportBatchReader;
  /** Reads started so far. */
  calls: () => number;
  /** Reads started and not yet answered. */
  inFlight: () => number;
}

/** An endless supply of full batches, counting how often it is asked. */
function endlessReader(batchSize: number): EndlessReader {
  let calls = 0;
  let inFlight = 0;
  return {
    calls: () => calls,
    inFlight: () => inFlight,
    read: async () => {
      calls += 1;
      inFlight += 1;
      try {
        await sleep(1);
        return Array.from({ length: batchSize }, (_, k) => fakeRecord(calls * batchSize + k));
      } finally {
        inFlight -= 1;
      }
    },
  };
}

/**
 * Waits until the stream has stopped asking for batches: no read in flight and none started for `quietMs`
 * (a condition polled within a generous deadline, not a fixed pause that a loaded machine could outlast), and
 * answers how many reads were made. A stream that kept reading never settles and fails here.
 */
async function settledReads(reader: EndlessReader, quietMs = 250, timeoutMs = 20_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let seen = reader.calls();
  for (;;) {
    await sleep(quietMs);
    const now = reader.calls();
    if (now === seen && reader.inFlight() === 0) return now;
    if (Date.now() > deadline) throw new Error(`still reading after ${timeoutMs} ms: ${now} reads`);
    seen = now;
  }
}

async function readAll(stream: Readable): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += String(chunk);
  return text;
}

describe("the export stream", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("reads batches until a short one, then ends", async () => {
    let calls = 0;
    const befores: Array<string | null> = [];
    const read: ExportBatchReader = async (beforeId) => {
      befores.push(beforeId);
      calls += 1;
      const size = calls < 3 ? 4 : 1;
      return Array.from({ length: size }, (_, k) => fakeRecord(calls * 10 + k));
    };
    const { records } = parseCsvRecords(await readAll(await openCsvStream(read, 4)));
    expect(records).toHaveLength(9);
    expect(befores).toEqual([null, fakeRecord(13).beneficiary.id, fakeRecord(23).beneficiary.id]);
  });

  it("reads ahead only a little while nobody consumes the stream (backpressure)", async () => {
    const reader = endlessReader(50);
    const stream = await openCsvStream(reader.read, 50);
    cleanups.push(async () => void stream.destroy());
    stream.pause();
    // The first batch, and at most a couple more to fill the small stream buffers; never the endless rest.
    expect(await settledReads(reader)).toBeLessThanOrEqual(4);
    expect(reader.calls()).toBeLessThanOrEqual(4);
  });

  it("stops reading when the stream is destroyed", async () => {
    const reader = endlessReader(20);
    const stream = await openCsvStream(reader.read, 20);
    let received = 0;
    for await (const chunk of stream) {
      received += String(chunk).length;
      if (reader.calls() >= 5) break; // for-await's break destroys the stream
    }
    expect(received).toBeGreaterThan(0);
    // A read in flight when the stream was destroyed may finish and start one more; then nothing.
    expect(await settledReads(reader)).toBeLessThanOrEqual(6);
    expect(reader.calls()).toBeLessThanOrEqual(6);
  });

  it("stops reading when an HTTP client disconnects mid-download", async () => {
    const reader = endlessReader(100);
    const app = Fastify({ logger: false });
    app.get("/export", async (_request, reply) => reply.type("text/csv").send(await openCsvStream(reader.read, 100)));
    await app.listen({ port: 0, host: "127.0.0.1" });
    cleanups.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;

    const request = http.get({ host: "127.0.0.1", port, path: "/export" });
    const [response] = (await once(request, "response")) as [http.IncomingMessage];
    expect(response.statusCode).toBe(200);
    let bytes = 0;
    for await (const chunk of response) {
      bytes += (chunk as Buffer).length;
      if (bytes > 100_000) break;
    }
    request.destroy();
    // The server notices the closed connection and stops reading: settledReads fails if it never does.
    expect(await settledReads(reader)).toBeGreaterThan(0);
  });

  it("a failing first batch rejects before any stream exists", async () => {
    await expect(
      openCsvStream(async () => {
        throw new Error("database down");
      }, 10),
    ).rejects.toThrow("database down");
  });

  it("a failing later batch cuts the HTTP response short, so the client sees an incomplete body", async () => {
    let calls = 0;
    const read: ExportBatchReader = async () => {
      calls += 1;
      await sleep(5);
      if (calls > 1) throw new Error("connection lost");
      return Array.from({ length: 200 }, (_, k) => fakeRecord(k));
    };
    const app = Fastify({ logger: false });
    app.get("/export", async (_request, reply) => reply.type("text/csv").send(await openCsvStream(read, 200)));
    await app.listen({ port: 0, host: "127.0.0.1" });
    cleanups.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;

    const request = http.get({ host: "127.0.0.1", port, path: "/export" });
    const [response] = (await once(request, "response")) as [http.IncomingMessage];
    expect(response.statusCode).toBe(200);
    let text = "";
    const outcome = await new Promise<string>((resolve) => {
      response.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
      });
      response.on("end", () => resolve("complete"));
      response.on("error", () => resolve("incomplete"));
      response.on("aborted", () => resolve("incomplete"));
    });
    expect(outcome).toBe("incomplete");
    expect(text.startsWith("id,beneficiary_type,")).toBe(true);
  });
});
