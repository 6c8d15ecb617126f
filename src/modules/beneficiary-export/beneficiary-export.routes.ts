import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { BeneficiaryCsvResponseSchema, EXPORT_DESCRIPTION } from "./beneficiary-export.schemas.js";
import type { BeneficiaryExportService } from "./beneficiary-export.service.js";

export function registerBeneficiaryExportRoutes(app: AppInstance, service: BeneficiaryExportService): void {
  // A static path: find-my-way prefers it to the parametric GET /v1/beneficiaries/:id whatever the order of
  // registration (for HEAD too, through Fastify's HEAD twin of this route).
  app.get(
    "/v1/beneficiaries/export",
    {
      schema: {
        tags: ["Beneficiaries"],
        operationId: "exportBeneficiaries",
        summary: "Export Beneficiaries as CSV",
        description: EXPORT_DESCRIPTION,
        response: routeResponses({ 200: BeneficiaryCsvResponseSchema }, { access: "read" }),
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      // HEAD answers the headers without reading a row (Fastify would otherwise build the file and discard it).
      const exported =
        request.method === "HEAD" ? { filename: service.exportFilename(actor), csv: undefined } : await service.openExport(actor);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${exported.filename}"`)
        .header("cache-control", "no-store")
        .send(exported.csv);
    },
  );
}
