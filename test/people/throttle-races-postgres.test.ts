// The credential throttle under concurrency (issue 24, items 4 and 5), on PostgreSQL only: PGlite runs one
// transaction at a time, so it cannot show a race. For every route that checks a password, a code, a
// recovery code or a reset token, a burst of wrong attempts at once is checked at most `limit` times (the
// rest answer 429 before anything is checked), and the right credential right after is refused while the
// throttle holds. Before the fix, failures were counted before the check and written after it: all 100
// wrong passwords of a burst were checked, and the right one sent with the burst signed in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import {
  REGISTRATION_PASSWORD,
  resetTokenFor,
  type SignedIn,
  STRONG_PASSWORD,
  sessionHeaders,
  signedInFrom,
  signIn,
  totpCode,
} from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";

/** SIGN_IN_FAILURES_PER_ACCOUNT's default: at most this many wrong attempts of one account are checked. */
const LIMIT = 5;
const BURST = 40;

let addressCounter = 0;
/** A client address of its own for each case, so one case's failures never count against another's. */
const newClientAddress = () => `198.51.100.${++addressCounter}`;

interface Tally {
  readonly checked: number;
  readonly throttled: number;
  readonly other: string[];
}

/** How many answers said "wrong" (the credential was checked) and how many 429 (refused before any check). */
function tally(responses: readonly { statusCode: number; body: string }[], wrongCode: string): Tally {
  let checked = 0;
  let throttled = 0;
  const other: string[] = [];
  for (const r of responses) {
    const code = (JSON.parse(r.body) as { error?: { code?: string } }).error?.code;
    if (code === wrongCode) checked++;
    else if (r.statusCode === 429 && code === "SIGN_IN_THROTTLED") throttled++;
    else other.push(`${r.statusCode} ${r.body}`);
  }
  return { checked, throttled, other };
}

/** A six-digit code the service refuses at `at` (not the current window's, nor either neighbour's). */
function wrongCodes(secret: string, at: Date, count: number): string[] {
  const valid = new Set([-30_000, 0, 30_000].map((offset) => totpCode(secret, new Date(at.getTime() + offset))));
  const codes: string[] = [];
  for (let n = 0; codes.length < count; n++) {
    const code = String(100_000 + n * 7919).slice(-6);
    if (!valid.has(code)) codes.push(code);
  }
  return codes;
}

describe.skipIf(!onPostgres)("the credential throttle under concurrent attempts (PostgreSQL)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  const post = (url: string, remoteAddress: string, payload: object, s?: SignedIn, method: "POST" | "PUT" = "POST") =>
    t.app.inject({ method, url, remoteAddress, payload, ...(s === undefined ? {} : { headers: sessionHeaders(s, null) }) });

  async function enrolled(name: string): Promise<{ business: RegisteredBusiness; secret: string; recoveryCodes: string[] }> {
    const business = await registerBusiness(t.app, name);
    const s = await signIn(t.app, business.email);
    const started = await post("/v1/session/two-factor/enrolment", "127.0.0.1", {}, s);
    expect(started.statusCode, started.body).toBe(200);
    const secret = started.json().secret as string;
    const confirmed = await post(
      "/v1/session/two-factor/enrolment/confirmation",
      "127.0.0.1",
      { code: totpCode(secret, t.clock.now()) },
      s,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // The next code must come from a later 30-second window (a code is accepted once).
    t.clock.advance(60_000);
    return { business, secret, recoveryCodes: confirmed.json().recovery_codes as string[] };
  }

  it("sign-in: of 60 wrong passwords at once, 5 are checked; the right one sent with the burst, and after it, is refused", async () => {
    const business = await registerBusiness(t.app, "Sign-in Burst Co");
    const address = newClientAddress();
    const attempts = [
      ...Array.from({ length: 60 }, (_, i) =>
        post("/v1/session", address, { email: business.email, password: `wrong-password-${i}` }),
      ),
      // The right password, last of the burst: sent before any wrong one has been answered.
      post("/v1/session", address, { email: business.email, password: REGISTRATION_PASSWORD }),
    ];
    const responses = await Promise.all(attempts);
    const right = responses.pop();
    expect(right?.statusCode, right?.body).toBe(429);
    expect(tally(responses, "INVALID_CREDENTIALS")).toEqual({ checked: LIMIT, throttled: 60 - LIMIT, other: [] });
    const after = await post("/v1/session", address, { email: business.email, password: REGISTRATION_PASSWORD });
    expect(after.statusCode, after.body).toBe(429);
    // From another address too: the account's own limit holds.
    const elsewhere = await post("/v1/session", newClientAddress(), { email: business.email, password: REGISTRATION_PASSWORD });
    expect(elsewhere.statusCode, elsewhere.body).toBe(429);
  });

  it("the second factor of sign-in: codes and recovery codes at once, 5 checked; the right code after is refused", async () => {
    const { business, secret, recoveryCodes } = await enrolled("Second Factor Burst Co");
    const pending = await signIn(t.app, business.email);
    expect(pending.body.session.next_step).toBe("two_factor");
    const address = newClientAddress();
    const wrong = wrongCodes(secret, t.clock.now(), BURST);
    const responses = await Promise.all(
      wrong.map((code, i) =>
        post("/v1/session/two-factor", address, i % 2 === 0 ? { code } : { recovery_code: `wrong-${code}-code` }, pending),
      ),
    );
    expect(tally(responses, "INVALID_TWO_FACTOR_CODE")).toEqual({ checked: LIMIT, throttled: BURST - LIMIT, other: [] });
    const right = await post("/v1/session/two-factor", address, { code: totpCode(secret, t.clock.now()) }, pending);
    expect(right.statusCode, right.body).toBe(429);
    const recovery = await post("/v1/session/two-factor", address, { recovery_code: recoveryCodes[0] ?? "" }, pending);
    expect(recovery.statusCode, recovery.body).toBe(429);
  });

  it("step-up confirmation: of 40 wrong passwords at once, 5 are checked; the right one after is refused", async () => {
    const business = await registerBusiness(t.app, "Step-up Burst Co");
    const s = await signIn(t.app, business.email);
    const address = newClientAddress();
    const responses = await Promise.all(
      Array.from({ length: BURST }, (_, i) => post("/v1/session/confirmation", address, { password: `wrong-${i}-password` }, s)),
    );
    expect(tally(responses, "INVALID_PASSWORD")).toEqual({ checked: LIMIT, throttled: BURST - LIMIT, other: [] });
    const right = await post("/v1/session/confirmation", address, { password: REGISTRATION_PASSWORD }, s);
    expect(right.statusCode, right.body).toBe(429);
  });

  it("turning two-factor off: of 40 wrong codes at once, 5 are checked; the right code after is refused and it stays on", async () => {
    const { business, secret } = await enrolled("Disable Burst Co");
    const pending = await signIn(t.app, business.email);
    const done = await post("/v1/session/two-factor", "127.0.0.1", { code: totpCode(secret, t.clock.now()) }, pending);
    expect(done.statusCode, done.body).toBe(200);
    const s = signedInFrom(done);
    t.clock.advance(60_000);
    const address = newClientAddress();
    const responses = await Promise.all(
      wrongCodes(secret, t.clock.now(), BURST).map((code) => post("/v1/session/two-factor/disable", address, { code }, s)),
    );
    expect(tally(responses, "INVALID_TWO_FACTOR_CODE")).toEqual({ checked: LIMIT, throttled: BURST - LIMIT, other: [] });
    const right = await post("/v1/session/two-factor/disable", address, { code: totpCode(secret, t.clock.now()) }, s);
    expect(right.statusCode, right.body).toBe(429);
    const current = await t.app.inject({ method: "GET", url: "/v1/session", headers: sessionHeaders(s, null) });
    expect(current.json().user.two_factor_enabled).toBe(true);
  });

  it("confirming an enrolment: of 40 wrong codes at once, 5 are checked; the right code after is refused", async () => {
    const business = await registerBusiness(t.app, "Enrolment Burst Co");
    const s = await signIn(t.app, business.email);
    const started = await post("/v1/session/two-factor/enrolment", "127.0.0.1", {}, s);
    const secret = started.json().secret as string;
    const address = newClientAddress();
    const responses = await Promise.all(
      wrongCodes(secret, t.clock.now(), BURST).map((code) =>
        post("/v1/session/two-factor/enrolment/confirmation", address, { code }, s),
      ),
    );
    expect(tally(responses, "INVALID_TWO_FACTOR_CODE")).toEqual({ checked: LIMIT, throttled: BURST - LIMIT, other: [] });
    const right = await post(
      "/v1/session/two-factor/enrolment/confirmation",
      address,
      { code: totpCode(secret, t.clock.now()) },
      s,
    );
    expect(right.statusCode, right.body).toBe(429);
  });

  it("changing the password: of 40 wrong current passwords at once, 5 are checked; the right one after is refused", async () => {
    const business = await registerBusiness(t.app, "Password Burst Co");
    const s = await signIn(t.app, business.email);
    const address = newClientAddress();
    const change = (current_password: string) =>
      post("/v1/session/password", address, { current_password, new_password: STRONG_PASSWORD }, s, "PUT");
    const responses = await Promise.all(Array.from({ length: BURST }, (_, i) => change(`wrong-${i}-password`)));
    expect(tally(responses, "INVALID_PASSWORD")).toEqual({ checked: LIMIT, throttled: BURST - LIMIT, other: [] });
    const right = await change(REGISTRATION_PASSWORD);
    expect(right.statusCode, right.body).toBe(429);
  });

  it("a password reset's token: of 40 wrong tokens at once from one address, 5 are checked; a real token after is refused", async () => {
    const business = await registerBusiness(t.app, "Reset Burst Co");
    const asked = await post("/v1/password-resets", "127.0.0.1", { email: business.email });
    expect(asked.statusCode).toBe(202);
    const token = (await resetTokenFor(t.app, business.email)) ?? "";
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const address = newClientAddress();
    const confirmReset = (resetToken: string) =>
      post("/v1/password-resets/confirmation", address, { token: resetToken, password: STRONG_PASSWORD });
    const responses = await Promise.all(
      Array.from({ length: BURST }, (_, i) => confirmReset(`${String(i).padStart(2, "0")}${"x".repeat(41)}`)),
    );
    expect(tally(responses, "PASSWORD_RESET_INVALID")).toEqual({ checked: LIMIT, throttled: BURST - LIMIT, other: [] });
    const right = await confirmReset(token);
    expect(right.statusCode, right.body).toBe(429);
    // Refused before the token was looked at: it still works from elsewhere, once.
    expect(
      (await post("/v1/password-resets/confirmation", newClientAddress(), { token, password: STRONG_PASSWORD })).statusCode,
    ).toBe(204);
  });
});
