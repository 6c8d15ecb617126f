// The bank-rails module's error codes (SEPA credit transfers and US ACH by bank file): configuring a rail, and
// what a bank file cannot carry (BANK_FILE_REFUSALS, in src/rails/bank-files/refusals.ts so that payouts,
// destinations and collection can declare them without importing this module; contributed to the table here).
// Thrown and declared by their definition (`new AppError(TABLE.CODE)`); see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";
import { BANK_FILE_REFUSALS } from "../../rails/bank-files/refusals.js";

export const BANK_RAIL_ERRORS = {
  ...BANK_FILE_REFUSALS,
  ...defineErrorCodes({
    BANK_RAIL_LOCAL_DELIVERY_NOT_ALLOWED: {
      status: 422,
      message:
        "Delivery to a local directory is not allowed on this service: use SFTP delivery, or ask the operator to set BANK_RAIL_LOCAL_ROOT.",
      description:
        "Local-directory delivery writes bank files on the service's own disk; the operator allows it by setting `BANK_RAIL_LOCAL_ROOT`. Use SFTP delivery, or ask the operator.",
    },
    BANK_RAIL_IN_USE: {
      status: 409,
      message:
        "Payouts are waiting for this rail's next file; it cannot be removed now. Remove it after the next cut-off, or cancel the waiting payouts first.",
      description: "Remove the rail after its next cut-off has put the waiting payouts into a file, or cancel them first.",
    },
    BANK_RAIL_HOST_NOT_PUBLIC: {
      status: 422,
      message:
        "The SFTP host does not resolve to a public address: use the bank's public SFTP host, or ask the operator to allow private hosts (BANK_RAIL_ALLOW_PRIVATE_HOSTS).",
      description:
        "Bank-rail SFTP hosts follow the same address rules as webhook URLs: the host (`delivery.host`) is, or resolves to, an address that is not global unicast (loopback, private, link-local, carrier-grade NAT, unique-local, documentation, reserved…). The message names the host you sent, never the address it resolved to. The operator can allow private bank hosts (`BANK_RAIL_ALLOW_PRIVATE_HOSTS`), for a bank reached over a private link.",
    },
    BANK_RAIL_DEBTOR_ACCOUNT_TAKEN: {
      status: 409,
      message:
        "Another Business on this service already sends files for this debtor account. Check the account; if it is yours, ask the operator of this service which configuration holds it.",
      description:
        "One debtor account belongs to one Business per environment: the IBAN of a SEPA rail, the ODFI routing number with the Company Identification of an ACH rail. If the account is yours, the operator of this service can tell which configuration holds it.",
    },
  }),
};
