import type { Schemas } from "../../../api/client";

export type ApiKey = Schemas["ApiKey"];
/** The answer to a creation: the only time the key itself is shown. */
export type IssuedApiKey = Schemas["IssuedApiKey"];
export type ApiKeyInput = Schemas["CreateApiKeyRequest"];
