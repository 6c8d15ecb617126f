import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { TOP_UP_ERRORS } from "./top-ups.errors.js";
import {
  CreateTopUpBodySchema,
  FundingAccountParamsSchema,
  RejectTopUpBodySchema,
  TopUpListQuerySchema,
  TopUpListSchema,
  TopUpParamsSchema,
} from "./top-ups.schemas.js";
import type { TopUpService } from "./top-ups.service.js";

const tags = ["Top-ups"];
const topUp = Type.Ref("TopUp");
const DECISION =
  "Approvers and admins, never the person who recorded it (compared by person: their membership or user, with any of their keys: 403 `TOP_UP_MAKER_CHECKER_VIOLATION`). A top-up is decided once: any later approval or rejection, also the loser of two at once, is 409 `TOP_UP_ALREADY_DECIDED`.";

export function registerTopUpRoutes(app: AppInstance, service: TopUpService): void {
  app.post(
    "/v1/funding-accounts/:id/top-ups",
    {
      schema: {
        tags,
        operationId: "createTopUp",
        summary: "Record a top-up",
        description:
          "Records money the Business moved into the funding account's bank account (`amount_minor` in the account's currency, the transfer's `reference`). It stays `pending_approval`, crediting nothing, until a different person approves it. Admins. 404 `not_found` for an unknown funding account.",
        params: FundingAccountParamsSchema,
        body: CreateTopUpBodySchema,
        response: routeResponses({ 201: topUp }, { access: "write", hasBody: true, hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(requireActor(request), request.params.id, request.body)),
  );

  app.get(
    "/v1/top-ups",
    {
      schema: {
        tags,
        operationId: "listTopUps",
        summary: "List top-ups",
        description: "Newest first, in cursor pages; filters `status` and `funding_account_id`. Every role.",
        querystring: TopUpListQuerySchema,
        response: routeResponses({ 200: TopUpListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => service.list(requireActor(request), request.query),
  );

  app.get(
    "/v1/top-ups/:id",
    {
      schema: {
        tags,
        operationId: "getTopUp",
        summary: "Read a top-up",
        description: "One top-up, with who recorded and who decided it. Every role.",
        params: TopUpParamsSchema,
        response: routeResponses({ 200: topUp }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.get(requireActor(request), request.params.id),
  );

  const decisionCodes = [
    "not_found",
    TOP_UP_ERRORS.TOP_UP_ALREADY_DECIDED,
    TOP_UP_ERRORS.TOP_UP_MAKER_CHECKER_VIOLATION,
  ] as const;
  app.post(
    "/v1/top-ups/:id/approve",
    {
      schema: {
        tags,
        operationId: "approveTopUp",
        summary: "Approve a top-up",
        description: `Credits the funding account in the same transaction (a ledger transfer from the outside world, idempotent on \`top_up:<id>:credit\`; see \`transfer_id\`), records \`top_up.approved\` and the audit record, and tries the payouts waiting for funds again. ${DECISION}`,
        params: TopUpParamsSchema,
        response: routeResponses({ 200: topUp }, { access: "write", hasInput: true, codes: decisionCodes }),
      },
    },
    async (request) => service.decide(requireActor(request), request.params.id, { outcome: "approve" }),
  );

  app.post(
    "/v1/top-ups/:id/reject",
    {
      schema: {
        tags,
        operationId: "rejectTopUp",
        summary: "Reject a top-up",
        description: `Nothing is credited; \`reason\` is required and kept. Records \`top_up.rejected\` and the audit record. The person who recorded it may reject it (withdraw it), as with payouts. ${DECISION}`,
        params: TopUpParamsSchema,
        body: RejectTopUpBodySchema,
        response: routeResponses({ 200: topUp }, { access: "write", hasBody: true, hasInput: true, codes: decisionCodes }),
      },
    },
    async (request) =>
      service.decide(requireActor(request), request.params.id, { outcome: "reject", reason: request.body.reason }),
  );
}
