import { Type } from "@sinclair/typebox";
import { AppError } from "../../platform/errors.js";
import { checkBodyEncoding } from "../../platform/http/json-body.js";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import { decodeUtf8 } from "../../platform/http/text-input.js";
import type { AppInstance } from "../../platform/http/types.js";
import { RECONCILIATION_ERRORS } from "./reconciliation.errors.js";
import {
  IdParamsSchema,
  LineListQuerySchema,
  LineListSchema,
  MatchBodySchema,
  ReasonBodySchema,
  StatementListQuerySchema,
  StatementListSchema,
  StatementUploadSchema,
} from "./reconciliation.schemas.js";
import type { ReconciliationService } from "./reconciliation.service.js";

const tags = ["Reconciliation"];
const statement = Type.Ref("BankStatement");
const line = Type.Ref("StatementLine");
const STATEMENT_TYPES = ["application/xml", "text/xml", "text/plain"];
const MANUAL = "Approvers and admins (step-up from a session); audited.";

export function registerReconciliationRoutes(app: AppInstance, service: ReconciliationService, maxStatementBytes: number): void {
  // The upload takes the file's bytes (XML or BAI2 text), in its own scope: JSON is refused here, and the
  // size limit is the inbound files' (BANK_RAIL_INBOUND_MAX_FILE_BYTES), not the JSON body limit.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(STATEMENT_TYPES, { parseAs: "buffer", bodyLimit: maxStatementBytes }, (request, body, done) => {
      try {
        checkBodyEncoding(request);
        const text = typeof body === "string" ? body : decodeUtf8(body);
        if (text === null) throw new AppError("bad_request", { message: "The statement is not valid UTF-8 text." });
        done(null, text);
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    scope.addContentTypeParser("*", (_request, _payload, done) => {
      done(
        new AppError("unsupported_media_type", {
          message: "Send the statement file's bytes with Content-Type application/xml (camt.053, camt.052) or text/plain (BAI2).",
        }),
        undefined,
      );
    });
    scope.post(
      "/v1/bank-statements",
      {
        schema: {
          tags,
          operationId: "uploadBankStatement",
          summary: "Upload a bank statement",
          description: `The statement file's bytes as the body: camt.053 (\`.001.02\`, \`.001.08\`), camt.052 or BAI2, \`Content-Type: application/xml\` or \`text/plain\`. The statement belongs to the funding account of the bank rail whose account it names (422 \`STATEMENT_ACCOUNT_UNKNOWN\` otherwise). Its booked lines are matched at once (end_to_end_id, batch, return, top_up, amount_date), unknown money posted, the closing balance proved. 201 with the statement; the same statement again (also by the inbound folder) answers 200 and adds nothing; entries already known from another statement (a camt.052 before the day's camt.053) are not added twice. A file holding several statements answers the first. Approvers and admins.`,
          consumes: STATEMENT_TYPES,
          body: StatementUploadSchema,
          response: routeResponses(
            { 200: statement, 201: statement },
            {
              access: "write",
              hasBody: true,
              codes: [RECONCILIATION_ERRORS.STATEMENT_UNREADABLE, RECONCILIATION_ERRORS.STATEMENT_ACCOUNT_UNKNOWN],
            },
          ),
        },
      },
      async (request, reply) => {
        if (typeof request.body !== "string" || request.body.trim() === "")
          throw new AppError(RECONCILIATION_ERRORS.STATEMENT_UNREADABLE, {
            message: "The body is empty: send the statement file's bytes.",
          });
        const { created, statement: body } = await service.upload(requireActor(request), request.body);
        return reply.code(created ? 201 : 200).send(body);
      },
    );
  });

  app.get(
    "/v1/bank-statements",
    {
      schema: {
        tags,
        operationId: "listBankStatements",
        summary: "List bank statements",
        description: "Newest first, in cursor pages; filter `funding_account_id`. Every role.",
        querystring: StatementListQuerySchema,
        response: routeResponses({ 200: StatementListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => service.listStatements(requireActor(request), request.query),
  );

  app.get(
    "/v1/bank-statements/:id",
    {
      schema: {
        tags,
        operationId: "getBankStatement",
        summary: "Read a bank statement",
        description: "With its lines by status and its balance check. Every role.",
        params: IdParamsSchema,
        response: routeResponses({ 200: statement }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.getStatement(requireActor(request), request.params.id),
  );

  app.get(
    "/v1/statement-lines",
    {
      schema: {
        tags,
        operationId: "listStatementLines",
        summary: "List statement lines",
        description:
          "Newest first, in cursor pages; filters `status` (`needs_review` is the review queue, `unmatched` the unknown money), `funding_account_id`, `statement_id`. Every role.",
        querystring: LineListQuerySchema,
        response: routeResponses({ 200: LineListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => service.listLines(requireActor(request), request.query),
  );

  app.get(
    "/v1/statement-lines/:id",
    {
      schema: {
        tags,
        operationId: "getStatementLine",
        summary: "Read a statement line",
        description: "With its match, or its candidates and why it waits for a person. Every role.",
        params: IdParamsSchema,
        response: routeResponses({ 200: line }, { access: "read", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request) => service.getLine(requireActor(request), request.params.id),
  );

  const lineActCodes = [
    "not_found",
    RECONCILIATION_ERRORS.STATEMENT_LINE_NOT_OPEN,
    RECONCILIATION_ERRORS.STATEMENT_MATCH_REFUSED,
  ] as const;
  app.post(
    "/v1/statement-lines/:id/match",
    {
      schema: {
        tags,
        operationId: "matchStatementLine",
        summary: "Match a statement line",
        description: `A line in review or unmatched, matched by a person: \`payout_ids\` (a debit: the payouts it booked, which move to \`disbursed\` at the booking date when not yet and are marked reconciled; a credit: the one payout it returns) or \`top_up_id\` (a credit). What an unmatched line posted (its credit, or its debit to suspense) is undone first; a difference within the tolerance posts to fees. ${MANUAL}`,
        params: IdParamsSchema,
        body: MatchBodySchema,
        response: routeResponses({ 200: line }, { access: "write", hasBody: true, hasInput: true, codes: lineActCodes }),
      },
    },
    async (request) => service.match(requireActor(request), request.params.id, request.body),
  );

  app.post(
    "/v1/statement-lines/:id/unmatch",
    {
      schema: {
        tags,
        operationId: "unmatchStatementLine",
        summary: "Undo a statement line's match",
        description: `Its payouts back to \`unreconciled\` (their status stays: the money left), a fee it posted reversed, the line back in review. A return cannot be undone (409). ${MANUAL}`,
        params: IdParamsSchema,
        response: routeResponses({ 200: line }, { access: "write", hasInput: true, codes: lineActCodes }),
      },
    },
    async (request) => service.unmatch(requireActor(request), request.params.id),
  );

  app.post(
    "/v1/statement-lines/:id/ignore",
    {
      schema: {
        tags,
        operationId: "ignoreStatementLine",
        summary: "Ignore a statement line",
        description: `A line in review or unmatched, explained outside the service (\`reason\` kept). What it posted stays: the bank moved the money. ${MANUAL}`,
        params: IdParamsSchema,
        body: ReasonBodySchema,
        response: routeResponses({ 200: line }, { access: "write", hasBody: true, hasInput: true, codes: lineActCodes }),
      },
    },
    async (request) => service.ignore(requireActor(request), request.params.id, request.body.reason),
  );

  app.post(
    "/v1/bank-statements/:id/accept-opening-balance",
    {
      schema: {
        tags,
        operationId: "acceptStatementOpeningBalance",
        summary: "Accept a statement's opening balance",
        description:
          "The statement's opening booked balance becomes the funding account's starting balance (a ledger transfer from the outside world), once per funding account (409 `OPENING_BALANCE_ALREADY_SET`); the statement's balance check is taken again. Admins, step-up; audited.",
        params: IdParamsSchema,
        response: routeResponses(
          { 200: statement },
          {
            access: "write",
            hasInput: true,
            codes: [
              "not_found",
              RECONCILIATION_ERRORS.OPENING_BALANCE_ALREADY_SET,
              RECONCILIATION_ERRORS.STATEMENT_MATCH_REFUSED,
            ],
          },
        ),
      },
    },
    async (request) => service.acceptOpeningBalance(requireActor(request), request.params.id),
  );

  app.post(
    "/v1/bank-statements/:id/resolve-mismatch",
    {
      schema: {
        tags,
        operationId: "resolveStatementMismatch",
        summary: "Resolve a balance mismatch",
        description: `A statement whose closing balance disagreed with the ledger (or that came after a gap) is marked \`resolved\` with the \`reason\`. ${MANUAL}`,
        params: IdParamsSchema,
        body: ReasonBodySchema,
        response: routeResponses(
          { 200: statement },
          { access: "write", hasBody: true, hasInput: true, codes: ["not_found", RECONCILIATION_ERRORS.BALANCE_NOT_MISMATCHED] },
        ),
      },
    },
    async (request) => service.resolveMismatch(requireActor(request), request.params.id, request.body.reason),
  );
}
