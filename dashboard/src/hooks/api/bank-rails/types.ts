// The bank rails and bank files as the API shows them (production only; sandbox has none).
import type { Schemas } from "../../../api/client";

export type BankRail = Schemas["BankRail"];
export type BankRailName = BankRail["rail"];
export type SepaRailBody = Schemas["ConfigureSepaRailRequest"];
export type AchRailBody = Schemas["ConfigureAchRailRequest"];
export type ConnectionTest = Schemas["BankRailConnectionTest"];
export type BankFile = Schemas["BankFile"];
export type BankFileDetail = Schemas["BankFileDetail"];
export type BankInboundFile = Schemas["BankInboundFile"];
