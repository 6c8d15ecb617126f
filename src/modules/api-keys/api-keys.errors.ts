// The api-keys module's error codes.
// Thrown and declared by their definition (`new AppError(TABLE.CODE)`); see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const API_KEY_ERRORS = defineErrorCodes({
  LAST_ACTIVE_ADMIN_KEY: {
    status: 409,
    message:
      "This is the last active business_admin key of this environment and cannot be revoked: create another business_admin key first, then revoke this one.",
    description: "Create another business_admin key for the environment first, then revoke this one.",
  },
});
