import { createHash, timingSafeEqual } from "node:crypto";
import { Type } from "@sinclair/typebox";
import { AppError } from "../../platform/errors.js";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { SCREENING_ERRORS } from "./screening.errors.js";
import {
  BeneficiaryParamsSchema,
  HitParamsSchema,
  ListParamsSchema,
  LoadListBodySchema,
  SanctionsListSchema,
  ScreeningDecisionBodySchema,
  ScreeningDecisionSchema,
  ScreeningHitListQuerySchema,
  ScreeningHitListSchema,
} from "./screening.schemas.js";
import type { ScreeningService } from "./screening.service.js";

const tags = ["Sanctions screening"];
const BEARER = /^Bearer ([^\s]+)$/i;
const DECISION =
  "Admins (step-up from a session), never the person whose change of the Beneficiary was screened (compared by person, with any of their keys: 403 `SCREENING_MAKER_CHECKER_VIOLATION`). Acts on every `open` hit of the Beneficiary (409 `SCREENING_NO_OPEN_HIT` when there is none; the loser of two decisions at once gets 409 `SCREENING_HIT_ALREADY_DECIDED`). Audited.";

export function registerScreeningRoutes(app: AppInstance, service: ScreeningService, operatorToken: string | null): void {
  app.get(
    "/v1/screening-hits",
    {
      schema: {
        tags,
        operationId: "listScreeningHits",
        summary: "List screening hits",
        description:
          "Beneficiaries whose name was found close to a name on a loaded sanctions list, newest first, in cursor pages; filters `status` (`open` for the review queue) and `beneficiary_id`. Every role.",
        querystring: ScreeningHitListQuerySchema,
        response: routeResponses({ 200: ScreeningHitListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => service.list(requireActor(request), request.query),
  );

  app.get(
    "/v1/screening-hits/:id",
    {
      schema: {
        tags,
        operationId: "getScreeningHit",
        summary: "Read a screening hit",
        description: "One hit, with the entry as it was listed, the score and who decided it. Every role.",
        params: HitParamsSchema,
        response: routeResponses({ 200: Type.Ref("ScreeningHit") }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.get(requireActor(request), request.params.id),
  );

  const decisionCodes = [
    "not_found",
    SCREENING_ERRORS.SCREENING_NO_OPEN_HIT,
    SCREENING_ERRORS.SCREENING_HIT_ALREADY_DECIDED,
    SCREENING_ERRORS.SCREENING_MAKER_CHECKER_VIOLATION,
  ] as const;
  app.post(
    "/v1/beneficiaries/:id/screening/clear",
    {
      schema: {
        tags,
        operationId: "clearBeneficiaryScreening",
        summary: "Clear a Beneficiary's screening hits (false positive)",
        description: `The open hits become \`cleared\` with the \`reason\`; the Beneficiary's \`screening_status\` becomes \`cleared\` (unless a confirmed hit remains), new payouts are accepted again and approved payouts held by the hit are dispatched. Records \`beneficiary.screening_cleared\`. A later screening that finds the same entry for the same name keeps it cleared; a new entry or a changed name is a new hit. ${DECISION}`,
        params: BeneficiaryParamsSchema,
        body: ScreeningDecisionBodySchema,
        response: routeResponses(
          { 200: ScreeningDecisionSchema },
          { access: "write", hasBody: true, hasInput: true, codes: decisionCodes },
        ),
      },
    },
    async (request) => service.decide(requireActor(request), request.params.id, "clear", request.body.reason),
  );

  app.post(
    "/v1/beneficiaries/:id/screening/confirm",
    {
      schema: {
        tags,
        operationId: "confirmBeneficiaryScreening",
        summary: "Confirm a Beneficiary's screening hits",
        description: `The open hits become \`confirmed\` with the \`reason\`; the Beneficiary's \`screening_status\` becomes \`confirmed_match\`: new payouts stay refused (422 \`SANCTIONS_REVIEW_REQUIRED\`) and approved ones stay held, for as long as the entry is listed (a change of name does not lift it). ${DECISION}`,
        params: BeneficiaryParamsSchema,
        body: ScreeningDecisionBodySchema,
        response: routeResponses(
          { 200: ScreeningDecisionSchema },
          { access: "write", hasBody: true, hasInput: true, codes: decisionCodes },
        ),
      },
    },
    async (request) => service.decide(requireActor(request), request.params.id, "confirm", request.body.reason),
  );

  if (operatorToken === null) return;
  const expected = digest(operatorToken);
  // Not an API key: the operator token is checked before the body is parsed.
  const operatorOnly = async (request: { headers: { authorization?: string | undefined } }) => {
    const presented = BEARER.exec(request.headers.authorization ?? "")?.[1] ?? null;
    if (presented === null || !timingSafeEqual(digest(presented), expected)) {
      throw new AppError("unauthorized", {
        message: "A valid operator token is required: send `Authorization: Bearer <OPERATOR_TOKEN>`.",
      });
    }
  };

  app.put(
    "/operator/sanctions-lists/:listId",
    {
      config: { rateLimit: "none" },
      bodyLimit: 200 * 1024 * 1024,
      onRequest: operatorOnly,
      schema: {
        tags: ["Sanctions lists (operator)"],
        operationId: "loadSanctionsList",
        summary: "Load a sanctions list",
        description:
          "Operator-only, present only when the service runs with `OPERATOR_TOKEN` (otherwise 404); `Authorization: Bearer <OPERATOR_TOKEN>`, not an API key (401 otherwise). Replaces the list's entries with the files given, in the publishers' formats: `ofac_sdn` takes sdn.csv (required) with alt.csv and add.csv; `eu_consolidated` takes the EU consolidated list's CSV or XML. When the list changed, every Beneficiary of every Business whose destination policy has `screening: on` is screened again by a durable job, batch by batch (`rescreen_run_id`). The same files again change nothing. 422 `SANCTIONS_LIST_INVALID` for a file that cannot be read (nothing is loaded).",
        params: ListParamsSchema,
        body: LoadListBodySchema,
        response: routeResponses(
          { 200: SanctionsListSchema },
          { access: "public", hasBody: true, hasInput: true, codes: ["unauthorized", SCREENING_ERRORS.SANCTIONS_LIST_INVALID] },
        ),
      },
    },
    async (request) =>
      service.loadList(
        request.params.listId,
        request.body.files.map((file) => ({
          format: file.format,
          content: Buffer.from(file.content_base64, "base64").toString("utf8"),
        })),
        "operator",
      ),
  );

  app.get(
    "/operator/sanctions-lists",
    {
      config: { rateLimit: "none" },
      onRequest: operatorOnly,
      schema: {
        tags: ["Sanctions lists (operator)"],
        operationId: "listSanctionsLists",
        summary: "List the loaded sanctions lists",
        description:
          "Operator-only (`Authorization: Bearer <OPERATOR_TOKEN>`): each loaded list, its version, entry count and when it was loaded.",
        response: routeResponses(
          { 200: Type.Object({ lists: Type.Array(SanctionsListSchema) }, { "x-component": "SanctionsListList" }) },
          { access: "public", codes: ["unauthorized"] },
        ),
      },
    },
    async () => ({ lists: await service.lists() }),
  );
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}
