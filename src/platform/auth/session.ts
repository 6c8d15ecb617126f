// A dashboard session as the access hook sees it, and what authenticates one (the people module provides it).
import type { Role } from "./actor.js";

/** A signed-in person's session, as authentication found it. */
export interface SessionPrincipal {
  readonly sessionId: string;
  readonly userId: string;
  readonly businessId: string;
  readonly membershipId: string;
  readonly role: Role;
  /** Password accepted, second factor still owed. */
  readonly twoFactorPending: boolean;
  /** A password or two-factor confirmation was made within the step-up window. */
  readonly recentlyConfirmed: boolean;
  /** The CSRF token of this session (derived from its secret; never stored). */
  readonly csrfToken: string;
}

export interface SessionAuthenticator {
  readonly cookieName: string;
  /** The live session behind a cookie value, or null for an unknown, ended or expired one. */
  authenticate(
    secret: string,
    origin?: { readonly clientAddress: string; readonly userAgent: string | null },
  ): Promise<SessionPrincipal | null>;
  /** Constant-time comparison of a presented CSRF token with the session's. */
  csrfTokenMatches(principal: SessionPrincipal, presented: string): boolean;
}
