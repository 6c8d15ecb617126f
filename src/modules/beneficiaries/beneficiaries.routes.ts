import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { BENEFICIARY_ERRORS } from "./beneficiaries.errors.js";
import {
  BeneficiaryIdParamsSchema,
  BeneficiaryListSchema,
  CreateBeneficiaryBodySchema,
  ListBeneficiariesQuerySchema,
  UpdateBeneficiaryBodySchema,
} from "./beneficiaries.schemas.js";
import type { BeneficiaryService } from "./beneficiaries.service.js";

const tags = ["Beneficiaries"];
const beneficiary = Type.Ref("Beneficiary");

export function registerBeneficiaryRoutes(app: AppInstance, service: BeneficiaryService): void {
  app.post(
    "/v1/beneficiaries",
    {
      schema: {
        tags,
        operationId: "createBeneficiary",
        summary: "Create a Beneficiary",
        description:
          "Creates a `person` or `business` payee. A stub is allowed: e-mail, type and a name (or first and last name, or business name) suffice; `identity_complete` tells whether the configured required identity fields are present.",
        body: CreateBeneficiaryBodySchema,
        response: routeResponses(
          { 201: beneficiary },
          { access: "write", hasBody: true, codes: [BENEFICIARY_ERRORS.BENEFICIARY_EMAIL_TAKEN] },
        ),
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(requireActor(request), request.body)),
  );

  app.get(
    "/v1/beneficiaries",
    {
      schema: {
        tags,
        operationId: "listBeneficiaries",
        summary: "List Beneficiaries",
        description: "Active (not archived) Beneficiaries of the caller's Business and environment, newest first.",
        querystring: ListBeneficiariesQuerySchema,
        response: routeResponses({ 200: BeneficiaryListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => service.list(requireActor(request), request.query),
  );

  app.get(
    "/v1/beneficiaries/:id",
    {
      schema: {
        tags,
        operationId: "getBeneficiary",
        summary: "Retrieve a Beneficiary",
        description: "Archived Beneficiaries are readable too.",
        params: BeneficiaryIdParamsSchema,
        response: routeResponses({ 200: beneficiary }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.get(requireActor(request), request.params.id),
  );

  app.put(
    "/v1/beneficiaries/:id",
    {
      schema: {
        tags,
        operationId: "updateBeneficiary",
        summary: "Supply or change identity fields",
        description:
          "Fields sent replace the stored ones, `null` clears an optional one, fields not sent are kept. Changing a trigger field (name, first/last name, date of birth, country of residence, business name, country of incorporation, registration number, tax id) after acknowledgment sets `reacknowledgment_required`.",
        params: BeneficiaryIdParamsSchema,
        body: UpdateBeneficiaryBodySchema,
        response: routeResponses(
          { 200: beneficiary },
          {
            access: "write",
            hasBody: true,
            hasInput: true,
            codes: ["not_found", BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED, BENEFICIARY_ERRORS.BENEFICIARY_EMAIL_TAKEN],
          },
        ),
      },
    },
    async (request) => service.update(requireActor(request), request.params.id, request.body),
  );

  const action = (
    path: string,
    summary: string,
    description: string,
    run: BeneficiaryService["acknowledge"],
    codes: Parameters<typeof routeResponses>[1]["codes"],
  ) =>
    app.post(
      `/v1/beneficiaries/:id/${path}`,
      {
        schema: {
          tags,
          operationId: `${path}Beneficiary`,
          summary,
          description,
          params: BeneficiaryIdParamsSchema,
          response: routeResponses(
            { 200: beneficiary },
            { access: "write", hasInput: true, codes: ["not_found", ...(codes ?? [])] },
          ),
        },
      },
      async (request) => run(requireActor(request), request.params.id),
    );

  action(
    "acknowledge",
    "Acknowledge compliance",
    "The Business states it has checked the Beneficiary: sets `acknowledged_at`, `compliance_status` `compliant`, and clears `reacknowledgment_required`. No body.",
    service.acknowledge,
    [BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED, BENEFICIARY_ERRORS.BENEFICIARY_SUSPENDED],
  );
  action(
    "archive",
    "Archive a Beneficiary",
    "Sets `archived_at`. An archived Beneficiary leaves the list and the export, refuses new payouts, links, bank details and identity changes, and stays readable by id. Archiving closes its live collection link in the same step (the link's page answers 410 and `pending_requests` is empty); un-archiving does not reopen it: mint a new link. Idempotent.",
    service.archive,
    [],
  );
  action(
    "unarchive",
    "Un-archive a Beneficiary",
    "Clears `archived_at`. Refused with `BENEFICIARY_EMAIL_TAKEN` while another active Beneficiary has the same e-mail. Collection links closed by the archiving stay closed (`pending_requests` stays empty): mint a new link when one is needed. Idempotent.",
    service.unarchive,
    [BENEFICIARY_ERRORS.BENEFICIARY_EMAIL_TAKEN],
  );
}
