import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { BANK_FILE_REFUSALS } from "../../rails/bank-files/refusals.js";
import { BENEFICIARY_ERRORS } from "../beneficiaries/beneficiaries.errors.js";
import { DESTINATION_ERRORS } from "../destinations/destinations.errors.js";
import { PAYOUT_LIMIT_ERRORS } from "../payout-limits/payout-limits.errors.js";
import { PEOPLE_ERRORS } from "../people/people.errors.js";
import { SCREENING_ERRORS } from "../screening/screening.errors.js";
import type { PayoutBulkService } from "./payouts.bulk.js";
import { PAYOUT_ERRORS } from "./payouts.errors.js";
import { describePayoutExportColumns, type PayoutExportService } from "./payouts.export.js";
import {
  AliasDecisionBodySchema,
  BulkBodySchema,
  BulkResponseSchema,
  CancelBodySchema,
  CreatePayoutBodySchema,
  CreatePayoutHeadersSchema,
  DecisionBodySchema,
  DecisionListSchema,
  DecisionResultSchema,
  ExportPayoutsQuerySchema,
  ListPayoutsQuerySchema,
  PAYOUT_EXPORT_DESCRIPTION,
  PayoutCsvResponseSchema,
  PayoutListSchema,
  PayoutParamsSchema,
  PutApprovalPolicyBodySchema,
  VolumeQuerySchema,
  VolumeSchema,
} from "./payouts.schemas.js";
import type { PayoutService } from "./payouts.service.js";

const tags = ["Payouts"];
const payout = Type.Ref("Payout");

const CREATE_CODES = [
  "not_found",
  PAYOUT_LIMIT_ERRORS.PAYOUT_LIMIT_EXCEEDED,
  BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED,
  BENEFICIARY_ERRORS.BENEFICIARY_SUSPENDED,
  PAYOUT_ERRORS.REACKNOWLEDGMENT_REQUIRED,
  PAYOUT_ERRORS.BENEFICIARY_NOT_COMPLIANT,
  PAYOUT_ERRORS.BENEFICIARY_ENROLLMENT_REJECTED,
  SCREENING_ERRORS.SANCTIONS_REVIEW_REQUIRED,
  DESTINATION_ERRORS.BANK_ACCOUNT_NOT_FOUND,
  DESTINATION_ERRORS.BANK_ACCOUNT_REJECTED,
  DESTINATION_ERRORS.BANK_ACCOUNT_NOT_VALIDATED,
  DESTINATION_ERRORS.NAME_CHECK_NO_MATCH,
  DESTINATION_ERRORS.DESTINATION_NOT_APPROVED,
  DESTINATION_ERRORS.DESTINATION_COOLING_OFF,
  PAYOUT_ERRORS.NO_PAYOUT_DESTINATION,
  PAYOUT_ERRORS.DESTINATION_AMBIGUOUS,
  PAYOUT_ERRORS.CURRENCY_MISMATCH,
  PAYOUT_ERRORS.REPLACED_PAYOUT_NOT_FOUND,
  PAYOUT_ERRORS.REPLACED_PAYOUT_NOT_FAILED,
  PAYOUT_ERRORS.REPLACEMENT_BENEFICIARY_MISMATCH,
  PAYOUT_ERRORS.PAYOUT_ALREADY_REPLACED,
  BANK_FILE_REFUSALS.NO_RAIL_FOR_DESTINATION,
  BANK_FILE_REFUSALS.SEPA_ADDRESS_NOT_STRUCTURED,
  BANK_FILE_REFUSALS.SEPA_NAME_NOT_REPRESENTABLE,
  BANK_FILE_REFUSALS.SEPA_BIC_REQUIRED,
  BANK_FILE_REFUSALS.SEPA_BIC_MISMATCH,
  BANK_FILE_REFUSALS.SEPA_AMOUNT_OUT_OF_RANGE,
  BANK_FILE_REFUSALS.SEPA_FIELD_TOO_LONG,
  BANK_FILE_REFUSALS.ACH_NAME_NOT_REPRESENTABLE,
  BANK_FILE_REFUSALS.ACH_AMOUNT_OUT_OF_RANGE,
  BANK_FILE_REFUSALS.ACH_FIELD_TOO_LONG,
  PAYOUT_ERRORS.IDEMPOTENCY_KEY_REUSED,
  PAYOUT_ERRORS.IDEMPOTENCY_KEY_IN_FLIGHT,
] as const;

const DECISION_DESCRIPTION =
  "Moves a `pending_approval` payout to `approved` (the disbursement is dispatched after commit) or `rejected` (event `payout.rejected` with the `reason`). Answers 201 with the new Decision and the payout. Repeating the same outcome is idempotent (200 with the existing Decision); the other outcome on a decided payout is 409 `PAYOUT_ALREADY_DECIDED`. With maker-checker on, the key that created the payout cannot approve it (403 `MAKER_CHECKER_VIOLATION`). An approval that would take the day's approvals in the payout's currency past the daily limit (GET /v1/payout-limits) is 409 `DAILY_LIMIT_EXCEEDED` and the payout stays `pending_approval`.";

export function registerPayoutRoutes(app: AppInstance, service: PayoutService, bulk: PayoutBulkService): void {
  app.post(
    "/v1/payouts",
    {
      schema: {
        tags,
        operationId: "createPayout",
        summary: "Create a payout",
        description:
          "Creates a payout in `pending_approval` (or decided at once by a matching approval-policy rule). Idempotent on (Business, environment, idempotency key) for 24 hours: the key is `idempotency_key` in the body or the `Idempotency-Key` header. A replay of the same request answers 200 with the payout as it is now and `Idempotent-Replayed: true`; the same key with a different request is 422 `IDEMPOTENCY_KEY_REUSED`; while the first request is still running, 409 `IDEMPOTENCY_KEY_IN_FLIGHT`. A refused request stores nothing, so its key can be used again. Gates: the Beneficiary must be active, not suspended, compliant, without pending re-acknowledgment and not refused by the rail's enrollment; the destination is `bank_account_id`, else the declared destination, else the only payout-usable one; its currency must be the payout's; the amount must be within the per-payout limit of its currency (422 `PAYOUT_LIMIT_EXCEEDED`, `details` naming the limit). In production, once the Business configured a bank rail (SEPA, ACH), the payout must fit one of them: 422 `NO_RAIL_FOR_DESTINATION` otherwise, and a SEPA payout needs a Beneficiary with a structured postal address (422 `SEPA_ADDRESS_NOT_STRUCTURED`) and an account holder name a SEPA file can carry (422 `SEPA_NAME_NOT_REPRESENTABLE`). What the rail's file cannot carry is refused, never cut: the amount beyond the format's field (422 `SEPA_AMOUNT_OUT_OF_RANGE` above 999,999,999.99 EUR, `ACH_AMOUNT_OUT_OF_RANGE` above 99,999,999.99 USD), texts longer than their field once transliterated (Greek and Cyrillic are written in Latin letters): SEPA account holder name 70, `external_ref` 140, postal address line1 70, line2 35, postal_code 16, city 35, state 35 (422 `SEPA_FIELD_TOO_LONG`), ACH account holder name 22 (422 `ACH_FIELD_TOO_LONG`), each `details` entry naming the field and its limit; a SEPA account in a SEPA country outside the EEA (CH, GB, MC, SM, VA, AD, …) without its BIC (422 `SEPA_BIC_REQUIRED`) or with a BIC of another country (422 `SEPA_BIC_MISMATCH`). In a bulk creation each such row gets its own error.",
        headers: CreatePayoutHeadersSchema,
        body: CreatePayoutBodySchema,
        response: routeResponses({ 201: payout, 200: payout }, { access: "write", hasBody: true, codes: [...CREATE_CODES] }),
      },
    },
    async (request, reply) => {
      const result = await service.create(requireActor(request), request.body, request.headers["idempotency-key"]);
      if (result.replayed) reply.header("idempotent-replayed", "true");
      return reply.code(result.replayed ? 200 : 201).send(result.payout);
    },
  );

  app.post(
    "/v1/payouts/bulk",
    {
      schema: {
        tags,
        operationId: "createPayoutsInBulk",
        summary: "Create payouts in bulk (CSV upload)",
        description:
          "1 to 1000 rows, each through the same write path as `POST /v1/payouts` (gates, replacement checks, approval policy), tagged channel `csv` and `upload_id`. Row fields: `beneficiary_id`, optional `bank_account_id`, `amount_minor`, `currency`, optional `external_ref`, optional `idempotency_key`, optional `replaces_payout_id` (a `failed` payout of the same Beneficiary that the row recovers; refused per row as `REPLACED_PAYOUT_NOT_FOUND`, `REPLACED_PAYOUT_NOT_FAILED`, `REPLACEMENT_BENEFICIARY_MISMATCH` or `PAYOUT_ALREADY_REPLACED`, also when an earlier row of the file already replaces it). Each row's idempotency key is `upload:<uploadId>:<index>`, followed by `:<idempotency_key>` when the row carries one; a byte-identical re-upload replays every row (`replayed`). A bad row is `failed` with the code the single route would give, and never aborts the file. Rows are written in batches of 250, each batch one transaction. 409 `UPLOAD_IN_FLIGHT` while the same upload is being processed.",
        body: BulkBodySchema,
        response: routeResponses(
          { 200: BulkResponseSchema },
          { access: "write", hasBody: true, codes: [PAYOUT_ERRORS.UPLOAD_IN_FLIGHT] },
        ),
      },
    },
    async (request) => bulk.createBulk(requireActor(request), request.body),
  );

  app.get(
    "/v1/payouts",
    {
      schema: {
        tags,
        operationId: "listPayouts",
        summary: "List payouts",
        description:
          "Newest first, or with `updatedSince` the payouts changed at or after that time, oldest change first (catch-up after missed webhooks). Filters (all combine): `status`, `beneficiary_id`, `upload_id`, `external_ref`, `replaces_payout_id` (the replacements of a failed payout, every one, live or ended), `channel`, `currency`, `created_from`/`created_to` and `updated_from`/`updated_to` (start inclusive, end exclusive), `amount_min`/`amount_max` (minor units, inclusive); a range whose end is not after its start is 400 `validation_failed`. The cursor is only valid with the same filters. Pages of `limit` (default 50, at most 200); pass `next_cursor` as `cursor`.",
        querystring: ListPayoutsQuerySchema,
        response: routeResponses({ 200: PayoutListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => service.list(requireActor(request), request.query),
  );

  app.get(
    "/v1/payouts/volume",
    {
      schema: {
        tags,
        operationId: "getPayoutVolume",
        summary: "Payout volume per day and currency",
        description:
          "Payouts created in the last `days` calendar days (today included, default 30, at most 90) of `time_zone` (default UTC), counted and summed per day and currency, oldest first. Rejected, canceled and failed payouts are left out: they never moved money. One aggregate read, so a dashboard need not page through every payout.",
        querystring: VolumeQuerySchema,
        response: routeResponses({ 200: VolumeSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => service.volume(requireActor(request), request.query),
  );

  app.get(
    "/v1/payouts/:payoutId",
    {
      schema: {
        tags,
        operationId: "getPayout",
        summary: "Retrieve a payout",
        description:
          "The payout as it is now, with its latest disbursement attempt. A payout of another Business or environment is 404 `not_found`, as is an unknown id.",
        params: PayoutParamsSchema,
        response: routeResponses({ 200: payout }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.get(requireActor(request), request.params.payoutId),
  );

  const decisionResponses = routeResponses(
    { 201: DecisionResultSchema, 200: DecisionResultSchema },
    {
      access: "write",
      hasBody: true,
      hasInput: true,
      codes: [
        "not_found",
        PAYOUT_ERRORS.PAYOUT_ALREADY_DECIDED,
        PAYOUT_ERRORS.MAKER_CHECKER_VIOLATION,
        PAYOUT_LIMIT_ERRORS.DAILY_LIMIT_EXCEEDED,
      ],
    },
  );

  app.post(
    "/v1/payouts/:payoutId/decisions",
    {
      schema: {
        tags,
        operationId: "createPayoutDecision",
        summary: "Record a Decision",
        description: `${DECISION_DESCRIPTION} The Validator is the calling key's person unless \`validator\` says \`automated\` with a \`name\`.`,
        params: PayoutParamsSchema,
        body: DecisionBodySchema,
        response: decisionResponses,
      },
    },
    async (request, reply) => {
      const result = await service.decide(requireActor(request), request.params.payoutId, request.body);
      return reply.code(result.created ? 201 : 200).send({ decision: result.decision, payout: result.payout });
    },
  );

  for (const outcome of ["approve", "reject"] as const) {
    app.post(
      `/v1/payouts/:payoutId/${outcome}`,
      {
        schema: {
          tags,
          operationId: `${outcome}Payout`,
          summary: outcome === "approve" ? "Approve a payout" : "Reject a payout",
          description: `Alias of the decisions route with outcome \`${outcome}\`, by the calling key's person; optional body \`{ "reason": "..." }\`. ${DECISION_DESCRIPTION}`,
          params: PayoutParamsSchema,
          body: AliasDecisionBodySchema,
          response: decisionResponses,
        },
      },
      async (request, reply) => {
        const reason = request.body?.reason;
        const result = await service.decide(requireActor(request), request.params.payoutId, {
          outcome,
          ...(reason === undefined ? {} : { reason }),
        });
        return reply.code(result.created ? 201 : 200).send({ decision: result.decision, payout: result.payout });
      },
    );
  }

  app.get(
    "/v1/payouts/:payoutId/decisions",
    {
      schema: {
        tags,
        operationId: "listPayoutDecisions",
        summary: "Decision history",
        description: "Newest first. A payout has at most one Decision (the one that moved it out of `pending_approval`).",
        params: PayoutParamsSchema,
        response: routeResponses({ 200: DecisionListSchema }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.decisions(requireActor(request), request.params.payoutId),
  );

  app.post(
    "/v1/payouts/:payoutId/cancel",
    {
      schema: {
        tags,
        operationId: "cancelPayout",
        summary: "Cancel a payout",
        description:
          "Production only: cancels a payout that has not been sent to the rail yet (`pending_approval`, or `approved` before dispatch), recording `payout.canceled` with `canceled_by` `business`. Idempotent on a canceled payout. Otherwise 409 `PAYOUT_NOT_CANCELABLE` (in sandbox, where `payout.canceled` never occurs, reject a pending payout instead).",
        params: PayoutParamsSchema,
        body: CancelBodySchema,
        response: routeResponses(
          { 200: payout },
          { access: "write", hasBody: true, hasInput: true, codes: ["not_found", PAYOUT_ERRORS.PAYOUT_NOT_CANCELABLE] },
        ),
      },
    },
    async (request) => service.cancel(requireActor(request), request.params.payoutId, request.body?.reason ?? null),
  );

  app.get(
    "/v1/approval-policy",
    {
      schema: {
        tags,
        operationId: "getApprovalPolicy",
        summary: "Read the approval policy",
        description: "The automated Validator of the key's environment: ordered rules and the maker-checker option.",
        response: routeResponses({ 200: Type.Ref("ApprovalPolicy") }, { access: "read" }),
      },
    },
    async (request) => service.getPolicy(requireActor(request)),
  );

  app.put(
    "/v1/approval-policy",
    {
      schema: {
        tags,
        operationId: "replaceApprovalPolicy",
        summary: "Replace the approval policy",
        description:
          "Replaces the rules (evaluated in order at creation; the first whose every condition holds decides, with an automated Decision naming it; no match waits for a person) and `maker_checker` (default false). Applies to payouts created afterwards. Weakening the policy (turning `maker_checker` off, or loosening the rules: a new or changed `approve` rule, a `reject` rule removed or changed, an `approve` rule moved above a `reject` rule it followed; names do not count) needs a person: an API key gets 403 `CONTROL_WEAKENING_NEEDS_PERSON`, a dashboard session needs a recent confirmation. With maker-checker on, a weakening is not applied: the answer is 202 with a pending control change, applied when a second admin approves it (POST /v1/control-changes/{id}/approve); every admin is e-mailed. Otherwise it applies, every admin is e-mailed and the audit log records `control_weakened`. Strengthening it with a key is allowed and sends nothing. A rule whose `min_amount_minor` exceeds its `max_amount_minor` (or `min_beneficiary_age_hours` its `max_beneficiary_age_hours`) could never match and is refused with 422 `POLICY_RULE_NEVER_MATCHES`, naming the field.",
        body: PutApprovalPolicyBodySchema,
        response: routeResponses(
          {
            200: Type.Ref("ApprovalPolicy"),
            202: Type.Ref("ControlChange", { description: "The weakening waits for a second admin (maker-checker on)." }),
          },
          {
            access: "write",
            hasBody: true,
            codes: [PEOPLE_ERRORS.CONTROL_WEAKENING_NEEDS_PERSON, PAYOUT_ERRORS.POLICY_RULE_NEVER_MATCHES],
          },
        ),
      },
    },
    async (request, reply) => {
      const outcome = await service.putPolicy(requireActor(request), request.body);
      return outcome.kind === "pending" ? reply.code(202).send(outcome.change) : outcome.policy;
    },
  );
}

/**
 * GET /v1/payouts/export: the list's filters, the whole filtered set as a streamed CSV file. A static path:
 * find-my-way prefers it to GET /v1/payouts/:payoutId whatever the order of registration.
 */
export function registerPayoutExportRoute(app: AppInstance, exporter: PayoutExportService): void {
  app.get(
    "/v1/payouts/export",
    {
      schema: {
        tags,
        operationId: "exportPayouts",
        summary: "Export payouts as CSV",
        description: `${PAYOUT_EXPORT_DESCRIPTION}\n\nColumns, in order:\n\n${describePayoutExportColumns()}`,
        querystring: ExportPayoutsQuerySchema,
        response: routeResponses({ 200: PayoutCsvResponseSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      // HEAD answers the headers (and refuses bad filters) without reading a payout.
      const exported =
        request.method === "HEAD"
          ? { filename: exporter.exportFilename(actor), csv: undefined, checked: exporter.validate(request.query) }
          : await exporter.openExport(actor, request.query);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${exported.filename}"`)
        .header("cache-control", "no-store")
        .send(exported.csv);
    },
  );
}
