// The webhook envelope (spec "Envelope") built from a recorded event: one shaping for the webhook body and
// for the events API, so what `GET /v1/events` shows is what a receiver is sent.

/** What the envelope needs of a recorded event. */
export interface EnvelopeSource {
  readonly id: string;
  readonly type: string;
  readonly apiVersion: string;
  readonly occurredAt: Date;
  readonly sequence: number;
  readonly data: unknown;
}

export interface EventEnvelope {
  readonly id: string;
  readonly type: string;
  readonly api_version: string;
  readonly occurred_at: string;
  readonly created_at: string;
  readonly sequence: number;
  readonly data: unknown;
}

/**
 * `createdAt` is when this copy was made: a webhook attempt's send time (differs on each retry); for the
 * events API, when the event was recorded. The key order is the order receivers see in the body.
 */
export function eventEnvelope(event: EnvelopeSource, createdAt: Date): EventEnvelope {
  return {
    id: event.id,
    type: event.type,
    // The version the data was recorded with: a copy made after an upgrade still describes its own shape.
    api_version: event.apiVersion,
    occurred_at: event.occurredAt.toISOString(),
    created_at: createdAt.toISOString(),
    sequence: event.sequence,
    data: event.data,
  };
}
