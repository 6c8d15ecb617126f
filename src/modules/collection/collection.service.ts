// Use cases of collection links: the Business mints and cancels them over the API; the Beneficiary opens
// and submits them on the hosted pages (src/pages/collection), which hold nothing but the link's token.
//
// Invariants:
//  - only SHA-256 of a token is stored; the raw token leaves the service in the create response and, sealed
//    in the mail job, in the invitation e-mail;
//  - at most one open request per Beneficiary (minting closes the previous one as `superseded`; a partial
//    unique index backs it), so `pending_requests` has 0 or 1 entries;
//  - a submission consumes its request with a conditional update in the same transaction as everything it
//    writes (identity, destination, declared destination, events, the notice e-mail), so a double submit
//    records nothing twice: the loser finds the request closed and is told the details were already submitted.

import { createHash, randomBytes } from "node:crypto";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import { noActor, type RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError, type ErrorDetail } from "../../platform/errors.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import type { IdGenerator } from "../../platform/ids.js";
import { renderEmail } from "../../platform/mail/templates.js";
import { BANK_FILE_REFUSALS } from "../../rails/bank-files/refusals.js";
import {
  findBeneficiary,
  lockBeneficiary,
  markCollectionInvited,
  recordAddressFromLink,
  recordDetailsSubmitted,
  recordTaxDocumentSummary,
} from "../beneficiaries/beneficiaries.shared.js";
import { BENEFICIARY_ERRORS, type BeneficiaryRow, type BeneficiaryService, IDENTITY_READERS } from "../beneficiaries/index.js";
import { auditedDestination, type DestinationRow, type DestinationService, isPayoutUsable } from "../destinations/index.js";
import type { MailOutbox } from "../emails/index.js";
import { findBusinessName } from "../registration/registration.shared.js";
import {
  type CollectionRequestRow,
  cancelRequest,
  consumeRequest,
  findBranding,
  findRequestByTokenHash,
  findRequestOfBeneficiary,
  findTaxDocumentSubmittedAt,
  insertCollectionRequest,
  insertTaxDocument,
  supersedeOpenRequests,
} from "./collection.repo.js";
import type { CollectionRequestCreatedBody, CreateCollectionRequestBody } from "./collection.schemas.js";
import { type TaxForm, type TaxFormInput, validateTaxForm } from "./collection.tax.js";

/** Spec: a collection link lives 7 days from minting. */
export const LINK_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** 32 random bytes, base64url: 43 characters, URL-safe, 256 bits (guessing is hopeless; the pages are rate limited too). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export type CollectionScope = CollectionRequestRow["scope"];

export interface CollectionServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  readonly events: EventRecorder;
  /** Invitations go through the mail outbox: captured in sandbox, limited per Business per day. */
  readonly mail: Pick<MailOutbox, "sendForBusiness">;
  /** Base of the link URLs (PUBLIC_BASE_URL). */
  readonly publicBaseUrl: string;
  readonly beneficiaries: Pick<
    BeneficiaryService,
    "identityProblems" | "identityUpdatePatch" | "identityRequirements" | "changeDeclaredDestination" | "screenChanged"
  >;
  readonly destinations: Pick<
    DestinationService,
    "prepareBankAccount" | "insertPrepared" | "liveDestinations" | "findOne" | "requestNameChecksOf" | "restartCoolingOff"
  >;
  /**
   * The routing check payout creation runs (bank-rails, a port passed in src/composition.ts). A submission runs it on the
   * chosen account so that a production Beneficiary whose SEPA account needs a structured address is asked
   * for it on the page, by the very rule that would refuse the payout.
   */
  readonly checkRailRoute: (tx: Tx, tenant: Tenant, destinationId: string, currency: string) => Promise<AppError | null>;
  /** Enrolls a compliant Beneficiary's new account with the rail once the submission has committed. */
  readonly enrollAfterCommit?: (tenant: Tenant, beneficiaryId: string) => Promise<void>;
  /** The audit log (people module, a port passed in src/composition.ts): branding changes, and accounts a payee adds by link. */
  readonly recordAudit: RecordActorAudit;
}

export type CollectionService = ReturnType<typeof createCollectionService>;

/** Why a link cannot be used (what the page tells the Beneficiary). */
export type ClosedReason = "unknown" | "expired" | "consumed" | "cancelled" | "superseded" | "archived";

/** A destination the Beneficiary may choose on the page: payout-usable, masked. */
export interface ChoosableDestination {
  readonly id: string;
  readonly kind: "bank_account" | "card";
  readonly last4: string;
  readonly currency: string;
  readonly country: string;
  readonly accountHolderName: string;
}

/** Everything a hosted page shows for a live link. Never the tax id or an account number. */
export interface LinkView {
  readonly requestId: string;
  readonly scope: CollectionScope;
  readonly expiresAt: Date;
  readonly businessName: string;
  readonly beneficiaryType: "person" | "business";
  /** Current identity values the form is pre-filled with (tax id excluded; see taxIdLast4). */
  readonly identity: Readonly<Record<string, string>>;
  readonly taxIdLast4: string | null;
  readonly requiredFields: readonly string[];
  readonly destinations: readonly ChoosableDestination[];
  readonly declaredDestinationId: string | null;
  /** The legal name the Business gave: the pre-filled account holder name. */
  readonly legalName: string;
  /** Where the Beneficiary lives or is incorporated, as far as known: the pre-selected bank country. */
  readonly knownCountry: string | null;
  /** The stored postal address has a town and a country (what a SEPA payment needs, besides the street we ask too). */
  readonly addressComplete: boolean;
  readonly branding: LinkBranding;
}

/** How the pages present the Business (its branding settings, else its profile name, read live). */
export interface LinkBranding {
  readonly displayName: string;
  /** `#rrggbb`, checked for contrast with white when it was set. */
  readonly color: string | null;
  readonly hasLogo: boolean;
}

export type LinkLookup =
  | { readonly live: true; readonly view: LinkView }
  | { readonly live: false; readonly reason: ClosedReason; readonly businessName: string | null };

/** A destination picked on the page: one already registered, or a new bank account (raw form values). */
export type DestinationChoice =
  | { readonly kind: "existing"; readonly id: string }
  | { readonly kind: "new"; readonly bank: Readonly<Record<string, string | undefined>> }
  | { readonly kind: "missing" };

export type Submission =
  | { readonly scope: "full_onboarding"; readonly identity: Record<string, unknown>; readonly destination: DestinationChoice }
  | {
      readonly scope: "payout_destination";
      readonly destination: DestinationChoice;
      /** Asked on the page when the stored address lacks what a SEPA account needs; absent when not given. */
      readonly postalAddress?: Record<string, string>;
    }
  | { readonly scope: "tax_documents"; readonly form: TaxForm; readonly tax: TaxFormInput };

export type SubmitOutcome =
  | { readonly outcome: "submitted"; readonly view: LinkView; readonly destination: ChoosableDestination | null }
  | { readonly outcome: "invalid"; readonly view: LinkView; readonly details: readonly ErrorDetail[] }
  | { readonly outcome: "closed"; readonly reason: ClosedReason; readonly businessName: string | null };

/** Control flow out of a submit transaction (rolls it back, consumption included). */
class SubmissionRefused extends Error {
  constructor(readonly details: readonly ErrorDetail[]) {
    super("submission refused");
  }
}
class LinkClosed extends Error {
  constructor(readonly reason: ClosedReason) {
    super(`link closed: ${reason}`);
  }
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Form pre-fill: each identity input's current value as text (postal address by line; never the tax id). */
const IDENTITY_VALUE_READERS: Readonly<Record<string, (row: BeneficiaryRow) => string | null>> = {
  first_name: (row) => row.firstName ?? splitName(row)?.first ?? null,
  last_name: (row) => row.lastName ?? splitName(row)?.last ?? null,
  country_of_residence: (row) => row.countryOfResidence,
  date_of_birth: (row) => row.dateOfBirth,
  business_name: (row) => row.businessName,
  country_of_incorporation: (row) => row.countryOfIncorporation,
  registration_number: (row) => row.registrationNumber,
  phone: (row) => row.phone,
  "postal_address.line1": (row) => row.postalAddress?.line1 ?? null,
  "postal_address.line2": (row) => row.postalAddress?.line2 ?? null,
  "postal_address.city": (row) => row.postalAddress?.city ?? null,
  "postal_address.state": (row) => row.postalAddress?.state ?? null,
  "postal_address.postal_code": (row) => row.postalAddress?.postal_code ?? null,
  "postal_address.country": (row) => row.postalAddress?.country ?? null,
};

/**
 * A person the Business created with one `name` ("Jane Doe") but no first and last name: the form offers
 * the last word as the last name and the rest as the first name, editable; a single word is not split.
 */
function splitName(row: BeneficiaryRow): { first: string; last: string } | null {
  if (row.beneficiaryType !== "person" || row.firstName !== null || row.lastName !== null) return null;
  const words = row.name.trim().split(/\s+/);
  if (words.length < 2) return null;
  return { first: words.slice(0, -1).join(" "), last: words[words.length - 1] ?? "" };
}

function choosable(row: DestinationRow): ChoosableDestination {
  return {
    id: row.id,
    kind: row.kind,
    last4: row.last4,
    currency: row.currency,
    country: row.country,
    accountHolderName: row.accountHolderName,
  };
}

export function createCollectionService(deps: CollectionServiceDeps) {
  const { db, clock, ids, cipher, events, beneficiaries, destinations } = deps;

  function linkUrl(token: string): string {
    return `${deps.publicBaseUrl}/collect/${token}`;
  }

  async function mailInvitation(tx: Tx, tenant: Tenant, beneficiary: BeneficiaryRow, request: CollectionRequestRow, url: string) {
    const businessName = (await findBusinessName(tx, tenant.businessId)) ?? "Your payer";
    const asks: Record<CollectionScope, string> = {
      full_onboarding: "asks you to confirm your details and choose the bank account your payouts are sent to.",
      payout_destination: "asks you to choose the bank account your payouts are sent to.",
      tax_documents: "asks you to fill in a tax form (W-9 for US persons, W-8BEN or W-8BEN-E otherwise).",
    };
    const expires = request.expiresAt.toISOString().slice(0, 16).replace("T", " ");
    const mail = renderEmail({
      businessName,
      heading: `${businessName} asks for your details`,
      paragraphs: [
        `${businessName} pays you through this service and ${asks[request.scope]}`,
        `The secure form works once and until ${expires} UTC. Do not forward this message: anyone with the link can submit details in your name.`,
        `If you did not expect this, ignore it or contact ${businessName}.`,
      ],
      action: { label: "Open the secure form", url },
      footer: `You receive this because ${businessName} pays you through this service.`,
    });
    // Asked for by this request: over the Business's daily limit it is refused (429) rather than sent late.
    await deps.mail.sendForBusiness(tx, tenant, {
      kind: "collection_invitation",
      to: beneficiary.email,
      subject: `${businessName}: please add your details`,
      text: mail.text,
      html: mail.html,
      idempotencyKey: `collection-invitation:${request.id}`,
      overLimit: "refuse",
    });
  }

  /**
   * Mints a link. A new link closes the Beneficiary's open one (a resend). A `full_onboarding` link moves
   * `collection_status` from `not_invited` to `invited`; other scopes leave it alone.
   */
  async function create(
    actor: Actor,
    beneficiaryId: string,
    body: CreateCollectionRequestBody,
  ): Promise<CollectionRequestCreatedBody> {
    const tenant = tenantOf(actor);
    const token = randomBytes(32).toString("base64url");
    const now = clock.now();
    return transaction(db, async (tx) => {
      const beneficiary = await lockBeneficiary(tx, tenant, beneficiaryId);
      if (beneficiary === null) throw new AppError("not_found", { message: "No such Beneficiary." });
      if (beneficiary.archivedAt !== null) throw new AppError(BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED);
      await supersedeOpenRequests(tx, tenant, beneficiary.id, now);
      const request = await insertCollectionRequest(tx, {
        id: ids.newId(),
        businessId: tenant.businessId,
        environment: tenant.environment,
        beneficiaryId: beneficiary.id,
        scope: body.scope,
        tokenHash: hashToken(token),
        expiresAt: new Date(now.getTime() + LINK_LIFETIME_MS),
        emailed: body.send_email === true,
        createdAt: now,
      });
      if (body.scope === "full_onboarding" && beneficiary.collectionStatus === "not_invited") {
        await markCollectionInvited(tx, tenant, beneficiary.id, now);
      }
      const url = linkUrl(token);
      if (body.send_email === true) await mailInvitation(tx, tenant, beneficiary, request, url);
      return {
        id: request.id,
        beneficiary_id: request.beneficiaryId,
        scope: request.scope,
        url,
        expires_at: request.expiresAt.toISOString(),
        email_sent: request.emailed,
        created_at: request.createdAt.toISOString(),
      };
    });
  }

  /**
   * Invalidates one request of the Beneficiary. Idempotent: a request already consumed, cancelled, replaced
   * or expired stays as it is and the call succeeds. Another tenant's (or another Beneficiary's) request is
   * not found, exactly like a missing one. Allowed on an archived Beneficiary (closing a link is always safe).
   */
  async function cancel(actor: Actor, beneficiaryId: string, requestId: string): Promise<void> {
    const tenant = tenantOf(actor);
    await transaction(db, async (tx) => {
      const request = await findRequestOfBeneficiary(tx, tenant, beneficiaryId, requestId);
      if (request === null) throw new AppError("not_found", { message: "No such collection request for this Beneficiary." });
      if (request.closedAt === null && request.expiresAt > clock.now()) await cancelRequest(tx, request.id, clock.now());
    });
  }

  /** The request and Beneficiary behind a token, or why the link cannot be used. */
  async function lookup(
    handle: Db,
    token: string,
  ): Promise<
    | { live: true; request: CollectionRequestRow; beneficiary: BeneficiaryRow; businessName: string }
    | { live: false; reason: ClosedReason; businessName: string | null }
  > {
    if (!TOKEN_SHAPE.test(token)) return { live: false, reason: "unknown", businessName: null };
    const request = await findRequestByTokenHash(handle, hashToken(token));
    if (request === null) return { live: false, reason: "unknown", businessName: null };
    const tenant: Tenant = { businessId: request.businessId, environment: request.environment };
    const businessName = (await findBusinessName(handle, request.businessId)) ?? "The sender";
    if (request.closedReason !== null) return { live: false, reason: request.closedReason, businessName };
    if (request.expiresAt <= clock.now()) return { live: false, reason: "expired", businessName };
    const found = await findBeneficiary(handle, tenant, request.beneficiaryId);
    if (found === null || found.row.archivedAt !== null) return { live: false, reason: "archived", businessName };
    return { live: true, request, beneficiary: found.row, businessName };
  }

  async function viewOf(request: CollectionRequestRow, beneficiary: BeneficiaryRow, businessName: string): Promise<LinkView> {
    const tenant: Tenant = { businessId: request.businessId, environment: request.environment };
    const identity: Record<string, string> = {};
    for (const [field, read] of Object.entries(IDENTITY_VALUE_READERS)) {
      const value = read(beneficiary);
      if (value !== null && value !== undefined) identity[field] = value;
    }
    const live = request.scope === "tax_documents" ? [] : await destinations.liveDestinations(db, tenant, beneficiary.id);
    const branding = await findBranding(db, tenant);
    const address = beneficiary.postalAddress;
    return {
      requestId: request.id,
      scope: request.scope,
      expiresAt: request.expiresAt,
      businessName,
      beneficiaryType: beneficiary.beneficiaryType,
      identity,
      taxIdLast4: beneficiary.taxIdLast4,
      requiredFields: beneficiaries.identityRequirements[beneficiary.beneficiaryType],
      destinations: live.filter(isPayoutUsable).map(choosable),
      declaredDestinationId: beneficiary.declaredDestinationId,
      legalName: beneficiary.name,
      knownCountry: beneficiary.countryOfResidence ?? beneficiary.countryOfIncorporation ?? address?.country ?? null,
      addressComplete: Boolean(address?.line1 && address.city && address.country),
      branding: {
        displayName: branding?.displayName ?? businessName,
        color: branding?.brandColor ?? null,
        hasLogo: branding?.logoBase64 != null,
      },
    };
  }

  /** What the page at GET /collect/{token} shows. */
  async function open(token: string): Promise<LinkLookup> {
    const found = await lookup(db, token);
    if (!found.live) return found;
    return { live: true, view: await viewOf(found.request, found.beneficiary, found.businessName) };
  }

  /** Checks that need no transaction: identity shape and values, required fields, bank details, tax form. */
  function precheck(submission: Submission, beneficiary: BeneficiaryRow): ErrorDetail[] {
    const details: ErrorDetail[] = [];
    if (submission.scope === "full_onboarding") {
      if (Object.keys(submission.identity).length > 0) details.push(...beneficiaries.identityProblems(submission.identity));
      for (const field of beneficiaries.identityRequirements[beneficiary.beneficiaryType]) {
        const given = submission.identity[field];
        const value = given !== undefined ? given : IDENTITY_READERS[field](beneficiary);
        if ((value === null || value === undefined || value === "") && !details.some((d) => d.field.startsWith(field))) {
          details.push({
            field: field === "postal_address" ? "postal_address.line1" : field,
            code: "required",
            message: "This field is required.",
          });
        }
      }
    }
    if (submission.scope === "payout_destination" && submission.postalAddress !== undefined) {
      details.push(...beneficiaries.identityProblems({ postal_address: submission.postalAddress }));
    }
    if (submission.scope !== "tax_documents") {
      const choice = submission.destination;
      if (choice.kind === "missing") {
        details.push({ field: "destination", code: "required", message: "Choose an account or add a new bank account." });
      } else if (choice.kind === "new") {
        const prepared = destinations.prepareBankAccount(
          choice.bank as Parameters<DestinationService["prepareBankAccount"]>[0],
          "bank.",
        );
        if (!prepared.ok) details.push(...prepared.details);
      }
    }
    return details;
  }

  /** Resolves the chosen destination inside the submit transaction; a new bank account is registered (and announced). */
  async function settleDestination(
    tx: Tx,
    tenant: Tenant,
    beneficiaryId: string,
    choice: DestinationChoice,
    collectionRequestId: string,
  ): Promise<{ row: DestinationRow; created: boolean }> {
    if (choice.kind === "existing") {
      const row = await destinations.findOne(tx, tenant, beneficiaryId, choice.id);
      if (row === null || !isPayoutUsable(row)) {
        throw new SubmissionRefused([
          { field: "destination", code: "invalid_choice", message: "That account can no longer be chosen. Choose another one." },
        ]);
      }
      return { row, created: false };
    }
    if (choice.kind === "new") {
      const prepared = destinations.prepareBankAccount(
        choice.bank as Parameters<DestinationService["prepareBankAccount"]>[0],
        "bank.",
      );
      if (!prepared.ok) throw new SubmissionRefused(prepared.details);
      // No person of the Business is behind a link's submission: any approver may approve it (require_approval).
      return await destinations.insertPrepared(tx, tenant, beneficiaryId, prepared.value, true, {
        kind: "collection_link",
        collectionRequestId,
      });
    }
    throw new SubmissionRefused([
      { field: "destination", code: "required", message: "Choose an account or add a new bank account." },
    ]);
  }

  /** The words the payee reads beside the field (a length detail already says the limit in plain words). */
  function formMessageOf(refusal: AppError, detail: ErrorDetail): string {
    if (refusal.is(BANK_FILE_REFUSALS.SEPA_BIC_REQUIRED))
      return "Your bank is outside the EEA: its SEPA payments need the bank's BIC (SWIFT code).";
    if (refusal.is(BANK_FILE_REFUSALS.SEPA_BIC_MISMATCH)) return "This BIC is of a bank in another country than the IBAN.";
    return detail.message;
  }

  /**
   * Runs payout creation's routing check on the chosen account, after the submission's identity and address
   * are written in this transaction: what the payee can fix (the address a SEPA file needs, a name it can
   * carry) becomes a field error and rolls the submission back. A missing rail is the Business's matter.
   */
  async function refuseWhatTheRailWould(tx: Tx, tenant: Tenant, destination: DestinationRow, created: boolean): Promise<void> {
    const refusal = await deps.checkRailRoute(tx, tenant, destination.id, destination.currency);
    if (refusal?.is(BANK_FILE_REFUSALS.SEPA_ADDRESS_NOT_STRUCTURED)) {
      const fields = (refusal.details ?? []).map((detail) => detail.field);
      throw new SubmissionRefused(
        (fields.length > 0 ? fields : ["postal_address.city", "postal_address.country"]).map((field) => ({
          field,
          code: "required",
          message: "Your bank is in the SEPA area: its payments need your address, with town and country.",
        })),
      );
    }
    if (
      refusal?.is(BANK_FILE_REFUSALS.SEPA_NAME_NOT_REPRESENTABLE) ||
      refusal?.is(BANK_FILE_REFUSALS.ACH_NAME_NOT_REPRESENTABLE)
    ) {
      throw new SubmissionRefused([
        {
          field: created ? "bank.account_holder_name" : "destination",
          code: "not_representable",
          message: "Your bank's payments carry names in Latin letters only: write the account holder's name in Latin letters.",
        },
      ]);
    }
    // What the bank file cannot carry (the BIC outside the EEA, a name or an address part too long for its
    // field once transliterated): each detail becomes the form field the payee can fix. An existing account
    // chosen again is fixed by adding a new one.
    if (
      refusal?.is(BANK_FILE_REFUSALS.SEPA_BIC_REQUIRED) ||
      refusal?.is(BANK_FILE_REFUSALS.SEPA_BIC_MISMATCH) ||
      refusal?.is(BANK_FILE_REFUSALS.SEPA_FIELD_TOO_LONG) ||
      refusal?.is(BANK_FILE_REFUSALS.ACH_FIELD_TOO_LONG)
    ) {
      throw new SubmissionRefused(
        (refusal.details ?? []).map((detail) => {
          const accountField = detail.field.startsWith("bank_account.") ? detail.field.slice("bank_account.".length) : null;
          return {
            field: accountField === null ? detail.field : created ? `bank.${accountField}` : "destination",
            code: detail.code,
            message: formMessageOf(refusal, detail),
          };
        }),
      );
    }
  }

  /**
   * Submits the form of a live link. Everything is written in one transaction that first consumes the
   * request (conditional update): of two submissions of one link, exactly one records anything.
   */
  async function submit(token: string, submission: Submission): Promise<SubmitOutcome> {
    const found = await lookup(db, token);
    if (!found.live) return { outcome: "closed", reason: found.reason, businessName: found.businessName };
    const { request, beneficiary, businessName } = found;
    const view = () => viewOf(request, beneficiary, businessName);
    if (submission.scope !== request.scope) {
      return {
        outcome: "invalid",
        view: await view(),
        details: [{ field: "", code: "invalid_form", message: "Reload the page." }],
      };
    }
    const today = clock.now().toISOString().slice(0, 10);
    const tax = submission.scope === "tax_documents" ? validateTaxForm(submission.form, submission.tax, today) : null;
    const details = [...precheck(submission, beneficiary), ...(tax !== null && "details" in tax ? tax.details : [])];
    if (details.length > 0) return { outcome: "invalid", view: await view(), details };

    const tenant: Tenant = { businessId: request.businessId, environment: request.environment };
    try {
      const committed = await transaction(db, async (tx): Promise<{ chosen: DestinationRow | null; enroll: boolean }> => {
        const now = clock.now();
        const locked = await lockBeneficiary(tx, tenant, request.beneficiaryId);
        if (locked === null || locked.archivedAt !== null) throw new LinkClosed("archived");
        if (!(await consumeRequest(tx, request.id, now))) throw new LinkClosed("consumed");
        if (submission.scope === "tax_documents") {
          if (tax === null || "details" in tax) throw new Error("tax form not validated");
          const summary = { ...tax.summary, submitted_at: now.toISOString() };
          await insertTaxDocument(tx, {
            id: ids.newId(),
            businessId: tenant.businessId,
            environment: tenant.environment,
            beneficiaryId: locked.id,
            collectionRequestId: request.id,
            form: tax.summary.form,
            documentEncrypted: cipher.encrypt(JSON.stringify(tax.document)),
            summary,
            submittedAt: now,
          });
          await recordTaxDocumentSummary(tx, tenant, locked.id, summary, now);
          return { chosen: null, enroll: false };
        }
        const settled = await settleDestination(tx, tenant, locked.id, submission.destination, request.id);
        const destination = settled.row;
        if (settled.created) {
          // Added by whoever holds the link (no person or key of the Business): recorded with no actor.
          await deps.recordAudit(tx, noActor(tenant), {
            action: "bank_account_added",
            subjectType: "bank_account",
            subjectId: destination.id,
            details: { ...auditedDestination(destination), collection_request_id: request.id },
          });
        }
        const compliant = locked.complianceStatus === "compliant" && !locked.reacknowledgmentRequired;
        // The last write wins, and the Beneficiary is told by e-mail like for any change of the declared
        // destination: whoever holds the link submits it, and that may be the Business itself.
        // A change of the declared destination restarts its cooling-off (destination policy).
        const declare = async () => {
          const changed = locked.declaredDestinationId !== destination.id;
          await beneficiaries.changeDeclaredDestination(tx, tenant, locked, {
            destination,
            by: { kind: "beneficiary_link", collectionRequestId: request.id },
            reason: "link_submitted",
          });
          if (changed && !settled.created) await destinations.restartCoolingOff(tx, tenant, destination);
        };
        if (submission.scope === "payout_destination") {
          if (submission.postalAddress !== undefined) {
            const patch = beneficiaries.identityUpdatePatch(locked, { postal_address: submission.postalAddress } as Parameters<
              typeof beneficiaries.identityUpdatePatch
            >[1]);
            await recordAddressFromLink(tx, tenant, locked.id, patch, now);
            await beneficiaries.screenChanged(tx, tenant, [locked.id], null);
          }
          await refuseWhatTheRailWould(tx, tenant, destination, settled.created);
          await declare();
          return { chosen: destination, enroll: settled.created && compliant };
        }
        const patch = beneficiaries.identityUpdatePatch(locked, submission.identity);
        await recordDetailsSubmitted(tx, tenant, locked.id, patch, now);
        // A new legal name: every account's holder name is checked against it again (the new one's check is queued).
        if (patch.name !== undefined && patch.name !== locked.name) await destinations.requestNameChecksOf(tx, tenant, locked.id);
        await beneficiaries.screenChanged(tx, tenant, [locked.id], null);
        await refuseWhatTheRailWould(tx, tenant, destination, settled.created);
        await declare();
        await events.record(tx, {
          tenant,
          type: "beneficiary.details_submitted",
          subjectId: locked.id,
          data: { beneficiary_id: locked.id, status: "details_submitted" },
        });
        // An identity change that needs re-acknowledgment holds enrollment until the Business acknowledges again.
        const stillCompliant = compliant && patch.reacknowledgmentRequired !== true;
        return { chosen: destination, enroll: settled.created && stillCompliant };
      });
      // A new account of a compliant Beneficiary is enrolled with the rail after commit, as when the Business
      // registers one through the API (a failure is logged and left to the enrollment retry route).
      if (committed.enroll && deps.enrollAfterCommit !== undefined) {
        await deps.enrollAfterCommit(tenant, request.beneficiaryId);
      }
      const chosen = committed.chosen;
      return { outcome: "submitted", view: await view(), destination: chosen === null ? null : choosable(chosen) };
    } catch (error) {
      if (error instanceof SubmissionRefused) return { outcome: "invalid", view: await view(), details: error.details };
      if (error instanceof LinkClosed) {
        // Re-read: the request may have been consumed by a concurrent submission, cancelled, or replaced.
        const now = await lookup(db, token);
        const reason = now.live ? error.reason : now.reason;
        return { outcome: "closed", reason, businessName };
      }
      throw error;
    }
  }

  /** The Business's uploaded logo, for the pages of a live link; null otherwise. */
  async function logo(token: string): Promise<{ mediaType: string; bytes: Buffer } | null> {
    const found = await lookup(db, token);
    if (!found.live) return null;
    const row = await findBranding(db, { businessId: found.request.businessId, environment: found.request.environment });
    if (row?.logoBase64 == null || row.logoMediaType == null) return null;
    return { mediaType: row.logoMediaType, bytes: Buffer.from(row.logoBase64, "base64") };
  }

  return { create, cancel, open, submit, linkUrl, logo };
}

/**
 * The full TIN of the tax form whose summary says it was submitted at `submittedAt` (decrypted), for the
 * masking backfill; null when there is no such form or it holds no TIN.
 */
export async function readTaxFormTin(
  tx: Tx,
  cipher: Pick<FieldCipher, "decrypt">,
  beneficiaryId: string,
  submittedAt: string,
): Promise<string | null> {
  const at = new Date(submittedAt);
  if (Number.isNaN(at.getTime())) return null;
  const sealed = await findTaxDocumentSubmittedAt(tx, beneficiaryId, at);
  if (sealed === null) return null;
  const document = JSON.parse(cipher.decrypt(sealed)) as { tin?: unknown };
  return typeof document.tin === "string" ? document.tin : null;
}
