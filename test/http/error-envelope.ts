// Assertions on the spec's error envelope, shared by the HTTP tests and the tenancy matrix.
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";

export const DOCS_BASE_URL = "http://service.test/docs";

export interface ExpectedActor {
  readonly user_id: string;
  readonly membership_id: string;
  readonly role: "business_admin" | "business_approver" | "business_read_only";
  readonly environment: "sandbox" | "production";
}

export interface ErrorDetailBody {
  readonly field: string;
  readonly code: string;
  readonly message: string;
}

export interface ErrorBody {
  readonly code: string;
  readonly message: string;
  readonly request_id: string;
  readonly occurred_at: string;
  readonly actor: ExpectedActor | null;
  readonly details?: ErrorDetailBody[];
  readonly docs_url: string;
}

export interface ExpectedError {
  readonly status: number;
  readonly code: string;
  /** null: unauthenticated caller; an object: exactly this actor. */
  readonly actor: ExpectedActor | null;
  /** Whether `details` is present; by default only for validation_failed. */
  readonly details?: boolean;
  /** The exact message, when the test cares. */
  readonly message?: string;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Checks the whole envelope shape and returns its `error` object. */
export function expectErrorEnvelope(response: LightMyRequestResponse, expected: ExpectedError): ErrorBody {
  const context = `${response.statusCode} ${response.body}`;
  expect(response.statusCode, context).toBe(expected.status);
  expect(response.headers["content-type"], context).toMatch(/^application\/json/);
  const requestId = response.headers["x-request-id"];
  expect(typeof requestId, context).toBe("string");
  expect(String(requestId).length, context).toBeGreaterThan(0);

  const body = response.json() as { error: ErrorBody };
  expect(Object.keys(body), context).toEqual(["error"]);
  const error = body.error;
  const withDetails = expected.details ?? expected.code === "validation_failed";
  const keys = ["code", "message", "request_id", "occurred_at", "actor", "docs_url", ...(withDetails ? ["details"] : [])];
  expect(Object.keys(error).sort(), context).toEqual(keys.sort());

  expect(error.code, context).toBe(expected.code);
  expect(typeof error.message).toBe("string");
  expect(error.message.trim().length, context).toBeGreaterThan(0);
  if (expected.message !== undefined) expect(error.message).toBe(expected.message);
  expect(error.request_id).toBe(requestId);
  expect(error.occurred_at).toMatch(ISO_DATE_TIME);
  expect(Number.isNaN(Date.parse(error.occurred_at))).toBe(false);
  expect(error.docs_url).toBe(`${DOCS_BASE_URL}/errors#${expected.code.toLowerCase()}`);

  if (expected.actor === null) {
    expect(error.actor, context).toBeNull();
  } else {
    expect(error.actor, context).toEqual(expected.actor);
  }

  if (withDetails) {
    expect(Array.isArray(error.details), context).toBe(true);
    expect(error.details?.length ?? 0, context).toBeGreaterThan(0);
    for (const detail of error.details ?? []) {
      // A limit refusal (issue 29) adds the limit and, for a day, its usage.
      const optional = new Set(["limit_minor", "used_minor"]);
      expect(
        Object.keys(detail)
          .filter((k) => !optional.has(k))
          .sort(),
      ).toEqual(["code", "field", "message"]);
      expect(typeof detail.field).toBe("string");
      expect(detail.message.length).toBeGreaterThan(0);
    }
  }
  return error;
}

/** `details` as comparable `field:code` strings, sorted. */
export function detailCodes(error: ErrorBody): string[] {
  return (error.details ?? []).map((d) => `${d.field}:${d.code}`).sort();
}
