import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { PEOPLE_ERRORS } from "../people/people.errors.js";
import { FUNDING_ERRORS } from "./funding.errors.js";
import {
  BalanceQuerySchema,
  BalanceSchema,
  FundingAccountListQuerySchema,
  FundingAccountListSchema,
  FundingAccountParamsSchema,
  SandboxCreditBodySchema,
  TransferListQuerySchema,
  TransferListSchema,
  UpdateFundingAccountBodySchema,
} from "./funding.schemas.js";
import type { FundingService } from "./funding.service.js";

const tags = ["Funding accounts"];
const account = Type.Ref("FundingAccount");
const transfer = Type.Ref("Transfer");

export function registerFundingRoutes(app: AppInstance, service: FundingService): void {
  app.get(
    "/v1/funding-accounts",
    {
      schema: {
        tags,
        operationId: "listFundingAccounts",
        summary: "List funding accounts",
        description:
          "The environment's funding accounts, newest first: one per configured bank rail's debtor account and currency, one per currency for the production simulator, one per currency in sandbox (created with the first payout approved in that currency). Each with its posted, held (`pending_minor`), available and waiting amounts.",
        querystring: FundingAccountListQuerySchema,
        response: routeResponses({ 200: FundingAccountListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => service.list(requireActor(request), request.query),
  );

  app.get(
    "/v1/funding-accounts/:id",
    {
      schema: {
        tags,
        operationId: "getFundingAccount",
        summary: "Read a funding account",
        description:
          "Its balances and settings. 404 `not_found` for an unknown id or another Business's or environment's account.",
        params: FundingAccountParamsSchema,
        response: routeResponses({ 200: account }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.get(requireActor(request), request.params.id),
  );

  app.patch(
    "/v1/funding-accounts/:id",
    {
      schema: {
        tags,
        operationId: "updateFundingAccount",
        summary: "Change a funding account's settings",
        description:
          "Any of `name`, `enforcement`, `overdraft_limit_minor`, `low_balance_threshold_minor`, `awaiting_funds_expiry_hours`. Admins, with step-up from a session; audited. Turning enforcement off, or raising the overdraft limit while enforced, weakens a control: an API key is refused (403 `CONTROL_WEAKENING_NEEDS_PERSON`), and every admin is e-mailed; with maker-checker on the change is not applied but answered 202 with a pending control change a second admin approves (POST /v1/control-changes/{id}/approve). Turning `enforce` on needs `available_minor >= -overdraft_limit_minor` now (409 `FUNDING_ACCOUNT_OVERDRAWN`). Payouts already waiting are released in approval order when the change lets them fit.",
        params: FundingAccountParamsSchema,
        body: UpdateFundingAccountBodySchema,
        response: routeResponses(
          {
            200: account,
            202: Type.Ref("ControlChange", { description: "The weakening waits for a second admin (maker-checker on)." }),
          },
          {
            access: "write",
            hasBody: true,
            codes: ["not_found", FUNDING_ERRORS.FUNDING_ACCOUNT_OVERDRAWN, PEOPLE_ERRORS.CONTROL_WEAKENING_NEEDS_PERSON],
          },
        ),
      },
    },
    async (request, reply) => {
      const outcome = await service.update(requireActor(request), request.params.id, request.body);
      return outcome.kind === "pending" ? reply.code(202).send(outcome.change) : outcome.account;
    },
  );

  app.get(
    "/v1/funding-accounts/:id/balance",
    {
      schema: {
        tags,
        operationId: "getFundingAccountBalance",
        summary: "A funding account's balance, now or at a past time",
        description:
          "The balances just after the account's last transfer at or before `at` (zero before its first); without `at`, now. Equal, at every instant, to the fold of its transfers.",
        params: FundingAccountParamsSchema,
        querystring: BalanceQuerySchema,
        response: routeResponses({ 200: BalanceSchema }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.balance(requireActor(request), request.params.id, request.query.at),
  );

  app.get(
    "/v1/funding-accounts/:id/transfers",
    {
      schema: {
        tags,
        operationId: "listFundingAccountTransfers",
        summary: "List a funding account's transfers",
        description:
          "Its ledger transfers, newest first, each with its entries (signed, summing to zero), its cause (the payout, top-up, sandbox credit or statement line behind it) and the account's balances just after it. Transfers are immutable.",
        params: FundingAccountParamsSchema,
        querystring: TransferListQuerySchema,
        response: routeResponses({ 200: TransferListSchema }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.transfers(requireActor(request), request.params.id, request.query),
  );

  app.post(
    "/v1/sandbox/funding-accounts/:id/credits",
    {
      schema: {
        tags,
        operationId: "createSandboxCredit",
        summary: "Credit a sandbox funding account",
        description:
          "Sandbox only (a production key answers 403 `forbidden`): posts `amount_minor` to the account at once (outside world -> funding) and releases the payouts waiting for funds that now fit, in approval order. Answers the transfer.",
        params: FundingAccountParamsSchema,
        body: SandboxCreditBodySchema,
        response: routeResponses({ 201: transfer }, { access: "write", hasBody: true, codes: ["not_found"] }),
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.sandboxCredit(requireActor(request), request.params.id, request.body)),
  );
}
