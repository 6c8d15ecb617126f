// Password hashing on a few dedicated, low-priority threads.
//
// scrypt (N=2^15, r=8: about 100 ms of CPU) run on libuv's pool competes with the event loop as an equal:
// on a 2-core machine, 20 sign-ins at once keep both cores busy and every other request waits its turn for a
// core. Here each hash runs on a worker thread of its own whose scheduling priority is lowered to the
// weakest (nice 19; on Linux a nice value belongs to a thread, so only these threads are lowered). The
// kernel then gives a core to the event loop, the database and anything else runnable first, and the
// hashes take what is left: sign-ins slow down under load, the rest of the API does not. The number of
// threads also bounds how many hashes run at once (half the cores by default), so a core stays free even
// where lowering the priority is refused. The hash cost itself (crypto.ts: SCRYPT) is not changed.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { DeriveKey } from "./crypto.js";

// CommonJS source for an `eval` worker: no separate file to build or resolve, the same under tsx and dist/.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { scryptSync } = require("node:crypto");
const { setPriority } = require("node:os");
try { setPriority(0, 19); } catch {}
parentPort.on("message", (job) => {
  try {
    const key = scryptSync(job.password, Buffer.from(job.salt), job.keyLength, job.options);
    parentPort.postMessage({ id: job.id, key });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String(error && error.message ? error.message : error) });
  }
});
`;

interface Job {
  readonly id: number;
  readonly password: string;
  readonly salt: Uint8Array;
  readonly keyLength: number;
  readonly options: { N: number; r: number; p: number; maxmem: number };
  readonly resolve: (key: Buffer) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

export interface PasswordHasher {
  /** scrypt on a low-priority thread; at most `threads` at once, the rest queued in order. */
  readonly deriveKey: DeriveKey;
  /** Hashes queued or running (for tests and metrics). */
  readonly pending: () => number;
  readonly close: () => Promise<void>;
}

/** Half the cores, at least one: the number of hashes that may run at once. */
export function defaultHashThreads(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

export function createPasswordHasher(options: { threads?: number } = {}): PasswordHasher {
  const threads = Math.max(1, options.threads ?? defaultHashThreads());
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_SOURCE, { eval: true }), job: null };
    // Idle threads must not keep the process alive.
    slot.worker.unref();
    slot.worker.on("message", (message: { id: number; key?: Uint8Array; error?: string }) => {
      const job = slot.job;
      if (job === null || job.id !== message.id) return;
      slot.job = null;
      slot.worker.unref();
      if (message.key !== undefined) job.resolve(Buffer.from(message.key));
      else job.reject(new Error(message.error ?? "password hashing failed"));
      dispatch();
    });
    const fail = (error: Error) => {
      const index = slots.indexOf(slot);
      if (index >= 0) slots.splice(index, 1);
      slot.job?.reject(error);
      slot.job = null;
      dispatch();
    };
    slot.worker.on("error", fail);
    slot.worker.on("exit", (code) => fail(new Error(`password hashing thread exited (${code})`)));
    slots.push(slot);
    return slot;
  }

  function dispatch(): void {
    while (!closed && queue.length > 0) {
      const slot = slots.find((s) => s.job === null) ?? (slots.length < threads ? spawn() : undefined);
      if (slot === undefined) return;
      const job = queue.shift() as Job;
      slot.job = job;
      // A thread with work keeps the process alive until the answer arrives.
      slot.worker.ref();
      slot.worker.postMessage({
        id: job.id,
        password: job.password,
        salt: job.salt,
        keyLength: job.keyLength,
        options: job.options,
      });
    }
  }

  const deriveKey: DeriveKey = (password, salt, keyLength, scryptOptions) =>
    new Promise<Buffer>((resolve, reject) => {
      if (closed) {
        reject(new Error("the password hasher is closed"));
        return;
      }
      queue.push({ id: nextId++, password, salt: new Uint8Array(salt), keyLength, options: scryptOptions, resolve, reject });
      dispatch();
    });

  return {
    deriveKey,
    pending: () => queue.length + slots.filter((s) => s.job !== null).length,
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error("the password hasher is closed"));
      await Promise.all(slots.splice(0).map((slot) => slot.worker.terminate()));
    },
  };
}
