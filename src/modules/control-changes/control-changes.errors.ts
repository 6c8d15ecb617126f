// The control-changes module's error codes. Thrown as `new AppError(CONTROL_CHANGE_ERRORS.CODE)`; see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const CONTROL_CHANGE_ERRORS = defineErrorCodes({
  CONTROL_CHANGE_SAME_PERSON: {
    status: 403,
    message: "The person who proposed this change may not approve it.",
    description:
      "With maker-checker on, a change that weakens a control takes effect only when a second admin approves it. The proposer is compared by person (their membership or user, with any of their keys). Ask another admin; the proposer may discard it.",
  },
  CONTROL_CHANGE_NOT_PENDING: {
    status: 409,
    message: "The control change is no longer pending.",
    description:
      "A control change is approved or discarded once; a newer proposal for the same control supersedes it. Read it to see what became of it.",
  },
  CONTROL_CHANGE_STALE: {
    status: 409,
    message: "The control changed since this change was proposed.",
    description:
      "A pending change applies only to the value it was proposed against (its `base`). Someone changed the control since (a tightening applies at once), so approving it now would undo that. Discard it and propose the change again from the current value.",
  },
});
