import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { PEOPLE_ERRORS } from "../people/people.errors.js";
import { CONTROL_CHANGE_ERRORS } from "./control-changes.errors.js";
import { ControlChangeListQuerySchema, ControlChangeListSchema, ControlChangeParamsSchema } from "./control-changes.schemas.js";
import type { ControlChangeService } from "./control-changes.service.js";

const tags = ["Control changes"];
const change = Type.Ref("ControlChange");

export function registerControlChangeRoutes(app: AppInstance, service: ControlChangeService): void {
  app.get(
    "/v1/control-changes",
    {
      schema: {
        tags,
        operationId: "listControlChanges",
        summary: "List control changes",
        description:
          "Changes that weaken a control (raising or removing a payout limit, turning maker-checker off, loosening the approval rules, switching a funding account's enforcement off or raising its overdraft) proposed while maker-checker is on: each waits `pending` for a second admin. Newest first, in cursor pages; filter `status`. Every role.",
        querystring: ControlChangeListQuerySchema,
        response: routeResponses({ 200: ControlChangeListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => service.list(requireActor(request), request.query),
  );

  app.get(
    "/v1/control-changes/:id",
    {
      schema: {
        tags,
        operationId: "getControlChange",
        summary: "Read a control change",
        description: "One control change, with who proposed and who decided it. Every role.",
        params: ControlChangeParamsSchema,
        response: routeResponses({ 200: change }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.get(requireActor(request), request.params.id),
  );

  app.post(
    "/v1/control-changes/:id/approve",
    {
      schema: {
        tags,
        operationId: "approveControlChange",
        summary: "Approve a control change",
        description:
          "Applies the change in this transaction, as it was proposed. Admins with step-up, a person (an API key gets 403 `CONTROL_WEAKENING_NEEDS_PERSON`), never the proposer (403 `CONTROL_CHANGE_SAME_PERSON`, compared by person). 409 `CONTROL_CHANGE_NOT_PENDING` once decided or superseded; 409 `CONTROL_CHANGE_STALE` when the control changed since the proposal (discard and propose again). The audit log records `control_change_approved` and `control_weakened`, and every admin is e-mailed.",
        params: ControlChangeParamsSchema,
        response: routeResponses(
          { 200: change },
          {
            access: "write",
            hasInput: true,
            codes: [
              "not_found",
              CONTROL_CHANGE_ERRORS.CONTROL_CHANGE_SAME_PERSON,
              CONTROL_CHANGE_ERRORS.CONTROL_CHANGE_NOT_PENDING,
              CONTROL_CHANGE_ERRORS.CONTROL_CHANGE_STALE,
              PEOPLE_ERRORS.CONTROL_WEAKENING_NEEDS_PERSON,
            ],
          },
        ),
      },
    },
    async (request) => service.approve(requireActor(request), request.params.id),
  );

  app.post(
    "/v1/control-changes/:id/discard",
    {
      schema: {
        tags,
        operationId: "discardControlChange",
        summary: "Discard a control change",
        description:
          "Nothing is applied. Any admin with step-up, the proposer included (a withdrawal). 409 `CONTROL_CHANGE_NOT_PENDING` once decided or superseded. Audited (`control_change_discarded`).",
        params: ControlChangeParamsSchema,
        response: routeResponses(
          { 200: change },
          { access: "write", hasInput: true, codes: ["not_found", CONTROL_CHANGE_ERRORS.CONTROL_CHANGE_NOT_PENDING] },
        ),
      },
    },
    async (request) => service.discard(requireActor(request), request.params.id),
  );
}
