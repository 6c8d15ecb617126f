import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { BANK_FILE_REFUSALS } from "../../rails/bank-files/refusals.js";
import { BENEFICIARY_ERRORS } from "../beneficiaries/beneficiaries.errors.js";
import { EMAIL_ERRORS } from "../emails/emails.errors.js";
import { PEOPLE_ERRORS } from "../people/people.errors.js";
import { DESTINATION_ERRORS } from "./destinations.errors.js";
import {
  BeneficiaryParamsSchema,
  DeclaredDestinationBodySchema,
  DestinationDecisionBodySchema,
  DestinationListSchema,
  DestinationParamsSchema,
  PendingDestinationListSchema,
  PutDestinationPolicyBodySchema,
  RegisterBankAccountBodySchema,
  RegisterCardBodySchema,
} from "./destinations.schemas.js";
import type { DestinationService } from "./destinations.service.js";

const tags = ["Destinations"];
const destination = Type.Ref("Destination");

export function registerDestinationRoutes(app: AppInstance, service: DestinationService): void {
  app.post(
    "/v1/beneficiaries/:id/bank-accounts",
    {
      schema: {
        tags,
        operationId: "createBankAccount",
        summary: "Register a bank account",
        description:
          "Validates the routing details for the country and currency (IBAN and BIC, US ABA, UK sort code, Mexican CLABE, Brazilian Pix key or branch, Canadian transit, Australian BSB, Indian IFSC, else SWIFT); each failed check is a `validation_failed` detail naming the field. An IBAN and a BIC given together must name one bank: the BIC's country is the IBAN's (or a territory using its IBANs: Jersey, Guernsey and the Isle of Man with GB, the French overseas territories with FR, Åland with FI: `bic_country_mismatch`), and for GB, GI, IE and NL IBANs, whose characters 5-8 are the BIC's bank code, the bank too (`bic_bank_mismatch`). In production, when the Business's bank rail would pay the account (SEPA: EUR to an IBAN in the SEPA zone; ACH: USD to a US account), what that rail's file cannot carry is refused before the account is written: no BIC for a SEPA country outside the EEA (422 `SEPA_BIC_REQUIRED`, detail `swift_bic`), a holder name with no character the file carries (422 `SEPA_NAME_NOT_REPRESENTABLE` / `ACH_NAME_NOT_REPRESENTABLE`), or longer than its field once transliterated, 70 for SEPA, 22 for ACH (422 `SEPA_FIELD_TOO_LONG` / `ACH_FIELD_TOO_LONG`, detail `account_holder_name` with the limit). Numbers are encrypted at rest and never returned. Registering the same account again answers 200 with the existing destination. Records `beneficiary.bank_account.registered`.",
        params: BeneficiaryParamsSchema,
        body: RegisterBankAccountBodySchema,
        response: routeResponses(
          { 201: destination, 200: destination },
          {
            access: "write",
            hasBody: true,
            hasInput: true,
            codes: [
              "not_found",
              BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED,
              BANK_FILE_REFUSALS.SEPA_BIC_REQUIRED,
              BANK_FILE_REFUSALS.SEPA_NAME_NOT_REPRESENTABLE,
              BANK_FILE_REFUSALS.SEPA_FIELD_TOO_LONG,
              BANK_FILE_REFUSALS.ACH_NAME_NOT_REPRESENTABLE,
              BANK_FILE_REFUSALS.ACH_FIELD_TOO_LONG,
            ],
          },
        ),
      },
    },
    async (request, reply) => {
      const result = await service.registerBankAccount(requireActor(request), request.params.id, request.body);
      return reply.code(result.created ? 201 : 200).send(result.destination);
    },
  );

  app.post(
    "/v1/beneficiaries/:id/cards",
    {
      schema: {
        tags,
        operationId: "createCard",
        summary: "Register a card",
        description:
          "A card destination: Luhn-checked, not expired, network detected. The number is encrypted at rest; only `last4`, the network and the expiry are ever shown. Listed with the bank accounts; a Payout names it as `bank_account_id`.",
        params: BeneficiaryParamsSchema,
        body: RegisterCardBodySchema,
        response: routeResponses(
          { 201: destination, 200: destination },
          { access: "write", hasBody: true, hasInput: true, codes: ["not_found", BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED] },
        ),
      },
    },
    async (request, reply) => {
      const result = await service.registerCard(requireActor(request), request.params.id, request.body);
      return reply.code(result.created ? 201 : 200).send(result.destination);
    },
  );

  app.get(
    "/v1/beneficiaries/:id/bank-accounts",
    {
      schema: {
        tags,
        operationId: "listDestinations",
        summary: "List destinations",
        description: "Every live destination of the Beneficiary (bank accounts and cards), in every status, masked.",
        params: BeneficiaryParamsSchema,
        response: routeResponses({ 200: DestinationListSchema }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.list(requireActor(request), request.params.id),
  );

  app.post(
    "/v1/beneficiaries/:id/bank-accounts/:accountId/notification-of-change/apply",
    {
      schema: {
        tags,
        operationId: "applyNotificationOfChange",
        summary: "Apply an ACH notification of change to a bank account",
        description:
          "Replaces the bank account's routing number, account number or account type with the correction the receiving bank sent in its notification of change (NOC, `notification_of_change` on the account, event `beneficiary.bank_account.notification_of_change`): C01 account number, C02 routing number, C03 both, C05 account type (checking or savings), C06 account number and type, C07 all three. The correction is kept encrypted from the moment it is read and is never shown unmasked; this call is the only use of it. " +
          "The account is corrected **in place** (same id, `notification_of_change.applied_at` set, `can_apply` false): payouts created or queued but not yet written to a bank file go to the corrected account, as Nacha asks before the next entry; payouts already in a file keep what their entry carried (the bank's returns are matched on it). The corrected account passes the same validation and bank-rail checks as a registration (422 `validation_failed` or the rail's code when the bank's correction is itself invalid). " +
          "409 `NOTIFICATION_OF_CHANGE_NOT_APPLICABLE` when there is nothing to apply (no NOC, applied already, a code that corrects nothing the account holds, or a NOC read before corrections were kept: register the corrected account instead); 409 `BANK_ACCOUNT_CORRECTION_EXISTS` when the Beneficiary already has the corrected account. Recorded in the audit log (`bank_account_corrected`, masked values only) and as the event `beneficiary.bank_account.corrected`. business_admin role.",
        params: DestinationParamsSchema,
        response: routeResponses(
          { 200: destination },
          {
            access: "write",
            hasInput: true,
            codes: [
              "not_found",
              DESTINATION_ERRORS.BANK_ACCOUNT_NOT_FOUND,
              BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED,
              DESTINATION_ERRORS.NOTIFICATION_OF_CHANGE_NOT_APPLICABLE,
              DESTINATION_ERRORS.BANK_ACCOUNT_CORRECTION_EXISTS,
              BANK_FILE_REFUSALS.ACH_FIELD_TOO_LONG,
              BANK_FILE_REFUSALS.ACH_NAME_NOT_REPRESENTABLE,
              EMAIL_ERRORS.BUSINESS_NOT_VERIFIED,
            ],
          },
        ),
      },
    },
    async (request) => service.applyNotificationOfChange(requireActor(request), request.params.id, request.params.accountId),
  );

  app.delete(
    "/v1/beneficiaries/:id/bank-accounts/:accountId",
    {
      schema: {
        tags,
        operationId: "deleteDestination",
        summary: "Delete a destination",
        description:
          "Answers 204. Idempotent: deleting a deleted destination succeeds. The destination leaves the listing and can no longer be named by a payout; payouts already created keep its masked value. When it was the declared destination, `declared_destination_id` is cleared, `declared_destination_change` records it (reason `destination_deleted`, with the API key, membership and user), and the Beneficiary is told by e-mail (in sandbox captured in the sandbox mailbox unless it is to one of the Business's verified people; in production, over the Business's daily e-mail limit, sent when the window frees, never dropped).",
        params: DestinationParamsSchema,
        response: routeResponses(
          { 204: Type.Null({ description: "Deleted." }) },
          {
            access: "write",
            hasInput: true,
            codes: [
              "not_found",
              DESTINATION_ERRORS.BANK_ACCOUNT_NOT_FOUND,
              BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED,
              DESTINATION_ERRORS.DESTINATION_HAS_PENDING_PAYOUT,
              EMAIL_ERRORS.BUSINESS_NOT_VERIFIED,
            ],
          },
        ),
      },
    },
    async (request, reply) => {
      await service.remove(requireActor(request), request.params.id, request.params.accountId);
      return reply.code(204).send(null);
    },
  );

  app.put(
    "/v1/beneficiaries/:id/declared-destination",
    {
      schema: {
        tags: ["Beneficiaries"],
        operationId: "setDeclaredDestination",
        summary: "Set the declared destination",
        description:
          "The destination a payout goes to when it names none. Must be a payout-usable destination of the Beneficiary. Idempotent: naming the current one changes nothing and sends nothing. The last write (Business or collection link) wins. Every change, whoever makes it (this route, deleting the declared destination, or a collection link's submission, even of a link minted with `send_email: false`), is announced to the Beneficiary by e-mail naming the destination by its masked value only, and recorded in `declared_destination_change` (who, why, when). In sandbox the e-mail is captured in the sandbox mailbox unless it is to one of the Business's verified people; in production, over the Business's daily e-mail limit, it is sent when the window frees, never dropped.",
        params: BeneficiaryParamsSchema,
        body: DeclaredDestinationBodySchema,
        response: routeResponses(
          { 200: Type.Ref("Beneficiary") },
          {
            access: "write",
            hasBody: true,
            hasInput: true,
            codes: [
              "not_found",
              DESTINATION_ERRORS.BANK_ACCOUNT_NOT_FOUND,
              DESTINATION_ERRORS.BANK_ACCOUNT_NOT_VALIDATED,
              DESTINATION_ERRORS.BANK_ACCOUNT_REJECTED,
              DESTINATION_ERRORS.DESTINATION_NOT_APPROVED,
              BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED,
              EMAIL_ERRORS.BUSINESS_NOT_VERIFIED,
            ],
          },
        ),
      },
    },
    async (request) => service.declare(requireActor(request), request.params.id, request.body),
  );

  registerApprovalRoutes(app, service);
}

function registerApprovalRoutes(app: AppInstance, service: DestinationService): void {
  for (const outcome of ["approve", "reject"] as const) {
    app.post(
      `/v1/beneficiaries/:id/bank-accounts/:accountId/${outcome}`,
      {
        schema: {
          tags,
          operationId: outcome === "approve" ? "approveBankAccount" : "rejectBankAccount",
          summary: outcome === "approve" ? "Approve bank details" : "Reject bank details",
          description:
            (outcome === "approve"
              ? "Approves bank details waiting for approval (`approval_status: pending_approval`, destination policy `require_approval`): the destination becomes payout-usable once the policy's `cooling_off_hours` have passed from now (`usable_from`). Records `beneficiary.bank_account.approved`."
              : "Rejects bank details waiting for approval: the destination can never receive payouts (register the right account instead). Records `beneficiary.bank_account.rejected`; the optional `reason` is kept in the audit log and the event.") +
            " Maker-checker per person: whoever added or changed the details (their key, membership or user; another key of the same person counts as them) gets 403 `DESTINATION_MAKER_CHECKER_VIOLATION`; details submitted through a collection link have no person behind them, so any approver may decide. 409 `DESTINATION_NOT_PENDING_APPROVAL` when the details are not waiting. Audited (`bank_account_approved` / `bank_account_rejected`).",
          params: DestinationParamsSchema,
          body: DestinationDecisionBodySchema,
          response: routeResponses(
            { 200: destination },
            {
              access: "write",
              hasBody: true,
              hasInput: true,
              codes: [
                "not_found",
                DESTINATION_ERRORS.BANK_ACCOUNT_NOT_FOUND,
                BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED,
                DESTINATION_ERRORS.DESTINATION_NOT_PENDING_APPROVAL,
                DESTINATION_ERRORS.DESTINATION_MAKER_CHECKER_VIOLATION,
              ],
            },
          ),
        },
      },
      async (request) => {
        const { id, accountId } = request.params;
        const body = request.body ?? null;
        return outcome === "approve"
          ? service.approve(requireActor(request), id, accountId, body)
          : service.reject(requireActor(request), id, accountId, body);
      },
    );
  }

  app.get(
    "/v1/bank-account-approvals",
    {
      schema: {
        tags,
        operationId: "listBankAccountApprovals",
        summary: "List bank details waiting for approval",
        description:
          "Every live destination of the environment whose bank details wait for approval (`approval_status: pending_approval`), newest first (at most 500), with who added them (`added_by`) and when (`details_changed_at`).",
        response: routeResponses({ 200: PendingDestinationListSchema }, { access: "read" }),
      },
    },
    async (request) => service.listPending(requireActor(request)),
  );

  app.get(
    "/v1/destination-policy",
    {
      schema: {
        tags: ["Destination policy"],
        operationId: "getDestinationPolicy",
        summary: "Get the destination policy",
        description:
          "The environment's destination policy: approval of new and changed bank details, cooling-off before a destination may be paid, payee name check and sanctions screening. The defaults (everything off, `updated_at` null) until an admin sets it.",
        response: routeResponses({ 200: Type.Ref("DestinationPolicy") }, { access: "read" }),
      },
    },
    async (request) => service.getPolicy(requireActor(request)),
  );

  app.put(
    "/v1/destination-policy",
    {
      schema: {
        tags: ["Destination policy"],
        operationId: "updateDestinationPolicy",
        summary: "Change the destination policy",
        description:
          "Changes the fields given (an absent field keeps its value); applies to destinations added or changed and payouts created afterwards (approved destinations stay approved). Audited (`destination_policy_changed`, before and after). Weakening it (`require_approval` off, a shorter `cooling_off_hours`, a laxer `name_check` (block > warn > off), `screening` off) needs a person: an API key gets 403 `CONTROL_WEAKENING_NEEDS_PERSON`, a dashboard session a recent confirmation. With maker-checker on (the approval policy) a weakening is not applied but answered 202 with a pending control change (kind `destination_policy`, the whole request) that a second admin approves (POST /v1/control-changes/{id}/approve; stale if the policy changed meanwhile); otherwise it applies at once. Either way every admin is e-mailed and the audit log records `control_weakened`. Tightening it applies at once, with a key too, and sends nothing.",
        body: PutDestinationPolicyBodySchema,
        response: routeResponses(
          {
            200: Type.Ref("DestinationPolicy"),
            202: Type.Ref("ControlChange", { description: "The change waits for a second admin (maker-checker on)." }),
          },
          { access: "write", hasBody: true, codes: [PEOPLE_ERRORS.CONTROL_WEAKENING_NEEDS_PERSON] },
        ),
      },
    },
    async (request, reply) => {
      const outcome = await service.putPolicy(requireActor(request), request.body);
      return outcome.kind === "pending" ? reply.code(202).send(outcome.change) : outcome.policy;
    },
  );
}
