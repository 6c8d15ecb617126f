import type { Schemas } from "../../../api/client";

export type BusinessProfile = Schemas["BusinessProfile"];
export type BusinessProfileChanges = Schemas["UpdateBusinessProfileRequest"];
