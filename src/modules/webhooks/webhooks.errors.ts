// The webhooks module's error codes: the endpoint's address checks, and redelivery.
// Thrown and declared by their definition (`new AppError(TABLE.CODE)`); see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const WEBHOOK_ERRORS = defineErrorCodes({
  WEBHOOK_URL_NOT_PUBLIC: {
    status: 422,
    message:
      "The webhook URL does not resolve to a public address: use a public HTTPS URL (for local development only, the operator can set WEBHOOK_ALLOW_PRIVATE_TARGETS=true).",
    description:
      "The URL's host is, or resolves to, an address that is not global unicast: loopback, private, link-local (cloud metadata), carrier-grade NAT, unique-local, multicast, documentation or reserved, or an IPv6 address outside 2000::/3 (IPv4-compatible `::a.b.c.d` and IPv4-mapped `::ffff:a.b.c.d` forms included). The message names the host you sent, never the address it resolved to. Webhooks go only to public HTTPS endpoints. For local development and tests only, the operator may start the service with `WEBHOOK_ALLOW_PRIVATE_TARGETS=true`, which lifts this rule (HTTPS is still required).",
  },
  WEBHOOK_URL_UNRESOLVABLE: {
    status: 422,
    message: "The webhook URL's host name does not resolve: check the spelling, or publish its DNS record first.",
    description: "No DNS record answers for the host. Check the spelling, or publish the record first.",
  },
  WEBHOOK_URL_REDIRECTS: {
    status: 422,
    message: "The webhook URL answers with a redirect, and redirects are never followed: subscribe the final URL.",
    description:
      "Redirects are never followed, so a redirecting URL would fail every delivery. Subscribe the final URL (the `Location` the endpoint redirects to).",
  },
  WEBHOOK_URL_UNREACHABLE: {
    status: 422,
    message:
      "The webhook URL could not be reached over HTTPS: check that the endpoint is up, has a valid certificate and answers within 10 seconds.",
    description:
      "A test request to the URL (an unsigned POST with the header `X-Service-Endpoint-Check: 1`) failed: connection refused, TLS error or no answer within 10 seconds. Any HTTP status other than a redirect, even 4xx, is accepted.",
  },
  WEBHOOK_DELIVERY_NOT_ABANDONED: {
    status: 409,
    message: "Only an abandoned delivery can be redelivered: this one succeeded, is still being retried, or was dropped.",
    description:
      "The delivery succeeded, is still being retried, or was dropped. Only a delivery abandoned after 8 failed attempts is redelivered on request.",
  },
  WEBHOOK_SUBSCRIPTION_INACTIVE: {
    status: 409,
    message:
      "The webhook subscription is missing, disabled, or does not list this event type: create or enable it and list the event type, then redeliver.",
    description: "A redelivery goes to the current subscription: create or enable it, and list the event type, first.",
  },
});
