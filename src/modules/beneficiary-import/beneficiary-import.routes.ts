import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { ImportBodySchema, ImportResponseSchema, MAX_IMPORT_ROWS } from "./beneficiary-import.schemas.js";
import type { BeneficiaryImportService } from "./beneficiary-import.service.js";

const DESCRIPTION = [
  `Creates up to ${MAX_IMPORT_ROWS} Beneficiaries, each with its bank account and, when the row says \`acknowledged: true\`, the compliance acknowledgment. Rows succeed or fail on their own: one bad row never stops or undoes the others, so the call answers **200** whenever the body itself is well formed, and \`results\` (one entry per row, same order, with \`index\`) tells what happened to each.`,
  "**Body:** `rows`, 1 to 500 objects; fewer, more, or a row that is not an object is 400 `validation_failed` for the whole call. Each row is then validated on its own against `BeneficiaryImportRow`: required are `email`, `bank`, and either `first_name` and `last_name` (a person) or `business_name` (a business); `beneficiary_type` is inferred that way and may be given to settle a row that has both. The identity fields are checked as on `POST /v1/beneficiaries`, and `bank` exactly as on `POST /v1/beneficiaries/{id}/bank-accounts` (IBAN and BIC, ABA, sort code, CLABE, Pix key, …).",
  "**Row status:** `created`; `already_exists` when an active Beneficiary of this e-mail (case-insensitive) already holds this bank account: its ids are returned and nothing is written, so sending the same file again creates nothing and answers with the ids of the first run; `duplicate` when the row repeats an earlier row of the file (same e-mail and bank account; `duplicate_of` names it, and the ids are that row's); `failed` otherwise, with nothing written for the row.",
  "**Row error:** `error` is present on failed rows only: `code`, `message` and `field` of the first problem, and `details` listing every problem of the row. Fields are paths relative to the row (`email`, `bank.iban`, `postal_address.country`), since `index` already names the row. Codes: the validation codes of the API (`required`, `invalid_format`, `too_long`, `unknown_field`, `invalid_type`, `invalid_country`, `out_of_range`, …) and of the bank-details check (`invalid_iban_checksum`, `iban_country_mismatch`, `invalid_clabe_checksum`, `invalid_pix_key`, …); `BENEFICIARY_EMAIL_TAKEN` when an active Beneficiary has the e-mail but not this bank account (`beneficiary_id` names it); `duplicate_email` when an earlier row of the file has the e-mail with another bank account; `internal_error` (field empty) when the database refused the row unexpectedly.",
  "Imported accounts fire no `beneficiary.bank_account.registered` event: this response is the complete result. Two identical imports running at once create each Beneficiary once; the second answers `already_exists`.",
].join("\n\n");

export function registerBeneficiaryImportRoutes(app: AppInstance, service: BeneficiaryImportService): void {
  app.post(
    "/v1/beneficiaries/import",
    {
      schema: {
        tags: ["Beneficiaries"],
        operationId: "importBeneficiaries",
        summary: "Import Beneficiaries with bank accounts",
        description: DESCRIPTION,
        body: ImportBodySchema,
        response: routeResponses({ 200: ImportResponseSchema }, { access: "write", hasBody: true }),
      },
    },
    async (request) => service.importRows(requireActor(request), request.body.rows),
  );
}
