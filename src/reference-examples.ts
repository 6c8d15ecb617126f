// One realistic example per request body and success response component of the OpenAPI document (and of
// the shared shapes they are built from), published as the component schema's `examples`. A test validates
// each against its schema and checks that every request body and success response has one.

const BUSINESS_ID = "0196f1a2-7b3c-7d10-8a11-4c5e6f708192";
const USER_ID = "0196f1a2-7b3c-7d11-9b22-5d6e7f8091a3";
const MEMBERSHIP_ID = "0196f1a2-7b3c-7d12-8c33-6e7f8091a2b4";
const KEY_ID = "0196f1a2-7b3c-7d13-9d44-7f8091a2b3c5";
const BENEFICIARY_ID = "0196f1a3-0a1b-7c20-8e55-8091a2b3c4d6";
const DESTINATION_ID = "0196f1a3-0a1b-7c21-9f66-91a2b3c4d5e7";
const PAYOUT_ID = "0196f1a4-1c2d-7e30-a077-a2b3c4d5e6f8";
const DECISION_ID = "0196f1a4-1c2d-7e31-b188-b3c4d5e6f709";
const LINK_ID = "0196f1a3-5e6f-7a40-8299-c4d5e6f7081a";
const SUBSCRIPTION_ID = "0196f1a5-2d3e-7f50-93aa-d5e6f708192b";
const DELIVERY_ID = "0196f1a6-3e4f-7061-a4bb-e6f708192a3c";
const EMAIL_ID = "0196f1a3-6f70-7b52-b5cc-f708192a3b4d";
const BANK_FILE_ID = "0196f1a8-5061-7283-86ee-192a3b4c5d6f";
const TOP_UP_ID = "0196f1aa-7283-74a5-a801-3b4c5d6e7f81";
const TOP_UP_TRANSFER_ID = "0196f1ab-8394-75b6-b912-4c5d6e7f8092";
const CHECKER_USER_ID = "0196f1a2-7b3c-7d18-9499-c5d6e7f8091a";
const CHECKER_MEMBERSHIP_ID = "0196f1a2-7b3c-7d19-a5aa-d6e7f8091a2b";

const SESSION_ID = "0196f1a2-7b3c-7d15-a166-92a3b4c5d6e7";
const INVITATION_ID = "0196f1a2-7b3c-7d16-b277-a3b4c5d6e7f8";
const AUDIT_RECORD_ID = "0196f1a2-7b3c-7d17-8388-b4c5d6e7f809";
const FUNDING_ACCOUNT_ID = "0196f1a9-6172-7394-97ff-2a3b4c5d6e70";
const TRANSFER_ID = "0196f1a9-6172-7395-a800-3b4c5d6e7f81";

const fundingAccount = {
  id: FUNDING_ACCOUNT_ID,
  environment: "production",
  currency: "EUR",
  name: "SEPA bank account EUR",
  kind: "bank_rail",
  rail: "sepa",
  account_identifier_masked: "DE89 **** **** **** **30 00",
  posted_minor: 5000000,
  pending_minor: 125000,
  available_minor: 4875000,
  awaiting_funds: { count: 0, amount_minor: 0 },
  enforcement: "enforce",
  overdraft_limit_minor: 0,
  low_balance_threshold_minor: 1000000,
  awaiting_funds_expiry_hours: 72,
  created_at: "2026-05-27T11:00:00.000Z",
};

const holdTransfer = {
  id: TRANSFER_ID,
  funding_account_id: FUNDING_ACCOUNT_ID,
  currency: "EUR",
  step: "hold",
  cause: { type: "payout", id: PAYOUT_ID },
  idempotency_key: `payout:${PAYOUT_ID}:hold`,
  entries: [
    { account: "funding", amount_minor: -125000, pending: true },
    { account: "payees_in_transit", amount_minor: 125000, pending: true },
  ],
  posted_after_minor: 5000000,
  pending_after_minor: 125000,
  available_after_minor: 4875000,
  created_at: "2026-05-27T12:15:00.000Z",
};

const membershipSummary = {
  id: MEMBERSHIP_ID,
  business_id: BUSINESS_ID,
  business_name: "Acme Payouts GmbH",
  role: "business_admin",
};
const session = {
  session: {
    id: SESSION_ID,
    created_at: "2026-05-27T12:00:00.000Z",
    expires_at: "2026-05-28T00:00:00.000Z",
    idle_timeout_seconds: 1800,
    confirmed_at: "2026-05-27T12:00:00.000Z",
    next_step: null,
  },
  csrf_token: "4f1d2c3b5a6e7d8c9b0a1f2e3d4c5b6a7f8e9d0c1b2a3f4e5d6c7b8a9f0e1d2c",
  user: { id: USER_ID, email: "finance@acme.example", two_factor_enabled: true },
  membership: membershipSummary,
  memberships: [membershipSummary],
};
const invitation = {
  id: INVITATION_ID,
  email: "approver@acme.example",
  role: "business_approver",
  created_at: "2026-05-27T12:00:00.000Z",
  expires_at: "2026-06-03T12:00:00.000Z",
};

const postalAddress = { line1: "Friedrichstraße 123", city: "Berlin", postal_code: "10117", country: "DE" };

const apiKey = {
  id: KEY_ID,
  environment: "sandbox",
  role: "business_read_only",
  label: "Reporting",
  key_hint: "pok_sandbox_…3f9a",
  membership_id: MEMBERSHIP_ID,
  created_at: "2026-05-27T12:00:00.000Z",
  last_used_at: null,
  revoked_at: null,
};
const issuedApiKey = {
  ...apiKey,
  key: "pok_sandbox_0196f1a27b3c7d139d447f8091a2b3c5_9c4e0d6b2a7f5e3c1b8a9d0e2f4c6b8a0d1e3f5a7c9b2d4e6f8a0c2e4b6d83f9a",
};

const beneficiary = {
  id: BENEFICIARY_ID,
  beneficiary_type: "person",
  name: "Jane Doe",
  nickname: null,
  display_name: "Jane Doe",
  email: "jane.doe@example.com",
  phone: "+4915123456789",
  first_name: "Jane",
  last_name: "Doe",
  country_of_residence: "DE",
  date_of_birth: "1990-04-21",
  business_name: null,
  country_of_incorporation: null,
  registration_number: null,
  tax_id: null,
  postal_address: postalAddress,
  bank_details: null,
  compliance_status: "compliant",
  identity_complete: true,
  missing_identity_fields: [],
  acknowledged_at: "2026-05-27T12:05:00.000Z",
  reacknowledgment_required: false,
  collection_status: "not_invited",
  details_submitted_at: null,
  declared_destination_id: null,
  declared_destination_change: null,
  status: "ready",
  enrollment_status: "verified",
  enrollment_failure_detail: null,
  enrollment_failure_bank_account_id: null,
  missing_for_ready: [],
  pending_requests: [],
  tax_document: null,
  screening_status: "clear",
  screening_match: null,
  screened_at: "2026-05-27T12:00:00.000Z",
  archived_at: null,
  environment: "sandbox",
  created_at: "2026-05-27T12:00:00.000Z",
  updated_at: "2026-05-27T12:05:00.000Z",
};

const destination = {
  id: DESTINATION_ID,
  kind: "bank_account",
  beneficiary_id: BENEFICIARY_ID,
  account_holder_name: "Jane Doe",
  currency: "EUR",
  country: "DE",
  status: "verified",
  validation_status: "validated",
  payout_usable: true,
  last4: "3000",
  account_type: "checking",
  scheme: "iban",
  bank_name: null,
  swift_bic: null,
  pix_key_type: null,
  card_network: null,
  card_expiry_month: null,
  card_expiry_year: null,
  rail_rejection_reason: null,
  notification_of_change: null,
  name_check_result: "match",
  name_check_bank_name: null,
  name_check_source: "local",
  name_check_at: "2026-05-27T12:01:01.000Z",
  approval_status: "approved",
  approved_by: "0197a3c2-0000-7000-8000-00000000a002",
  approved_at: "2026-05-27T12:03:00.000Z",
  added_by: { kind: "api_key", id: "0197a3c2-0000-7000-8000-00000000a001" },
  details_changed_at: "2026-05-27T12:01:00.000Z",
  usable_from: "2026-05-28T12:03:00.000Z",
  created_at: "2026-05-27T12:01:00.000Z",
};

const payoutPayee = {
  beneficiary_id: BENEFICIARY_ID,
  display_name: "Jane Doe",
  country: "DE",
  screening_status: "clear",
  destination: {
    bank_account_id: DESTINATION_ID,
    type: "bank_account",
    scheme: "iban",
    country: "DE",
    currency: "EUR",
    last4: "3000",
    deleted: false,
    approval_status: "approved",
    details_changed_at: "2026-05-27T12:01:00.000Z",
    first_payout: true,
    name_check_result: "match",
    name_check_bank_name: null,
  },
};

const payout = {
  payout_id: PAYOUT_ID,
  environment: "sandbox",
  status: "pending_approval",
  held_from_status: null,
  amount_minor: 125000,
  amount: "1250.00",
  currency: "EUR",
  beneficiary_id: BENEFICIARY_ID,
  bank_account_id: DESTINATION_ID,
  destination_last4: "3000",
  external_ref: "invoice-2026-0042",
  idempotency_key: "5f0c7a52-3d1e-4b8f-9a6c-2e7d4f1b8c90",
  channel: "api",
  upload_id: null,
  replaces_payout_id: null,
  rail: null,
  rail_ref: null,
  disbursement_status: null,
  failure_reason: null,
  estimated_arrival_at: null,
  disbursed_at: null,
  delivered_at: null,
  settled_at: null,
  returned_at: null,
  funding_status: "not_tracked",
  reconciliation_status: "unreconciled",
  reconciled_at: null,
  created_at: "2026-05-27T12:10:00.000Z",
  updated_at: "2026-05-27T12:10:00.000Z",
  created_by: { api_key_id: KEY_ID, membership_id: MEMBERSHIP_ID, user_id: USER_ID },
  payee: payoutPayee,
};
const approvedPayout = { ...payout, status: "approved", funding_status: "reserved", updated_at: "2026-05-27T12:15:00.000Z" };

const decision = {
  id: DECISION_ID,
  payout_id: PAYOUT_ID,
  outcome: "approve",
  reason: "Invoice 2026-0042 checked against the purchase order.",
  validator: { type: "human", name: null, api_key_id: KEY_ID, user_id: USER_ID, membership_id: MEMBERSHIP_ID, policy_rule: null },
  created_at: "2026-05-27T12:15:00.000Z",
};

const policyRules = [
  { name: "Small EUR payouts", outcome: "approve", currency: "EUR", max_amount_minor: 50000, channels: ["api", "csv"] },
  { name: "New payees wait", outcome: "reject", max_beneficiary_age_hours: 24, min_amount_minor: 1000000 },
];

const webhookSubscription = {
  id: SUBSCRIPTION_ID,
  environment: "sandbox",
  url: "https://hooks.example.com/payouts",
  enabled_events: ["payout.disbursed", "payout.failed", "beneficiary.enrollment_rejected"],
  enabled: true,
  created_at: "2026-05-27T12:20:00.000Z",
};

const bankInboundFile = {
  id: "0196f1a4-5e00-7000-8000-00000000b0a1",
  rail: "ach",
  file_name: "RETURNS-20260528.ach",
  kind: "nacha_returns",
  size_bytes: 1880,
  received_at: "2026-05-28T14:15:00.000Z",
  status: "partially_applied",
  duplicate_of: null,
  moved: [{ payout_id: PAYOUT_ID, outcome: "returned", bank_status: "R03" }],
  problems: [
    {
      reference: "091000019999999",
      reason: "ACH return R02 for trace 091000019999999: none of our ACH entries carries this trace number; nothing was moved.",
    },
  ],
};

const recordedEvent = {
  id: DELIVERY_ID,
  type: "payout.disbursed",
  api_version: "2026-05-27",
  occurred_at: "2026-05-27T12:16:00.000Z",
  created_at: "2026-05-27T12:16:00.000Z",
  sequence: 4,
  data: {
    payout_id: PAYOUT_ID,
    external_ref: "INV-2026-0042",
    beneficiary_id: BENEFICIARY_ID,
    amount: "1250.00",
    currency: "EUR",
    rail_ref: "sim_7f3a9c",
    status: "disbursed",
    disbursed_at: "2026-05-27T12:16:00.000Z",
  },
};

const webhookDelivery = {
  id: DELIVERY_ID,
  event_type: "payout.disbursed",
  occurred_at: "2026-05-27T12:16:00.000Z",
  sequence: 4,
  subscription_id: SUBSCRIPTION_ID,
  status: "succeeded",
  final_reason: null,
  series: 1,
  attempt_count: 2,
  next_attempt_at: null,
  created_at: "2026-05-27T12:16:00.000Z",
  attempts: [
    {
      series: 1,
      attempt_number: 1,
      sent_at: "2026-05-27T12:16:00.100Z",
      succeeded: false,
      status_code: 503,
      duration_ms: 84,
      error_class: "http_status",
    },
    {
      series: 1,
      attempt_number: 2,
      sent_at: "2026-05-27T12:16:30.200Z",
      succeeded: true,
      status_code: 200,
      duration_ms: 61,
      error_class: null,
    },
  ],
};

const sandboxEmail = {
  id: EMAIL_ID,
  kind: "collection_invitation",
  to: "jane.doe@example.com",
  subject: "Acme Payouts asks for your payout details",
  text: "Acme Payouts asks you to enter your payout details: http://localhost:3000/collect/…",
  html: "<p>Acme Payouts asks you to enter your payout details.</p>",
  created_at: "2026-05-27T12:30:00.000Z",
};

const bankDetails = {
  account_holder_name: "Jane Doe",
  country: "DE",
  currency: "EUR",
  iban: "DE89370400440532013000",
};

/** Component name -> its example. */
const sftpDelivery = {
  kind: "sftp",
  host: "sftp.bank.example",
  port: 22,
  username: "acme-payouts",
  host_key_fingerprint: "SHA256:Qx2kGv9t8n3Zr5bW7yLc1pHd4sJf6aKe0uTo2iMwXvY",
  outbound_directory: "outbound",
  inbound_directory: "inbound",
};
const sepaOriginator = {
  name: "Acme Payouts GmbH",
  iban: "DE75512108001245126199",
  bic: "SOGEDEFFXXX",
  address: { street_name: "Friedrichstraße", building_number: "123", postal_code: "10117", town_name: "Berlin", country: "DE" },
};
const sepaRail = {
  rail: "sepa",
  originator: sepaOriginator,
  file_format: "pain.001.001.09",
  cutoff_times: ["10:00", "14:30"],
  time_zone: "Europe/Berlin",
  status_report_timeout_hours: 24,
  delivery: {
    ...sftpDelivery,
    has_password: false,
    has_private_key: true,
  },
  openpgp: null,
  created_at: "2026-05-27T09:00:00.000Z",
  updated_at: "2026-05-27T09:00:00.000Z",
};
const bankFile = {
  id: BANK_FILE_ID,
  rail: "sepa",
  file_name: "sepa-4c5e6f708192-20260527T1230Z.xml",
  message_id: "PO20260527T1230Z4c5e6f708192",
  format: "pain.001.001.09",
  cutoff_at: "2026-05-27T12:30:00.000Z",
  entry_count: 1,
  control_sum_minor: 125000,
  currency: "EUR",
  status: "accepted",
  created_at: "2026-05-27T12:30:00.000Z",
  uploaded_at: "2026-05-27T12:30:04.000Z",
  acknowledged_at: "2026-05-27T13:05:00.000Z",
  upload_attempts: 1,
  last_upload_error: null,
  alerts: [],
};

const topUp = {
  id: TOP_UP_ID,
  funding_account_id: FUNDING_ACCOUNT_ID,
  amount_minor: 5000000,
  currency: "EUR",
  reference: "ACME-TOPUP-2026-05",
  status: "approved",
  created_by: { api_key_id: null, membership_id: MEMBERSHIP_ID, user_id: USER_ID },
  decided_by: { api_key_id: null, membership_id: CHECKER_MEMBERSHIP_ID, user_id: CHECKER_USER_ID },
  decided_at: "2026-05-27T12:30:00.000Z",
  reason: null,
  transfer_id: TOP_UP_TRANSFER_ID,
  created_at: "2026-05-27T12:00:00.000Z",
};

const payoutLimit = {
  currency: "EUR",
  per_payout_max_minor: 2500000,
  daily_max_minor: 10000000,
  used_today_minor: 4250000,
  remaining_today_minor: 5750000,
};

const controlChange = {
  id: "01970a2e-7c00-7a00-8c00-0000000000c1",
  object: "control_change",
  kind: "payout_limits",
  subject_id: "production",
  control: "payout_limits",
  summary: "Payout limits raised or removed for EUR.",
  base: [{ currency: "EUR", per_payout_max_minor: 2500000, daily_max_minor: 10000000 }],
  proposed: { limits: [{ currency: "EUR", per_payout_max_minor: 5000000, daily_max_minor: 10000000 }] },
  status: "pending",
  proposed_by: { api_key_id: null, membership_id: MEMBERSHIP_ID, user_id: USER_ID },
  decided_by: null,
  decided_at: null,
  created_at: "2026-05-27T12:00:00.000Z",
};

// Reconciliation (issue 28)
const bankStatement = {
  id: "0196f1a7-5a10-7a2b-9c3d-4e5f60718293",
  object: "bank_statement",
  funding_account_id: "0196f1a7-4f50-7172-b5dd-0a1b2c3d4e5f",
  format: "camt.053",
  message_version: "camt.053.001.08",
  statement_id: "STMT-2026-05-27-001",
  sequence_number: 148,
  period_from: "2026-05-27",
  period_to: "2026-05-27",
  opening_booked_minor: 5000000,
  closing_booked_minor: 4875000,
  currency: "EUR",
  line_count: 3,
  lines_received: 3,
  lines_by_status: { matched: 2, needs_review: 1, unmatched: 0, ignored: 0, pending: 0 },
  balance_check: {
    status: "agrees",
    ledger_minor: 4875000,
    bank_minor: 4875000,
    difference_minor: 0,
    sequence_gap: null,
    resolved_reason: null,
  },
  created_at: "2026-05-28T06:00:00.000Z",
  source: "inbound_folder",
};
const statementLine = {
  id: "0196f1a7-5a11-7b3c-8d4e-5f6071829304",
  object: "statement_line",
  statement_id: bankStatement.id,
  funding_account_id: bankStatement.funding_account_id,
  status: "matched",
  entry_status: "booked",
  booking_date: "2026-05-27",
  value_date: "2026-05-27",
  direction: "debit",
  amount_minor: 125000,
  currency: "EUR",
  bank_reference: "BANKREF-20260527-0042",
  references: {
    end_to_end_ids: ["PO0196f1a74f507172b5dd"],
    payment_information_id: null,
    instruction_ids: [],
    ach_trace: null,
  },
  remittance: "INV-2026-0042",
  match: {
    rule: "end_to_end_id",
    payout_ids: [PAYOUT_ID],
    top_up_id: null,
    difference_minor: 0,
    matched_by: { kind: "auto", api_key_id: null, membership_id: null, user_id: null },
    matched_at: "2026-05-28T06:00:01.000Z",
  },
  candidates: [],
  review_reason: null,
  ignored_reason: null,
  transfer_id: null,
  created_at: "2026-05-28T06:00:00.000Z",
};
// Sanctions screening (issue 29)
const screeningHit = {
  id: "0196f1a7-5a12-7c4d-9e5f-607182930415",
  object: "screening_hit",
  beneficiary_id: "0196f1a7-4f50-7172-b5dd-1a2b3c4d5e6f",
  status: "open",
  score: 0.953,
  screened_name: "Rustam Karimoff",
  screened_country: "DE",
  matched_name: "KARIMOV, Rustam",
  entry: {
    list_id: "ofac_sdn",
    ref: "7160",
    kind: "individual",
    name: "KARIMOV, Rustam Ilyich",
    aliases: ["KARIMOV, Rustam"],
    countries: ["UZ"],
    programs: ["SDGT"],
    addresses: ["Tashkent, Uzbekistan"],
  },
  triggered_by: {
    api_key_id: null,
    membership_id: "0196f1a7-4f50-7172-b5dd-2a3b4c5d6e7f",
    user_id: "0196f1a7-4f50-7172-b5dd-3a4b5c6d7e8f",
  },
  decided_by: null,
  decided_at: null,
  reason: null,
  created_at: "2026-05-27T10:00:00.000Z",
  updated_at: "2026-05-27T10:00:00.000Z",
};

export const COMPONENT_EXAMPLES: Readonly<Record<string, unknown>> = {
  // Registration
  RegisterBusinessRequest: {
    business_name: "Acme Payouts GmbH",
    email: "finance@acme.example",
    password: "correct horse battery staple",
  },
  RegistrationAccepted: {
    status: "verification_sent",
    email: "finance@acme.example",
    message: "If this address can register, a verification e-mail is on its way. It holds a token valid for 24 hours.",
  },
  VerifyRegistrationRequest: { token: "reg_5b0e2c7d9a4f4e1b8c3d6a9f0e2b4c7d" },
  RegisteredBusiness: {
    business: { id: BUSINESS_ID, name: "Acme Payouts GmbH", created_at: "2026-05-27T12:00:00.000Z" },
    user: { id: USER_ID, email: "finance@acme.example", created_at: "2026-05-27T12:00:00.000Z" },
    membership: { id: MEMBERSHIP_ID, role: "business_admin" },
    api_keys: [
      { ...issuedApiKey, role: "business_admin", label: null },
      {
        ...issuedApiKey,
        id: "0196f1a2-7b3c-7d14-8e55-8091a2b3c4d6",
        environment: "production",
        role: "business_admin",
        label: null,
        key_hint: "pok_production_…b21e",
        key: "pok_production_0196f1a27b3c7d148e558091a2b3c4d6_1d3f5b7a9c2e4d6f8b0a1c3e5d7f9b2a4c6e8d0f1b3a5c7e9d2f4b6a8c0eb21e",
      },
    ],
  },
  // Sandbox mailbox
  SandboxEmail: sandboxEmail,
  SandboxEmailList: { emails: [sandboxEmail], next_cursor: null },
  // Sign-in and sessions
  SignInRequest: { email: "finance@acme.example", password: "correct horse battery staple" },
  Session: session,
  SignedOutEverywhere: { sessions_ended: 3 },
  MySessionList: {
    sessions: [
      {
        id: SESSION_ID,
        business_id: BUSINESS_ID,
        business_name: "Acme Payouts",
        created_at: "2025-05-14T08:02:11.000Z",
        last_seen_at: "2025-05-14T09:41:00.000Z",
        expires_at: "2025-05-14T10:11:00.000Z",
        device: "Chrome on macOS",
        client_address: "203.0.113.7",
        current: true,
      },
      {
        id: "0196f1a2-7b3c-7d17-8c88-b4c5d6e7f809",
        business_id: BUSINESS_ID,
        business_name: "Acme Payouts",
        created_at: "2025-05-14T07:15:45.000Z",
        last_seen_at: "2025-05-14T09:30:00.000Z",
        expires_at: "2025-05-14T10:00:00.000Z",
        device: "Firefox on Windows",
        client_address: "198.51.100.23",
        current: false,
      },
    ],
  },
  SwitchBusinessRequest: { business_id: BUSINESS_ID },
  ConfirmationRequest: { password: "correct horse battery staple" },
  SecondFactorRequest: { code: "492039" },
  TwoFactorEnrolment: {
    secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
    otpauth_uri:
      "otpauth://totp/Payouts:finance%40acme.example?issuer=Payouts&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30",
    qr_code_svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><path d="M4 4h7v7H4z"/></svg>',
  },
  ConfirmTwoFactorEnrolmentRequest: { code: "492039" },
  TwoFactorEnabled: {
    ...session,
    recovery_codes: [
      "k3m9p-2x7qr",
      "a8d4f-6h2jw",
      "t5n7c-9v3bz",
      "q2w8e-4r6ty",
      "u7i3o-1p5as",
      "d9f2g-8h4jk",
      "l6z1x-3c7vb",
      "n5m8q-2w4er",
      "y3t6u-9i1op",
      "s4d7f-5g2hj",
    ],
  },
  RecoveryCodes: {
    recovery_codes: [
      "b7c2e-4m9pq",
      "h3j8k-6n2rt",
      "w5x9z-3a7cd",
      "e2f6g-8j4km",
      "p9q3r-5t7vx",
      "c4d8e-2g6hj",
      "m7n2p-9q3rs",
      "t6v4w-8x2za",
      "f3g7h-5j9kn",
      "r8s2t-4v6wx",
    ],
  },
  DisableTwoFactorRequest: { code: "492039" },
  ChangePasswordRequest: {
    current_password: "correct horse battery staple",
    new_password: "violet tractor under seventeen lamps",
  },
  PasswordResetRequest: { email: "finance@acme.example" },
  ConfirmPasswordResetRequest: {
    token: "q9ZkH3v1Xw0bT7nR2mL5pJ8cF4yD6sA1eG0uI9oKx_3",
    password: "violet tractor under seventeen lamps",
  },
  // Team
  MemberList: {
    members: [
      {
        id: MEMBERSHIP_ID,
        user_id: USER_ID,
        email: "finance@acme.example",
        role: "business_admin",
        two_factor_enabled: true,
        last_sign_in_at: "2026-05-27T12:00:00.000Z",
        joined_at: "2026-05-20T09:00:00.000Z",
      },
    ],
  },
  ChangeMemberRoleRequest: { role: "business_approver" },
  ChangedMember: { id: MEMBERSHIP_ID, user_id: USER_ID, email: "finance@acme.example", role: "business_approver" },
  CreateInvitationRequest: { email: "approver@acme.example", role: "business_approver" },
  Invitation: invitation,
  InvitationList: { invitations: [invitation] },
  AcceptInvitationRequest: {
    token: "Vb7mN2qW4eR6tY8uI0oP1aS3dF5gH7jK9lZ-xC2vB4n",
    password: "violet tractor under seventeen lamps",
  },
  AcceptedInvitation: {
    membership: { id: MEMBERSHIP_ID, business_id: BUSINESS_ID, role: "business_approver" },
    user: { id: USER_ID, email: "approver@acme.example" },
  },
  SecuritySettings: { require_two_factor: true },
  AuditRecordList: {
    audit_records: [
      {
        id: AUDIT_RECORD_ID,
        action: "member_invited",
        occurred_at: "2026-05-27T12:00:00.000Z",
        environment: null,
        actor: {
          user_id: USER_ID,
          membership_id: MEMBERSHIP_ID,
          role: "business_admin",
          api_key_id: null,
          session_id: SESSION_ID,
        },
        subject: { type: "invitation", id: INVITATION_ID },
        client_address: "203.0.113.7",
        user_agent: "Mozilla/5.0",
        details: { email: "approver@acme.example", role: "business_approver" },
      },
    ],
    next_cursor: null,
  },
  // API keys
  CreateApiKeyRequest: { role: "business_read_only", label: "Reporting" },
  ApiKey: apiKey,
  IssuedApiKey: issuedApiKey,
  ApiKeyList: { api_keys: [apiKey], next_cursor: null },
  // Beneficiaries
  PostalAddress: postalAddress,
  CreateBeneficiaryRequest: {
    beneficiary_type: "person",
    email: "jane.doe@example.com",
    first_name: "Jane",
    last_name: "Doe",
    country_of_residence: "DE",
  },
  UpdateBeneficiaryRequest: { phone: "+4915123456789", postal_address: postalAddress },
  Beneficiary: beneficiary,
  BeneficiaryList: { beneficiaries: [beneficiary], next_cursor: null },
  BeneficiaryImportRow: {
    email: "jane.doe@example.com",
    first_name: "Jane",
    last_name: "Doe",
    bank: bankDetails,
    acknowledged: true,
  },
  BeneficiaryImportRequest: {
    rows: [
      { email: "jane.doe@example.com", first_name: "Jane", last_name: "Doe", bank: bankDetails, acknowledged: true },
      {
        email: "ap@globex.example",
        business_name: "Globex Ltd",
        bank: {
          account_holder_name: "Globex Ltd",
          country: "GB",
          currency: "GBP",
          account_number: "31926819",
          routing_code: "601613",
        },
      },
    ],
  },
  BeneficiaryImportResult: {
    results: [
      { index: 0, status: "created", beneficiary_id: BENEFICIARY_ID, bank_account_id: DESTINATION_ID, payout_usable: true },
      {
        index: 1,
        status: "failed",
        beneficiary_id: null,
        bank_account_id: null,
        payout_usable: false,
        error: {
          code: "invalid_format",
          message: "Expected 8 digits.",
          field: "bank.account_number",
          details: [{ field: "bank.account_number", code: "invalid_format", message: "Expected 8 digits." }],
        },
      },
    ],
    created_count: 1,
    already_exists_count: 0,
    duplicate_count: 0,
    failed_count: 1,
  },
  // Destinations
  CreateBankAccountRequest: bankDetails,
  CreateCardRequest: {
    card_number: "4242424242424242",
    expiry_month: 12,
    expiry_year: 2030,
    cardholder_name: "Jane Doe",
    country: "DE",
    currency: "EUR",
  },
  Destination: destination,
  DestinationList: { bank_accounts: [destination] },
  PendingDestinationList: {
    bank_accounts: [
      {
        ...destination,
        approval_status: "pending_approval",
        payout_usable: false,
        approved_by: null,
        approved_at: null,
        usable_from: null,
      },
    ],
  },
  DestinationDecisionRequest: { reason: "Confirmed with the payee by phone on the number on file." },
  DestinationPolicy: {
    environment: "sandbox",
    require_approval: true,
    cooling_off_hours: 24,
    name_check: "warn",
    screening: "on",
    updated_at: "2026-05-27T11:00:00.000Z",
    updated_by: "0197a3c2-0000-7000-8000-00000000a002",
  },
  UpdateDestinationPolicyRequest: { require_approval: true, cooling_off_hours: 24 },
  SetDeclaredDestinationRequest: { destination_id: DESTINATION_ID },
  // Collection links
  CreateCollectionRequestBody: { scope: "full_onboarding", send_email: true },
  CollectionRequestCreated: {
    id: LINK_ID,
    beneficiary_id: BENEFICIARY_ID,
    scope: "full_onboarding",
    url: "http://localhost:3000/collect/clk_3a9f0c2e7b5d4e1f8a6c9b0d2e4f6a8c",
    expires_at: "2026-06-03T12:30:00.000Z",
    email_sent: true,
    created_at: "2026-05-27T12:30:00.000Z",
  },
  // The Business profile
  UpdateBusinessProfileRequest: { name: "Acme Payouts", support_email: "payouts@acme.example", time_zone: "Europe/Berlin" },
  BusinessProfile: {
    id: BUSINESS_ID,
    name: "Acme Payouts",
    legal_name: "Acme Payouts GmbH",
    country: "DE",
    registration_number: "HRB 123456",
    tax_id: "DE123456789",
    support_email: "payouts@acme.example",
    website: "https://acme.example",
    time_zone: "Europe/Berlin",
    created_at: "2026-05-20T09:00:00.000Z",
    updated_at: "2026-05-27T12:30:00.000Z",
  },
  UpdateBrandingBody: {
    display_name: "Acme Studio",
    brand_color: "#0a5c36",
    logo: {
      media_type: "image/png",
      data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    },
  },
  Branding: {
    display_name: "Acme Studio",
    brand_color: "#0a5c36",
    logo: { media_type: "image/png", size_bytes: 70 },
    updated_at: "2026-05-27T12:30:00.000Z",
  },
  // Webhooks
  CreateWebhookSubscriptionRequest: {
    url: "https://hooks.example.com/payouts",
    enabled_events: ["payout.disbursed", "payout.failed", "beneficiary.enrollment_rejected"],
  },
  UpdateWebhookSubscriptionRequest: { enabled: false },
  WebhookSubscription: webhookSubscription,
  WebhookSubscriptionWithSecret: {
    subscription: webhookSubscription,
    secret: "whsec_sandbox_4f1e8d2c6b0a9f7e5d3c1b2a4f6e8d0c2b4a6f8e0d2c4b6a8f0e2d4c6b8a0f2e",
  },
  WebhookDelivery: webhookDelivery,
  WebhookDeliveryList: { deliveries: [webhookDelivery], next_cursor: null },
  // Events
  Event: recordedEvent,
  EventList: {
    events: [recordedEvent],
    next_cursor: "eyJ0eCI6IjE4MzQ1MiIsInNlcSI6IjQifQ",
    has_more: false,
  },
  // Payouts
  CreatePayoutRequest: {
    beneficiary_id: BENEFICIARY_ID,
    amount_minor: 125000,
    currency: "EUR",
    external_ref: "invoice-2026-0042",
  },
  Payout: payout,
  PayoutPayee: payoutPayee,
  PayoutList: { payouts: [payout], next_cursor: null },
  PayoutVolume: {
    since: "2026-04-28",
    until: "2026-05-27",
    time_zone: "Europe/Berlin",
    days: [
      { date: "2026-05-26", currency: "EUR", count: 12, amount_minor: 1480000 },
      { date: "2026-05-26", currency: "USD", count: 3, amount_minor: 29700 },
      { date: "2026-05-27", currency: "EUR", count: 4, amount_minor: 500000 },
    ],
  },
  BulkPayoutRow: { beneficiary_id: BENEFICIARY_ID, amount_minor: 125000, currency: "EUR", external_ref: "invoice-2026-0042" },
  BulkPayoutRequest: {
    uploadId: "sha256-9f2c4e6a8b0d1f3e5c7a9b2d4f6e8a0c",
    rows: [
      { beneficiary_id: BENEFICIARY_ID, amount_minor: 125000, currency: "EUR", external_ref: "invoice-2026-0042" },
      { beneficiary_id: BENEFICIARY_ID, amount_minor: 9900, currency: "USD" },
    ],
  },
  BulkPayoutResult: {
    upload_id: "sha256-9f2c4e6a8b0d1f3e5c7a9b2d4f6e8a0c",
    created: 1,
    replayed: 0,
    failed: 1,
    results: [
      { index: 0, status: "created", payout_id: PAYOUT_ID, payout_status: "pending_approval", error: null },
      {
        index: 1,
        status: "failed",
        payout_id: null,
        payout_status: null,
        error: {
          code: "CURRENCY_MISMATCH",
          message:
            "The payout's currency is not the destination's currency: use the destination's currency, or another destination.",
        },
      },
    ],
  },
  CreateDecisionRequest: { outcome: "approve", reason: "Invoice 2026-0042 checked against the purchase order." },
  PayoutActionRequest: { reason: "Invoice 2026-0042 checked against the purchase order." },
  Decision: decision,
  DecisionResult: { decision, payout: approvedPayout },
  DecisionList: { decisions: [decision] },
  ApprovalPolicy: { environment: "sandbox", rules: policyRules, maker_checker: true, updated_at: "2026-05-27T11:00:00.000Z" },
  ReplaceApprovalPolicyRequest: { rules: policyRules, maker_checker: true },
  // Bank rails
  ConfigureSepaRailRequest: {
    originator: sepaOriginator,
    cutoff_times: ["10:00", "14:30"],
    time_zone: "Europe/Berlin",
    delivery: { ...sftpDelivery, private_key: "-----BEGIN OPENSSH PRIVATE KEY-----\n…\n-----END OPENSSH PRIVATE KEY-----\n" },
  },
  ConfigureAchRailRequest: {
    originator: {
      odfi_routing_number: "021000021",
      immediate_destination: "021000021",
      immediate_destination_name: "JPMORGAN CHASE",
      immediate_origin: "1234567890",
      immediate_origin_name: "ACME PAYOUTS INC",
      company_name: "ACME PAYOUTS",
      company_identification: "1234567890",
      payout_purpose: "other",
      entry_description: "PAYOUT",
    },
    cutoff_times: ["15:00"],
    time_zone: "America/New_York",
    delivery: { ...sftpDelivery, password: "correct-horse-battery-staple" },
  },
  BankRail: sepaRail,
  BankRailList: { bank_rails: [sepaRail] },
  BankRailConnectionTest: {
    rail: "sepa",
    ok: false,
    tested_at: "2026-05-27T13:00:00.000Z",
    summary: "The server refused the private key for user acme: check the username and the credential with your bank.",
    steps: [
      { step: "connect", status: "passed", message: "Reached the SSH server at sftp.bank.example port 22." },
      {
        step: "host_key",
        status: "passed",
        message: "The server presented the pinned host key SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU.",
      },
      {
        step: "login",
        status: "failed",
        message: "The server refused the private key for user acme: check the username and the credential with your bank.",
      },
      { step: "outbound_directory", status: "skipped", message: "Not tried: an earlier step failed." },
      { step: "inbound_directory", status: "skipped", message: "Not tried: an earlier step failed." },
    ],
  },
  BankFile: bankFile,
  BankFileList: { bank_files: [bankFile], next_cursor: null },
  BankInboundFile: bankInboundFile,
  BankInboundFileList: { bank_inbound_files: [bankInboundFile], next_cursor: null },
  BankFileDetail: {
    bank_file: bankFile,
    payouts: [{ payout_id: PAYOUT_ID, amount_minor: 125000, reference: "0196f1a41c2d7e30a077a2b3c4d5e6f8", bank_status: "ACCP" }],
  },
  // Funding accounts and the ledger
  FundingAccount: fundingAccount,
  FundingAccountList: { funding_accounts: [fundingAccount], next_cursor: null },
  UpdateFundingAccountRequest: { enforcement: "enforce", low_balance_threshold_minor: 1000000 },
  FundingAccountBalance: {
    funding_account_id: FUNDING_ACCOUNT_ID,
    at: "2026-05-27T12:20:00.000Z",
    posted_minor: 5000000,
    pending_minor: 125000,
    available_minor: 4875000,
  },
  Transfer: holdTransfer,
  TransferList: { transfers: [holdTransfer], next_cursor: null },
  SandboxCreditRequest: { amount_minor: 2000000, reference: "test funds" },
  // Production simulator (operator)
  SimulatorOutcomeRequest: { type: "compliance_hold_cleared" },
  SimulatorOutcomeAccepted: {
    job_id: "0196f1a7-4f50-7172-b5dd-08192a3b4c5e",
    payout_id: PAYOUT_ID,
    outcome: { type: "compliance_hold_cleared" },
  },
  // Top-ups
  CreateTopUpRequest: { amount_minor: 5000000, reference: "ACME-TOPUP-2026-05" },
  RejectTopUpRequest: { reason: "No such transfer on the bank statement." },
  TopUp: topUp,
  // Payout limits and control changes (issue 29)
  PayoutLimit: payoutLimit,
  PayoutLimits: {
    object: "payout_limits",
    environment: "production",
    time_zone: "Europe/Berlin",
    today: "2026-05-27",
    limits: [payoutLimit],
    updated_at: "2026-05-20T09:00:00.000Z",
  },
  PutPayoutLimitsRequest: { limits: [{ currency: "EUR", per_payout_max_minor: 2500000, daily_max_minor: 10000000 }] },
  ControlChange: controlChange,
  ControlChangeList: { control_changes: [controlChange], next_cursor: null },
  TopUpList: { top_ups: [topUp], next_cursor: null },
  // Reconciliation (issue 28)
  BankStatement: bankStatement,
  ListBankStatementsResponse: { bank_statements: [bankStatement], next_cursor: null },
  StatementLine: statementLine,
  ListStatementLinesResponse: { statement_lines: [statementLine], next_cursor: null },
  MatchStatementLineRequest: { payout_ids: [PAYOUT_ID] },
  IgnoreStatementLineRequest: { reason: "Bank charges for May, booked by hand in the ledger." },
  ResolveStatementMismatchRequest: { reason: "The bank's fee of 1.00 was posted by hand; the difference is explained." },
  // Sanctions screening (issue 29)
  ScreeningHit: screeningHit,
  ScreeningHitList: { screening_hits: [screeningHit], next_cursor: null },
  ScreeningDecisionRequest: { reason: "Different person: date of birth and nationality differ from the listed entry." },
  ScreeningDecision: {
    beneficiary_id: screeningHit.beneficiary_id,
    screening_status: "cleared",
    hits: [
      {
        ...screeningHit,
        status: "cleared",
        decided_by: { api_key_id: null, membership_id: "0196f1a7-4f50-7172-b5dd-4a5b6c7d8e9f", user_id: null },
        decided_at: "2026-05-27T11:00:00.000Z",
        reason: "Different person: date of birth and nationality differ from the listed entry.",
        updated_at: "2026-05-27T11:00:00.000Z",
      },
    ],
  },
};
