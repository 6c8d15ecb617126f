import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { PEOPLE_ERRORS } from "../people/people.errors.js";
import { BANK_RAIL_ERRORS } from "./bank-rails.errors.js";
import type { InboundView } from "./bank-rails.inbound-view.js";
import {
  BANK_RAILS,
  BankFileContentResponseSchema,
  BankFileDetailSchema,
  BankFileListQuerySchema,
  BankFileListSchema,
  BankFileParamsSchema,
  BankInboundFileListQuerySchema,
  BankInboundFileListSchema,
  BankRailListSchema,
  ConnectionTestSchema,
  PutAchBodySchema,
  PutSepaBodySchema,
} from "./bank-rails.schemas.js";
import type { BankRailService } from "./bank-rails.service.js";

const tags = ["Bank rails"];
const bankRail = Type.Ref("BankRail");
const ROUTING =
  "Routing of production payouts: EUR to an IBAN in the SEPA zone goes to `sepa`, USD to a US bank account (ABA routing number) to `ach`, among the rails configured; a Business with no bank rail keeps the production simulator; once one is configured, a payout that fits none is refused at creation with 422 `NO_RAIL_FOR_DESTINATION`. Sandbox payouts always use the sandbox rail.";
const DELIVERY =
  "`delivery` is SFTP (host, port, username, `password` or `private_key`, both write-only and kept encrypted, the server's `host_key_fingerprint` pinned, outbound and inbound directories) or, only where the operator set `BANK_RAIL_LOCAL_ROOT`, a local directory (422 `BANK_RAIL_LOCAL_DELIVERY_NOT_ALLOWED` otherwise). " +
  "Credentials stay bound to where they were given: a secret omitted on a later PUT is kept only while `host`, `port`, `username` and `host_key_fingerprint` stay the same; when any of them changes, the stored password and private key are dropped unless sent again in the same request (the answer then shows `has_password` and `has_private_key` false, and uploads stop with a missing-credential error until they are sent), so a new server never receives the old password. The Business's OpenPGP key is not bound to the server (it never leaves the service). " +
  "The SFTP host follows the webhook address rules, when configured and again at every connection: loopback, private and other non-public addresses are refused with 422 `BANK_RAIL_HOST_NOT_PUBLIC` unless the operator allows them (`BANK_RAIL_ALLOW_PRIVATE_HOSTS`); the host is stored in canonical form (lower case, IPv4 numbers normalised). " +
  "Local folders live in the Business's own folder under the operator's root (`<BANK_RAIL_LOCAL_ROOT>/<business id>/<environment>/<directory>`), and a symbolic link anywhere below the root is refused, never followed. " +
  "One debtor account (the IBAN; for ACH the ODFI routing number with the Company Identification) belongs to one Business per environment: 409 `BANK_RAIL_DEBTOR_ACCOUNT_TAKEN` when another Business's rail has it. Production keys only (a sandbox key gets 403 `forbidden`); business_admin role.";

const TARGET_CHANGE =
  "Changing where a configured rail delivers (kind, host, port, username, host key fingerprint or a directory) weakens a control: an API key gets 403 `CONTROL_WEAKENING_NEEDS_PERSON` (a person makes the change from a dashboard session with a recent confirmation), every admin is e-mailed and the audit log records `control_weakened` beside `bank_rail_configured`. The first configuration and changes of anything else (originator, cut-offs, format) are not alerts.";

export function registerBankRailRoutes(app: AppInstance, service: BankRailService, inbound: InboundView): void {
  app.put(
    "/v1/bank-rails/sepa",
    {
      schema: {
        tags,
        operationId: "configureSepaRail",
        summary: "Configure SEPA credit transfers (pain.001 over SFTP)",
        description: `Creates (201) or replaces (200) the Business's SEPA rail: the debtor (name, IBAN in the SEPA zone, BIC, initiating party id, structured address), the file format (pain.001.001.09 by default, or pain.001.001.03), the cut-off times and time zone, and the delivery. ${DELIVERY} ${TARGET_CHANGE} ${ROUTING}`,
        body: PutSepaBodySchema,
        response: routeResponses(
          { 200: bankRail, 201: bankRail },
          {
            access: "write",
            hasBody: true,
            codes: [
              BANK_RAIL_ERRORS.BANK_RAIL_LOCAL_DELIVERY_NOT_ALLOWED,
              BANK_RAIL_ERRORS.BANK_RAIL_HOST_NOT_PUBLIC,
              BANK_RAIL_ERRORS.BANK_RAIL_DEBTOR_ACCOUNT_TAKEN,
              PEOPLE_ERRORS.CONTROL_WEAKENING_NEEDS_PERSON,
            ],
          },
        ),
      },
    },
    async (request, reply) => {
      const result = await service.putSepa(requireActor(request), request.body);
      return reply.code(result.created ? 201 : 200).send(result.rail);
    },
  );

  app.put(
    "/v1/bank-rails/ach",
    {
      schema: {
        tags,
        operationId: "configureAchRail",
        summary: "Configure US ACH credits (NACHA files over SFTP)",
        description: `Creates (201) or replaces (200) the Business's ACH rail: the originator (ODFI routing number, immediate destination and origin, company name and identification), the payout purpose (\`payroll\` sends the Company Entry Description \`PAYROLL\`, as NACHA requires for wages since March 2026; otherwise \`entry_description\`, default \`PAYOUT\`, where \`PAYROLL\` and \`PURCHASE\` are refused), the cut-off times and time zone, and the delivery. Persons are paid by PPD entries, businesses by CCD; effective entry dates are Federal Reserve business days. ${DELIVERY} ${TARGET_CHANGE} ${ROUTING}`,
        body: PutAchBodySchema,
        response: routeResponses(
          { 200: bankRail, 201: bankRail },
          {
            access: "write",
            hasBody: true,
            codes: [
              BANK_RAIL_ERRORS.BANK_RAIL_LOCAL_DELIVERY_NOT_ALLOWED,
              BANK_RAIL_ERRORS.BANK_RAIL_HOST_NOT_PUBLIC,
              BANK_RAIL_ERRORS.BANK_RAIL_DEBTOR_ACCOUNT_TAKEN,
              PEOPLE_ERRORS.CONTROL_WEAKENING_NEEDS_PERSON,
            ],
          },
        ),
      },
    },
    async (request, reply) => {
      const result = await service.putAch(requireActor(request), request.body);
      return reply.code(result.created ? 201 : 200).send(result.rail);
    },
  );

  app.get(
    "/v1/bank-rails",
    {
      schema: {
        tags,
        operationId: "listBankRails",
        summary: "List the configured bank rails",
        description: `The Business's bank rails in this environment (none in sandbox). Secrets are never returned: \`has_password\` and \`has_private_key\` say whether one is stored. ${ROUTING}`,
        response: routeResponses({ 200: BankRailListSchema }, { access: "read" }),
      },
    },
    async (request) => service.list(requireActor(request)),
  );

  // One path per rail (not `/:rail`): the PUT paths are per rail, and a static path answers only its own methods.
  for (const rail of BANK_RAILS) {
    app.get(
      `/v1/bank-rails/${rail}`,
      {
        schema: {
          tags,
          operationId: rail === "sepa" ? "getSepaRail" : "getAchRail",
          summary: `Read the ${rail === "sepa" ? "SEPA" : "ACH"} rail`,
          description: "404 `not_found` when it is not configured. Secrets are never returned.",
          response: routeResponses({ 200: bankRail }, { access: "read", codes: ["not_found"] }),
        },
      },
      async (request) => service.get(requireActor(request), rail),
    );

    app.delete(
      `/v1/bank-rails/${rail}`,
      {
        schema: {
          tags,
          operationId: rail === "sepa" ? "deleteSepaRail" : "deleteAchRail",
          summary: `Remove the ${rail === "sepa" ? "SEPA" : "ACH"} rail`,
          description:
            "Answers 204, also when it was not configured. Refused with 409 `BANK_RAIL_IN_USE` while payouts wait for its next file. Files already sent stay listed. With no bank rail left, production payouts go to the simulator again.",
          response: routeResponses(
            { 204: Type.Null({ description: "Removed." }) },
            { access: "write", codes: [BANK_RAIL_ERRORS.BANK_RAIL_IN_USE] },
          ),
        },
      },
      async (request, reply) => {
        await service.remove(requireActor(request), rail);
        return reply.code(204).send(null);
      },
    );

    app.post(
      `/v1/bank-rails/${rail}/test-connection`,
      {
        schema: {
          tags,
          operationId: rail === "sepa" ? "testSepaRailConnection" : "testAchRailConnection",
          summary: `Test the ${rail === "sepa" ? "SEPA" : "ACH"} rail's connection`,
          description:
            "Connects to the configured SFTP server with the stored credentials, checks the pinned host key, logs in and lists the outbound and inbound directories, without sending, renaming or reading any file; a local-directory rail has its two folders checked. Answers 200 whatever the outcome, with each step `passed`, `failed` or `skipped` and what happened in words (a changed host key with the key presented, refused credentials, a missing directory, no answer within 10 seconds). The whole test stops after 10 seconds. The host is held to the address rules of every connection. Never returns a secret. Recorded in the audit log (`bank_rail_connection_tested`). 404 `not_found` when the rail is not configured. Production keys only; business_admin role.",
          response: routeResponses({ 200: ConnectionTestSchema }, { access: "write", codes: ["not_found"] }),
        },
      },
      async (request) => service.testConnection(requireActor(request), rail),
    );
  }

  app.get(
    "/v1/bank-files",
    {
      schema: {
        tags,
        operationId: "listBankFiles",
        summary: "List bank files",
        description:
          "Every file built at a cut-off, newest first: rail, cut-off, entry count, control sum, status (`built`, `uploaded`, `accepted`, `partially_accepted`, `rejected`), upload and acknowledgment times, the last upload error and `alerts`. A file is built once per rail and cut-off and kept.",
        querystring: BankFileListQuerySchema,
        response: routeResponses({ 200: BankFileListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => service.listFiles(requireActor(request), request.query),
  );

  app.get(
    "/v1/bank-files/:id",
    {
      schema: {
        tags,
        operationId: "getBankFile",
        summary: "Read a bank file and its payouts",
        description:
          "The file and each payout it carries with its reference (EndToEndId or trace number) and the last status the bank reported for it.",
        params: BankFileParamsSchema,
        response: routeResponses({ 200: BankFileDetailSchema }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.getFile(requireActor(request), request.params.id),
  );

  app.get(
    "/v1/bank-inbound-files",
    {
      schema: {
        tags,
        operationId: "listBankInboundFiles",
        summary: "List the files the bank sent",
        description:
          "Every file read from the bank's inbound directories (pain.002 status reports, camt.054 notifications, ACH return and notification-of-change files), newest first, filtered by `rail` and `status`: its name, size, when it was read, its status (`applied`, `partially_applied`, `refused`, `duplicate`), each payout it moved and what it asked for it, and every problem in words (the file refused and why; each item that named no payout of ours or one whose amount, account, bank, direction or date differ, which moved nothing). A route of its own rather than `GET /v1/bank-files?direction=inbound`: the files we send and the bank's answers have different fields and statuses. The content is never returned (return files carry account numbers). Problems are also events: `bank_file.refused`, `bank_file.item_unmatched`. Every role.",
        querystring: BankInboundFileListQuerySchema,
        response: routeResponses({ 200: BankInboundFileListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => inbound.list(requireActor(request), request.query),
  );

  app.get(
    "/v1/bank-inbound-files/:id",
    {
      schema: {
        tags,
        operationId: "getBankInboundFile",
        summary: "Read a file the bank sent",
        description: "One inbound file as listed (status, what it moved, its problems in words). Every role.",
        params: BankFileParamsSchema,
        response: routeResponses({ 200: Type.Ref("BankInboundFile") }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => inbound.get(requireActor(request), request.params.id),
  );

  app.get(
    "/v1/bank-files/:id/content",
    {
      schema: {
        tags,
        operationId: "downloadBankFileContent",
        summary: "Download the exact bytes sent to the bank",
        description:
          "The file as delivered (pain.001 XML or NACHA text). business_admin keys only, and every read is logged with the key that made it: the file holds account numbers in clear.",
        params: BankFileParamsSchema,
        response: routeResponses(
          { 200: BankFileContentResponseSchema },
          { access: "write", hasInput: true, codes: ["not_found"] },
        ),
      },
    },
    async (request, reply) => {
      const file = await service.fileContent(requireActor(request), request.params.id);
      return reply
        .header("content-type", `${file.contentType}; charset=utf-8`)
        .header("content-disposition", `attachment; filename="${file.fileName}"`)
        .header("cache-control", "no-store")
        .send(file.content);
    },
  );
}
