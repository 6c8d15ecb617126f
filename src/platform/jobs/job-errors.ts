// The errors a job handler throws to steer the worker (see worker.ts for what each outcome means).
/** Throw from a handler to choose when the next attempt runs. */
export class RetryJobError extends Error {
  readonly delayMs: number;
  constructor(message: string, delayMs: number) {
    super(message);
    this.delayMs = delayMs;
  }
}

/** Throw from a handler when no retry can succeed (a refused recipient, a malformed payload): the job is buried at once. */
export class PermanentJobError extends Error {}

/** Lease-lost signal from completeWithin callers. */
export class LeaseLostError extends Error {
  constructor() {
    super("job lease lost");
  }
}
