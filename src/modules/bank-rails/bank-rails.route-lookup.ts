// Routing as the callers need it: the facts the rule reads (the Business's configured rails, the destinations'
// routing facts) read in the caller's transaction, then the one rule (routePayout) applied to each request.
// Payout creation, collection submissions and the disbursement's queueing all route through here, so they
// cannot disagree on where a payout goes or on what refuses it.
import type { Tenant } from "../../platform/auth/actor.js";
import type { Tx } from "../../platform/db/client.js";
import type { SepaFileVersion } from "../../rails/bank-files/limits.js";
import type { DestinationRoutingFacts } from "../destinations/index.js";
import { listConfiguredRailFormats } from "./bank-rails.repo.js";
import { type RailRoute, routePayout } from "./bank-rails.routing.js";
import type { BankRailName } from "./bank-rails.schemas.js";

/** Routing facts of destinations by id, one query for all (unknown ids are absent). */
export type RoutingFactsOf = (
  tx: Tx,
  tenant: Tenant,
  destinationIds: readonly string[],
) => Promise<ReadonlyMap<string, DestinationRoutingFacts>>;

export interface RouteRequest {
  readonly destinationId: string;
  readonly currency: string;
}

export interface RoutedRequest {
  readonly destination: DestinationRoutingFacts;
  readonly route: RailRoute;
}

export interface Routing {
  /** The SEPA rail's file format (what a SEPA file can carry depends on it). */
  readonly sepaFormat: SepaFileVersion;
  /** Per request, in order: its destination's facts and its route; null when the destination is unknown. */
  readonly routed: ReadonlyArray<RoutedRequest | null>;
}

function sepaFormatOf(rails: ReadonlyArray<{ rail: string; fileFormat: string }>): SepaFileVersion {
  return rails.find((r) => r.rail === "sepa")?.fileFormat === "pain.001.001.03" ? "pain.001.001.03" : "pain.001.001.09";
}

/**
 * The bank rails the tenant configured, with the SEPA file format; null when bank routing does not apply:
 * sandbox (the sandbox rail takes every payout) or a Business with no bank rail (the production simulator
 * takes every payout).
 */
export async function configuredRailsOf(
  tx: Tx,
  tenant: Tenant,
): Promise<{ readonly configured: ReadonlySet<BankRailName>; readonly sepaFormat: SepaFileVersion } | null> {
  if (tenant.environment !== "production") return null;
  const rails = await listConfiguredRailFormats(tx, tenant);
  if (rails.length === 0) return null;
  return { configured: new Set(rails.map((r) => r.rail as BankRailName)), sepaFormat: sepaFormatOf(rails) };
}

/**
 * Routes every request at once, in the caller's transaction; null when bank routing does not apply (see
 * configuredRailsOf), decided without reading any destination. Two queries at most whatever the number of
 * requests.
 */
export async function routeRequests(
  tx: Tx,
  tenant: Tenant,
  requests: readonly RouteRequest[],
  routingFactsOf: RoutingFactsOf,
): Promise<Routing | null> {
  if (requests.length === 0) return null;
  const rails = await configuredRailsOf(tx, tenant);
  if (rails === null) return null;
  const facts = await routingFactsOf(
    tx,
    tenant,
    requests.map((r) => r.destinationId),
  );
  return {
    sepaFormat: rails.sepaFormat,
    routed: requests.map(({ destinationId, currency }) => {
      const destination = facts.get(destinationId);
      return destination === undefined ? null : { destination, route: routePayout(currency, destination, rails.configured) };
    }),
  };
}
