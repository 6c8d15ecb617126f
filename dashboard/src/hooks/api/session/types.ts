import type { Schemas } from "../../../api/client";

export type Session = Schemas["Session"];
export type MySession = Schemas["MySessionList"]["sessions"][number];
