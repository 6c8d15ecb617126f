// The bank-rail configuration as the API takes and shows it. Secrets (SFTP password, private key) are
// write-only: a response says whether one is stored, never what it is.
import { type Static, Type } from "@sinclair/typebox";
import { nullable, stringEnum } from "../../platform/http/schema-types.js";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";

export const BANK_RAILS = ["sepa", "ach"] as const;
export type BankRailName = (typeof BANK_RAILS)[number];

const ROUTING_NUMBER_MESSAGE = "Expected a 9-digit ABA routing number, e.g. 091000019.";

const CutoffTimesSchema = Type.Array(
  Type.String({
    pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$",
    "x-pattern-message": "Expected a time of day as HH:MM, 24-hour, from 00:00 to 23:59, e.g. 15:00.",
    description: "HH:MM, 24-hour.",
  }),
  {
    minItems: 1,
    maxItems: 24,
    uniqueItems: true,
    description: "Times of day (in `time_zone`) at which waiting payouts are put into one file and delivered.",
  },
);
const TimeZoneSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  description: "IANA time zone of the cut-off times, e.g. `Europe/Berlin`.",
});
const StatusTimeoutSchema = Type.Integer({
  minimum: 1,
  maximum: 24 * 14,
  description:
    "Hours after upload without a status report before the file is flagged (`alerts`: `no_status_report`). Default 24.",
});
const RelativeDirSchema = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: "^(?!.*(^|/)\\.\\.?(/|$))[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$",
  "x-pattern-message":
    "Expected a relative directory path of letters, digits, '.', '_' and '-', its parts joined by '/', with no '.' or '..' part and no leading or trailing '/', e.g. outbound/sepa.",
  description: "A directory path: letters, digits, `.`, `_`, `-` and `/`, no `.` or `..` segment.",
});

const SftpDeliveryInput = Type.Object(
  {
    kind: Type.Literal("sftp"),
    host: Type.String({
      minLength: 1,
      maxLength: 253,
      pattern: "^[A-Za-z0-9.:\\[\\]-]+$",
      "x-pattern-message": "Expected a host name or IP address without scheme, port or path, e.g. sftp.bank.example.",
      description:
        "A host name or IP address of a public (global unicast) address, unless the operator allows private hosts (`BANK_RAIL_ALLOW_PRIVATE_HOSTS`). Stored in canonical form.",
    }),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: "Default 22." })),
    username: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: "^[A-Za-z0-9._@-]+$",
      "x-pattern-message": "Expected a user name of letters, digits, '.', '_', '@' and '-', e.g. acme-payouts.",
    }),
    password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          "Write-only. Kept when omitted later only while host, port, username and host_key_fingerprint stay the same; dropped when any of them changes unless sent again.",
      }),
    ),
    private_key: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 16_384,
        "x-multiline": true,
        description:
          "OpenSSH or PEM private key (unencrypted), line breaks included. Write-only; bound to the server like `password`.",
      }),
    ),
    host_key_fingerprint: Type.String({
      pattern: "^SHA256:[A-Za-z0-9+/]{43}=?$",
      "x-pattern-message":
        "Expected the host key fingerprint as `ssh-keygen -lf` prints it: SHA256: followed by 43 base64 characters, e.g. SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU.",
      description:
        "The server's host key as `ssh-keygen -lf` prints it (`SHA256:…`). A server presenting another key is refused.",
    }),
    outbound_directory: RelativeDirSchema,
    inbound_directory: RelativeDirSchema,
  },
  { additionalProperties: false },
);

const LocalDeliveryInput = Type.Object(
  {
    kind: Type.Literal("local_directory"),
    outbound_directory: RelativeDirSchema,
    inbound_directory: RelativeDirSchema,
  },
  {
    additionalProperties: false,
    description:
      "Folders in the Business's own folder under the operator's root, `<BANK_RAIL_LOCAL_ROOT>/<business id>/<environment>/`, which no configuration can leave; a symbolic link anywhere below the root is refused, never followed. Refused unless the operator set `BANK_RAIL_LOCAL_ROOT`.",
  },
);

const DeliveryInput = Type.Union([SftpDeliveryInput, LocalDeliveryInput]);

const ArmoredKey = (description: string) => Type.String({ minLength: 1, maxLength: 65_536, "x-multiline": true, description });

const OpenPgpInput = Type.Object(
  {
    bank_public_key: ArmoredKey(
      "The bank's OpenPGP public key, armored. Every outgoing file is encrypted to it (AEAD off, for bank compatibility).",
    ),
    private_key: Type.Optional(
      ArmoredKey(
        "The Business's OpenPGP private key, armored. Outgoing files are signed with it; with `inbound` `decrypt_and_verify` the bank's files are decrypted with it. Write-only, stored encrypted; kept when omitted later.",
      ),
    ),
    private_key_passphrase: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1_000,
        description: "Unlocks `private_key` once, when it is stored; never stored itself. Write-only.",
      }),
    ),
    inbound: Type.Optional(
      stringEnum(["plain", "decrypt_and_verify"], {
        description:
          "`decrypt_and_verify`: the bank's files arrive encrypted to the Business's key and signed with the bank's key; a file that does not decrypt or whose signature does not verify is refused. Default `plain`.",
      }),
    ),
  },
  {
    additionalProperties: false,
    description: "OpenPGP for this rail's files, optional. Omit it (or send null) to exchange files unencrypted.",
  },
);
export type OpenPgpInput = Static<typeof OpenPgpInput>;
const OpenPgpField = Type.Optional(Type.Union([OpenPgpInput, Type.Null()]));
export type DeliveryInput = Static<typeof DeliveryInput>;

const AddressInput = Type.Object(
  {
    street_name: Type.Optional(Type.String({ minLength: 1, maxLength: 70 })),
    building_number: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
    postal_code: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
    town_name: Type.String({ minLength: 1, maxLength: 35 }),
    country: Type.String({ pattern: "^[A-Z]{2}$" }),
  },
  { additionalProperties: false },
);

export const PutSepaBodySchema = Type.Object(
  {
    originator: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 70, description: "Debtor name (sent in the SEPA character set)." }),
        iban: Type.String({ minLength: 15, maxLength: 34 }),
        bic: Type.Optional(
          Type.String({
            pattern: "^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$",
            "x-pattern-message": "Expected a BIC of 8 or 11 capital letters and digits, e.g. COBADEFFXXX.",
          }),
        ),
        initiating_party_id: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
        address: Type.Optional(AddressInput),
      },
      { additionalProperties: false },
    ),
    file_format: Type.Optional(stringEnum(["pain.001.001.09", "pain.001.001.03"], { description: "Default pain.001.001.09." })),
    cutoff_times: CutoffTimesSchema,
    time_zone: TimeZoneSchema,
    status_report_timeout_hours: Type.Optional(StatusTimeoutSchema),
    delivery: DeliveryInput,
    openpgp: OpenPgpField,
  },
  { "x-component": "ConfigureSepaRailRequest", additionalProperties: false },
);
export type PutSepaBody = Static<typeof PutSepaBodySchema>;

export const PutAchBodySchema = Type.Object(
  {
    originator: Type.Object(
      {
        odfi_routing_number: Type.String({ pattern: "^[0-9]{9}$", "x-pattern-message": ROUTING_NUMBER_MESSAGE }),
        immediate_destination: Type.String({
          pattern: "^[0-9]{9}$",
          "x-pattern-message": ROUTING_NUMBER_MESSAGE,
          description: "Routing number of the bank the file goes to.",
        }),
        immediate_destination_name: Type.String({ minLength: 1, maxLength: 23 }),
        immediate_origin: Type.String({
          pattern: "^[0-9A-Z]{9,10}$",
          "x-pattern-message":
            "Expected 9 or 10 digits or capital letters (usually your Company Identification), e.g. 1234567890.",
        }),
        immediate_origin_name: Type.String({ minLength: 1, maxLength: 23 }),
        company_name: Type.String({ minLength: 1, maxLength: 16 }),
        company_identification: Type.String({
          pattern: "^[0-9A-Z]{10}$",
          "x-pattern-message": "Expected exactly 10 digits or capital letters, as your bank assigned it, e.g. 1234567890.",
        }),
        payout_purpose: Type.Optional(
          stringEnum(["payroll", "other"], {
            description:
              "`payroll`: wages and salaries, sent with the Company Entry Description `PAYROLL` as NACHA requires. Default `other`.",
          }),
        ),
        account_number: Type.Optional(
          Type.String({
            pattern: "^[0-9A-Za-z-]{4,17}$",
            "x-pattern-message": "Expected the account number as the bank prints it on statements: 4 to 17 digits or letters.",
            description:
              "The originator's account at the ODFI, as its BAI2 statements name it: a statement uploaded or received for this number belongs to this rail's funding account (issue 28).",
          }),
        ),
        entry_description: Type.Optional(
          Type.String({
            pattern: "^[A-Z0-9 ]{1,10}$",
            "x-pattern-message": "Expected 1 to 10 capital letters, digits or spaces, e.g. PAYOUT.",
            description:
              "Company Entry Description for `other` payouts (default `PAYOUT`); `PAYROLL` and `PURCHASE` are reserved.",
          }),
        ),
      },
      { additionalProperties: false },
    ),
    cutoff_times: CutoffTimesSchema,
    time_zone: TimeZoneSchema,
    status_report_timeout_hours: Type.Optional(StatusTimeoutSchema),
    delivery: DeliveryInput,
    openpgp: OpenPgpField,
  },
  { "x-component": "ConfigureAchRailRequest", additionalProperties: false },
);
export type PutAchBody = Static<typeof PutAchBodySchema>;

export const BankRailSchema = Type.Object(
  {
    rail: stringEnum(BANK_RAILS),
    originator: Type.Record(Type.String(), Type.Unknown(), { description: "As configured (no secret lives here)." }),
    file_format: Type.String(),
    cutoff_times: Type.Array(Type.String()),
    time_zone: Type.String(),
    status_report_timeout_hours: Type.Integer(),
    delivery: Type.Object({
      kind: stringEnum(["sftp", "local_directory"]),
      host: nullable(Type.String()),
      port: nullable(Type.Integer()),
      username: nullable(Type.String()),
      host_key_fingerprint: nullable(Type.String()),
      has_password: Type.Boolean({
        description:
          "Whether an SFTP password is stored (never returned). False after the host, port, username or host key changed without it being sent again.",
      }),
      has_private_key: Type.Boolean({
        description: "Whether an SFTP private key is stored (never returned); dropped like the password when the server changes.",
      }),
      outbound_directory: Type.String({
        description:
          "For local delivery, relative to the Business's own folder `<BANK_RAIL_LOCAL_ROOT>/<business id>/<environment>/`.",
      }),
      inbound_directory: Type.String(),
    }),
    openpgp: Type.Union(
      [
        Type.Object({
          bank_key_fingerprint: Type.String({ description: "Fingerprint of the bank's public key (hex)." }),
          has_private_key: Type.Boolean({ description: "Whether the Business's private key is stored (never returned)." }),
          private_key_fingerprint: nullable(Type.String({ description: "Fingerprint of the Business's key (hex)." })),
          inbound: stringEnum(["plain", "decrypt_and_verify"]),
        }),
        Type.Null(),
      ],
      { description: "OpenPGP settings, or null when files travel unencrypted." },
    ),
    created_at: Type.String({ format: "date-time" }),
    updated_at: Type.String({ format: "date-time" }),
  },
  { $id: "BankRail" },
);
export type BankRailBody = Static<typeof BankRailSchema>;

export const BankRailListSchema = Type.Object(
  { bank_rails: Type.Array(Type.Ref("BankRail")) },
  { "x-component": "BankRailList" },
);

export const BankFileSchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    rail: stringEnum(BANK_RAILS),
    file_name: Type.String({ description: "Deterministic: the same cut-off always gives the same name." }),
    message_id: Type.String({
      description: "pain.001 `MsgId` (echoed by the bank's pain.002), or the NACHA file date and modifier.",
    }),
    format: Type.String({ description: "pain.001.001.09, pain.001.001.03 or nacha." }),
    cutoff_at: Type.String({ format: "date-time" }),
    entry_count: Type.Integer(),
    control_sum_minor: Type.Integer({ description: "Sum of the file's amounts, in minor units." }),
    currency: Type.String(),
    status: stringEnum(["built", "uploaded", "accepted", "partially_accepted", "rejected", "refused"], {
      description:
        "After the bank's status reports (pain.002, statuses at file, payment-block and transaction level; a transaction's own status wins, else its block's, else the file's): `accepted` every payout accepted; `rejected` every payout rejected; `partially_accepted` some accepted or still open (a `PART` report leaves a transaction without a status of its own as it was) and some rejected, or some decided and some still open; a `PDNG` report changes nothing. `refused`: the cut-off could not write the file (alert `file_id_modifiers_exhausted`: 36 NACHA files, File ID Modifiers A-Z and 0-9, already carry its creation date); it has no content, `last_upload_error` says why, and its payouts stay queued for the next cut-off.",
    }),
    created_at: Type.String({ format: "date-time" }),
    uploaded_at: nullable(Type.String({ format: "date-time" })),
    acknowledged_at: nullable(
      Type.String({ format: "date-time", description: "When the bank's first status report on it arrived." }),
    ),
    upload_attempts: Type.Integer(),
    last_upload_error: nullable(
      Type.String({
        description:
          "Why the last upload failed, in words that name nothing internal: `could not connect to the SFTP server` (whatever the cause: refused, timed out, unreachable, not an SSH server, an address the rules refuse; the service log has the detail), a changed host key (with the key presented), refused credentials, missing credentials (dropped when the server changed), a refused file operation, a symbolic link in a local folder.",
      }),
    ),
    alerts: Type.Array(Type.String(), {
      description:
        "What needs attention: `no_status_report` (no pain.002 or return file within the rail's `status_report_timeout_hours`), `rejected` (the bank refused the file or part of it), `unmatched_entries` (an inbound file named an entry of this file but its facts differ: amount, account, receiving bank, direction or date; nothing was moved and the inbound file says what differed), `return_code_not_for_credit` (an ACH return used a code that only answers debits, such as R01; applied because every fact agreed), `notification_of_change`, `file_id_modifiers_exhausted` (status `refused`).",
    }),
  },
  { $id: "BankFile" },
);
export type BankFileBody = Static<typeof BankFileSchema>;

export const BankFileListQuerySchema = Type.Object({ ...PageQuerySchema }, { additionalProperties: false });
export type BankFileListQuery = Static<typeof BankFileListQuerySchema>;

export const BankFileListSchema = Type.Object(
  {
    bank_files: Type.Array(Type.Ref("BankFile")),
    next_cursor: nullable(Type.String()),
  },
  { "x-component": "BankFileList" },
);

export const BankFileParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });

export const BankFileDetailSchema = Type.Object(
  {
    bank_file: Type.Ref("BankFile"),
    payouts: Type.Array(
      Type.Object({
        payout_id: Type.String({ format: "uuid" }),
        amount_minor: Type.Integer(),
        reference: nullable(
          Type.String({
            description:
              "The EndToEndId (SEPA) or trace number (ACH) tying the entry to the payout. ACH trace numbers are the ODFI's eight digits and the next seven of the Business's sequence at that ODFI, kept in the database and never reset per file or day (it wraps after 9,999,999 entries); an answer from the bank must also agree on amount, account, receiving bank, direction and date to move the payout.",
          }),
        ),
        bank_status: nullable(
          Type.String({ description: "The last status the bank reported for this entry (ACCP, RJCT, BOOK, R03, C01, …)." }),
        ),
      }),
    ),
  },
  { "x-component": "BankFileDetail" },
);

/**
 * The content endpoint's 200 as the OpenAPI document shows it: the file's text (pain.001 XML or NACHA), not
 * JSON, with its Content-Disposition. Error responses stay the JSON envelope.
 */
export const BankFileContentResponseSchema = Type.Unsafe<string>({
  description:
    "The file as delivered: `Content-Type: application/xml; charset=utf-8` for pain.001, `text/plain; charset=utf-8` for NACHA.",
  headers: {
    "content-disposition": {
      type: "string",
      description: 'Always `attachment; filename="<file_name>"`.',
    },
  },
  content: {
    "application/xml": { schema: { type: "string", description: "A pain.001 document." } },
    "text/plain": { schema: { type: "string", description: "A NACHA file (94-character records, CRLF)." } },
  },
});

// Inbound files -------------------------------------------------------------------------------------------------

export const INBOUND_FILE_STATUSES = ["applied", "partially_applied", "refused", "duplicate"] as const;

export const BankInboundFileListQuerySchema = Type.Object(
  {
    ...PageQuerySchema,
    rail: Type.Optional(stringEnum(BANK_RAILS, { description: "Only files of this rail." })),
    status: Type.Optional(stringEnum(INBOUND_FILE_STATUSES, { description: "Only files with this status." })),
  },
  { additionalProperties: false },
);
export type BankInboundFileListQuery = Static<typeof BankInboundFileListQuerySchema>;

export const BankInboundFileSchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    rail: stringEnum(BANK_RAILS),
    file_name: Type.String({ description: "The file's name in the bank's inbound directory." }),
    kind: stringEnum(["pain.002", "camt.054", "nacha_returns", "unknown"] as const, {
      description:
        "What the file was read as: a pain.002 status report, a camt.054 notification, an ACH return file; `unknown` when it could not be read.",
    }),
    size_bytes: nullable(
      Type.Integer({ description: "Its size as the directory listed it; null on files read before sizes were kept." }),
    ),
    received_at: Type.String({ format: "date-time", description: "When the service read it (or refused it)." }),
    status: stringEnum(INBOUND_FILE_STATUSES, {
      description:
        "`applied`: every item was matched and applied. `partially_applied`: applied, but some items moved nothing (see `problems`). `refused`: it could not be read (not well-formed, not the message expected, a NACHA record wrong, over the size limit, or not decrypted as configured): nothing was applied (see `problems`). `duplicate`: the same content as an earlier file under another name (`duplicate_of`): nothing was applied again.",
    }),
    duplicate_of: nullable(
      Type.String({ format: "uuid", description: "For a duplicate: the earlier inbound file with the same content." }),
    ),
    moved: Type.Array(
      Type.Object({
        payout_id: Type.String({ format: "uuid" }),
        outcome: Type.String({
          description:
            "What the file asked for the payout: `acknowledged`, `failed`, `disbursed`, `returned` (an ACH return: `failed` instead when the payout had not been disbursed), `notification_of_change` (recorded on its bank account), or `none` (a status that moves nothing, such as PDNG). The payout's own status and events show where it is now.",
        }),
        bank_status: nullable(Type.String({ description: "The bank's status or code for it (ACCP, RJCT, BOOK, R03, C01, …)." })),
      }),
      { description: "Every payout the file named and matched, in file order." },
    ),
    problems: Type.Array(
      Type.Object({
        reference: nullable(
          Type.String({
            description: "What the item named: an ACH trace number, an EndToEndId or OrgnlMsgId; null for the file as a whole.",
          }),
        ),
        reason: Type.String({
          description:
            "What is wrong, in a sentence naming the file, record or entry, what was expected and what was found; account numbers by their last four only.",
        }),
      }),
      {
        description:
          "For a refused file, why (one problem with a null reference); for a duplicate, which file it repeats; otherwise each item that moved nothing. Empty for an applied file.",
      },
    ),
  },
  { $id: "BankInboundFile" },
);
export type BankInboundFileBody = Static<typeof BankInboundFileSchema>;

export const BankInboundFileListSchema = Type.Object(
  {
    bank_inbound_files: Type.Array(Type.Ref("BankInboundFile")),
    next_cursor: nullable(Type.String()),
  },
  { "x-component": "BankInboundFileList" },
);

// Test connection ---------------------------------------------------------------------------------------------

export const ConnectionTestSchema = Type.Object(
  {
    rail: stringEnum(BANK_RAILS),
    ok: Type.Boolean({ description: "Every step passed." }),
    tested_at: Type.String({ format: "date-time" }),
    summary: Type.String({
      description: "One sentence: that everything worked, or the first failed step's message.",
      examples: ["Connected, logged in and listed both directories. Nothing was sent."],
    }),
    steps: Type.Array(
      Type.Object({
        step: stringEnum(["connect", "host_key", "login", "outbound_directory", "inbound_directory"], {
          description:
            "`connect`: the TCP connection and the SSH handshake; `host_key`: the server's key against the pinned fingerprint; `login`: the stored password or private key; `outbound_directory`, `inbound_directory`: each exists and can be listed. A local-directory rail has only the two directory steps.",
        }),
        status: stringEnum(["passed", "failed", "skipped"], {
          description: "`skipped`: not tried because an earlier step failed.",
        }),
        message: Type.String({
          description:
            "What happened, in words: the host key presented when it is not the pinned one, a refused login, a missing directory, no answer within the time limit. Never a secret.",
          examples: [
            'The inbound directory "in" does not exist on the server: ask your bank for the right path, or have it created.',
          ],
        }),
      }),
    ),
  },
  { "x-component": "BankRailConnectionTest" },
);
export type ConnectionTestBody = Static<typeof ConnectionTestSchema>;
