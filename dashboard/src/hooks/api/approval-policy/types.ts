import type { Schemas } from "../../../api/client";

export type ApprovalPolicy = Schemas["ApprovalPolicy"];
export type ApprovalPolicyInput = Schemas["ReplaceApprovalPolicyRequest"];
