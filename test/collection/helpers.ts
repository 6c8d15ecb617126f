// Shared helpers of the collection-link tests: mint a link, open and submit the hosted page as a browser
// would (cookie + CSRF field), read the outbox.
import { and, asc, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { events } from "../../src/platform/events/events.schema.js";
import type { AppInstance } from "../../src/platform/http/types.js";
import { bearer } from "../helpers/factories.js";
import type { TestApp } from "../helpers/test-app.js";

export type Scope = "full_onboarding" | "payout_destination" | "tax_documents";

export interface MintedLink {
  readonly id: string;
  readonly url: string;
  readonly token: string;
  readonly path: string;
  readonly expires_at: string;
  readonly body: Record<string, unknown>;
}

export async function mintLink(
  app: AppInstance,
  key: string,
  beneficiaryId: string,
  scope: Scope,
  extra: Record<string, unknown> = {},
): Promise<MintedLink> {
  const response = await app.inject({
    method: "POST",
    url: `/v1/beneficiaries/${beneficiaryId}/collection-requests`,
    headers: bearer(key),
    payload: { scope, ...extra },
  });
  if (response.statusCode !== 201) throw new Error(`minting a link failed: ${response.statusCode} ${response.body}`);
  const body = response.json() as { id: string; url: string; expires_at: string };
  const url = new URL(body.url);
  const token = url.pathname.split("/").pop() ?? "";
  return { id: body.id, url: body.url, token, path: url.pathname, expires_at: body.expires_at, body };
}

/** A browser session on the hosted page: keeps the CSRF cookie between requests. */
export class PageSession {
  private cookie: string | null = null;
  constructor(private readonly app: AppInstance) {}

  async get(path: string): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({ method: "GET", url: path, headers: this.cookie ? { cookie: this.cookie } : {} });
    this.remember(response);
    return response;
  }

  /** The CSRF field of the last form page. */
  static csrfOf(page: LightMyRequestResponse): string {
    const match = /name="csrf" value="([^"]+)"/.exec(page.body);
    if (match?.[1] === undefined) throw new Error(`no csrf field in page: ${page.statusCode}`);
    return match[1];
  }

  async post(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method: "POST",
      url: path,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      payload: new URLSearchParams(fields).toString(),
    });
    this.remember(response);
    return response;
  }

  /** Opens the form and submits it with `fields` (plus the page's CSRF field). */
  async submit(path: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
    const page = await this.get(path);
    if (page.statusCode !== 200) throw new Error(`form page answered ${page.statusCode}`);
    return this.post(path.split("?")[0] ?? path, { csrf: PageSession.csrfOf(page), ...fields });
  }

  private remember(response: LightMyRequestResponse): void {
    const set = response.headers["set-cookie"];
    const first = Array.isArray(set) ? set[0] : set;
    if (typeof first === "string") this.cookie = first.split(";")[0] ?? null;
  }
}

export async function eventsOf(t: TestApp, subjectId: string, type?: string) {
  const rows = await t.runtime.deps.database.db
    .select()
    .from(events)
    .where(type === undefined ? eq(events.subjectId, subjectId) : and(eq(events.subjectId, subjectId), eq(events.type, type)))
    .orderBy(asc(events.sequence));
  return rows;
}

export async function readBeneficiary(app: AppInstance, key: string, id: string): Promise<Record<string, unknown>> {
  const response = await app.inject({ method: "GET", url: `/v1/beneficiaries/${id}`, headers: bearer(key) });
  if (response.statusCode !== 200) throw new Error(`read failed: ${response.statusCode} ${response.body}`);
  return response.json() as Record<string, unknown>;
}
