// The JSON body an operation of the OpenAPI document takes, by path and method: a mutation hook's input type
// without naming the generated schema (`JsonBody<"/v1/session", "post">`).
import type { paths } from "../../api/generated/openapi";

export type JsonBody<P extends keyof paths, M extends "post" | "put" | "patch"> = paths[P][M] extends {
  requestBody?: { content: { "application/json": infer Body } };
}
  ? Body
  : never;
