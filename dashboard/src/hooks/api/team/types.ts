import type { Schemas } from "../../../api/client";

export type Member = Schemas["MemberList"]["members"][number];
export type Invitation = Schemas["Invitation"];
export type InvitationInput = Schemas["CreateInvitationRequest"];
