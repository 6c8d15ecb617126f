// The hosted collection pages: GET and POST /collect/{token}. Public (the token is the only credential),
// server-rendered, no JavaScript. In an encapsulated Fastify context so that only these routes parse
// application/x-www-form-urlencoded (the API stays JSON-only) and answer errors as HTML pages.
//
// The flow: step 1 (GET, country and currency of the bank, only when the payee must add an account) leads to
// step 2 (the form, asking what that country and currency need); GET /collect/{token}/logo serves the
// Business's uploaded logo, so the page never loads anything from a third party.
//
// Protections: every response carries a strict CSP (the inline stylesheets by hash, no script except step
// 1's by hash, images from this origin only, forms post to this origin only, no framing), Referrer-Policy no-referrer (the token is in the URL), and
// Cache-Control no-store. Forms carry a CSRF token bound to a SameSite=Lax cookie and to the request id
// (double-submit cookie, HMAC-keyed), and cross-site POSTs are refused. Requests are rate limited per client
// address. The token never reaches a log line: the request log names the route template, not the URL.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import {
  type CollectionService,
  defaultCurrencyOf,
  isCountryCode,
  isCurrencyCode,
  type LinkView,
  type TaxForm,
} from "../../modules/collection/index.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { AppError } from "../../platform/errors.js";
import { checkBodyEncoding } from "../../platform/http/json-body.js";
import { decodeUtf8 } from "../../platform/http/text-input.js";
import type { AppInstance } from "../../platform/http/types.js";
import { type RateLimiter, rateLimitHeaders } from "../../platform/rate-limit.js";
import { type FormFields, isTaxForm, joinDateParts, parseFormBody, submissionOf } from "./form.js";
import { brandStyleHash, PAGE_CSS_HASH, STEP_SCRIPT_HASH } from "./html.js";
import {
  type BankChoice,
  renderBankStepPage,
  renderClosedPage,
  renderFormPage,
  renderProblemPage,
  renderThanksPage,
} from "./views.js";

export interface CollectionPagesDeps {
  readonly collection: Pick<CollectionService, "open" | "submit" | "logo">;
  readonly limiter: RateLimiter;
  readonly cipher: Pick<FieldCipher, "fingerprint">;
  /** PUBLIC_BASE_URL: an https base also marks the CSRF cookie Secure (HSTS: the app's own hook, strict-transport.ts). */
  readonly publicBaseUrl: string;
}

export const COLLECT_PATH = "/collect/:token";
const CSRF_COOKIE = "collect_csrf";
const FORM_BODY_LIMIT = 64 * 1024;

/** What a page may load beyond the base stylesheet: the brand colour's stylesheet, step 1's script. */
interface PageExtras {
  readonly brandColor?: string | null;
  readonly script?: boolean;
}

function contentSecurityPolicy(extras: PageExtras = {}): string {
  const styles = [PAGE_CSS_HASH, ...(extras.brandColor ? [brandStyleHash(extras.brandColor)] : [])];
  return [
    "default-src 'none'",
    `style-src ${styles.map((hash) => `'${hash}'`).join(" ")}`,
    ...(extras.script ? [`script-src '${STEP_SCRIPT_HASH}'`] : []),
    "img-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** HSTS is not here: the app sends it on every answer when PUBLIC_BASE_URL is https (platform/http/strict-transport.ts). */
function securityHeaders(): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(),
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    pragma: "no-cache",
    "x-content-type-options": "nosniff",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
    "x-robots-tag": "noindex, nofollow",
  };
}

function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (header === undefined) return null;
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) {
      const value = rest.join("=");
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
    }
  }
  return null;
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

export function registerCollectionPages(app: AppInstance, deps: CollectionPagesDeps): void {
  const https = deps.publicBaseUrl.startsWith("https:");
  const headers = securityHeaders();
  const csrfFor = (cookie: string, requestId: string) => deps.cipher.fingerprint(`collect-csrf:${cookie}:${requestId}`);

  const html = (reply: FastifyReply, status: number, body: string, extras: PageExtras = {}) =>
    reply
      .code(status)
      .header("content-security-policy", contentSecurityPolicy(extras))
      .type("text/html; charset=utf-8")
      .send(body);

  /** The account's country and currency when both are valid ISO codes, else null. */
  function bankChoiceOf(country: string | undefined, currency: string | undefined): BankChoice | null {
    const c = country?.trim().toUpperCase() ?? "";
    const cur = currency?.trim().toUpperCase() ?? "";
    return isCountryCode(c) && isCurrencyCode(cur) ? { country: c, currency: cur } : null;
  }

  /** What step 2 assumes when step 1 was skipped: the country we know of the payee and its usual currency. */
  function assumedBank(view: LinkView): BankChoice | null {
    if (view.knownCountry === null) return null;
    const currency = defaultCurrencyOf(view.knownCountry);
    return currency === null ? null : { country: view.knownCountry, currency };
  }

  /** The CSRF cookie of this browser, set when missing (kept when present, so two tabs share it). */
  function ensureCsrfCookie(request: FastifyRequest, reply: FastifyReply): string {
    const existing = readCookie(request, CSRF_COOKIE);
    if (existing !== null) return existing;
    const value = randomBytes(32).toString("base64url");
    reply.header(
      "set-cookie",
      `${CSRF_COOKIE}=${value}; Path=/collect; HttpOnly; SameSite=Lax; Max-Age=86400${https ? "; Secure" : ""}`,
    );
    return value;
  }

  function renderForm(
    reply: FastifyReply,
    request: FastifyRequest,
    token: string,
    view: LinkView,
    status: number,
    extra: {
      taxForm?: TaxForm | null;
      values?: FormFields;
      errors?: ReadonlyMap<string, string>;
      bank?: BankChoice | null;
    },
  ) {
    const cookie = ensureCsrfCookie(request, reply);
    // What the Business already gave is filled in and editable: identity, address, the account holder's name.
    const values: Record<string, string> = {
      ...view.identity,
      "bank.account_holder_name": view.legalName,
      ...(extra.values ?? {}),
    };
    return html(
      reply,
      status,
      renderFormPage({
        view,
        action: `/collect/${token}`,
        csrf: csrfFor(cookie, view.requestId),
        state: { values, errors: extra.errors ?? new Map() },
        bank: extra.bank === undefined ? assumedBank(view) : extra.bank,
        ...(extra.taxForm !== undefined ? { taxForm: extra.taxForm } : {}),
      }),
      { brandColor: view.branding.color },
    );
  }

  void app.register(async (pages) => {
    // Forms only here (a JSON body is 415), and form bodies nowhere else.
    pages.removeAllContentTypeParsers();
    pages.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "buffer", bodyLimit: FORM_BODY_LIMIT },
      (request, body, done) => {
        try {
          // A foreign charset or a compressed body is 415; bytes that are not UTF-8 or text the API would
          // refuse (NUL, control characters) are 400: both become this context's problem pages.
          checkBodyEncoding(request);
          const text = typeof body === "string" ? body : decodeUtf8(body);
          const fields = text === null ? null : parseFormBody(text);
          if (fields === null) throw new AppError("bad_request", { message: "The form is not valid UTF-8 text." });
          done(null, fields);
        } catch (error) {
          done(error as Error, undefined);
        }
      },
    );

    pages.addHook("onRequest", async (request, reply) => {
      reply.headers(headers);
      const decision = await deps.limiter.consume(request.ip);
      if (!decision.allowed) {
        throw new AppError("RATE_LIMITED", {
          headers: { ...rateLimitHeaders(decision), "retry-after": String(decision.resetSeconds) },
        });
      }
    });

    // Errors of these routes are pages, not JSON envelopes; nothing internal is shown.
    pages.setErrorHandler((error: FastifyError, request, reply) => {
      reply.headers(headers);
      if (error instanceof AppError && error.is("RATE_LIMITED")) {
        reply.headers(error.headers);
        return html(reply, 429, renderProblemPage("Too many attempts", "Wait a few minutes, then open your link again."));
      }
      const status = error instanceof AppError ? error.status : (error.statusCode ?? 500);
      if (status === 413) return html(reply, 413, renderProblemPage("Too much data", "The form sent more data than expected."));
      if (status >= 400 && status < 500) {
        return html(
          reply,
          status === 415 ? 415 : 400,
          renderProblemPage("The form could not be read", "Reload the page and try again."),
        );
      }
      request.log.error({ err: error }, "collection page failed");
      return html(
        reply,
        500,
        renderProblemPage(
          "Something went wrong",
          `Nothing was saved. Try again in a few minutes. Reference: ${String(request.id)}`,
        ),
      );
    });

    const routeOptions = { config: { rateLimit: "none" as const }, schema: { hide: true } };

    pages.get<{
      Params: { token: string };
      Querystring: { form?: string; step?: string; country?: string; currency?: string };
    }>(COLLECT_PATH, routeOptions, async (request, reply) => {
      const { token } = request.params;
      const found = await deps.collection.open(token);
      if (!found.live)
        return html(reply, found.reason === "unknown" ? 404 : 410, renderClosedPage(found.reason, found.businessName));
      const { view } = found;
      const query = request.query;
      if (view.scope === "tax_documents") {
        const form = query.form;
        return renderForm(reply, request, token, view, 200, { taxForm: isTaxForm(form) ? form : null });
      }
      const chosen = bankChoiceOf(query.country, query.currency);
      const answered = query.country !== undefined || query.currency !== undefined;
      // Step 1 when asked for, when its answer was incomplete, or when the payee has no account to choose
      // and must add one. A payee with accounts goes straight to the form (adding one is a link to step 1).
      if (query.step === "bank" || (answered && chosen === null) || (!answered && view.destinations.length === 0)) {
        const errors = new Map<string, string>();
        const country = query.country?.trim().toUpperCase() ?? "";
        const currency = query.currency?.trim().toUpperCase() ?? "";
        if (query.step !== "bank" && answered) {
          if (!isCountryCode(country)) errors.set("country", "Choose the country of your bank.");
          if (!isCurrencyCode(currency)) errors.set("currency", "Choose the currency of your account.");
        }
        const assumed = assumedBank(view);
        return html(
          reply,
          errors.size > 0 ? 400 : 200,
          renderBankStepPage({
            view,
            action: `/collect/${token}`,
            country: isCountryCode(country) ? country : (assumed?.country ?? ""),
            currency: isCurrencyCode(currency)
              ? currency
              : ((isCountryCode(country) ? defaultCurrencyOf(country) : assumed?.currency) ?? ""),
            errors,
          }),
          { brandColor: view.branding.color, script: true },
        );
      }
      return renderForm(reply, request, token, view, 200, chosen === null ? {} : { bank: chosen });
    });

    // The Business's uploaded logo, for the pages of a live link only (an expired link shows no branding).
    pages.get<{ Params: { token: string } }>(`${COLLECT_PATH}/logo`, routeOptions, async (request, reply) => {
      const logo = await deps.collection.logo(request.params.token);
      if (logo === null) return html(reply, 404, renderProblemPage("Not found", "There is no image here."));
      return reply.code(200).header("content-type", logo.mediaType).send(logo.bytes);
    });

    pages.post<{ Params: { token: string }; Body: FormFields | undefined }>(
      COLLECT_PATH,
      routeOptions,
      async (request, reply) => {
        const { token } = request.params;
        const found = await deps.collection.open(token);
        if (!found.live) {
          const status = found.reason === "unknown" ? 404 : found.reason === "consumed" ? 409 : 410;
          return html(reply, status, renderClosedPage(found.reason, found.businessName));
        }
        const fields: FormFields = joinDateParts(request.body ?? {});
        // Cross-site form posts are refused outright; then the double-submit token must match this browser's cookie.
        const site = request.headers["sec-fetch-site"];
        const cookie = readCookie(request, CSRF_COOKIE);
        const sent = fields.csrf ?? "";
        if (
          site === "cross-site" ||
          site === "same-site" ||
          cookie === null ||
          !constantTimeEqual(sent, csrfFor(cookie, found.view.requestId))
        ) {
          return html(
            reply,
            403,
            renderProblemPage(
              "This form has expired",
              "Your browser did not send the form's security check (it may block cookies, or the form was opened elsewhere). Open your link again and resubmit. Nothing was saved.",
              found.view.businessName,
            ),
          );
        }
        const submission = submissionOf(found.view, fields);
        if (submission === null) return renderForm(reply, request, token, found.view, 400, { taxForm: null });
        const outcome = await deps.collection.submit(token, submission);
        if (outcome.outcome === "closed") {
          return html(reply, outcome.reason === "consumed" ? 409 : 410, renderClosedPage(outcome.reason, outcome.businessName));
        }
        if (outcome.outcome === "submitted") {
          return html(reply, 200, renderThanksPage(outcome.view, outcome.destination, `/collect/${token}`), {
            brandColor: outcome.view.branding.color,
          });
        }
        const errors = new Map<string, string>();
        for (const detail of outcome.details) if (!errors.has(detail.field)) errors.set(detail.field, detail.message);
        const values: Record<string, string> = { ...fields };
        delete values.csrf;
        const posted = bankChoiceOf(fields["bank.country"], fields["bank.currency"]);
        return renderForm(reply, request, token, outcome.view, 422, {
          values,
          errors,
          ...(posted === null ? {} : { bank: posted }),
          ...(submission.scope === "tax_documents" ? { taxForm: submission.form } : {}),
        });
      },
    );
  });
}
