// The hosted pages themselves: one form per scope, the thank-you page, and the pages that explain why a
// link cannot be used. Pure functions from what the collection module returns to HTML text.
import type { ChoosableDestination, ClosedReason, LinkView, TaxForm } from "../../modules/collection/index.js";
import {
  bankFormFor,
  defaultCurrencyOf,
  isSepaCountry,
  W8BENE_ENTITY_TYPES,
  W9_CLASSIFICATIONS,
} from "../../modules/collection/index.js";
import { endingIn } from "../../platform/masking.js";
import { listCurrencies } from "../../platform/reference/iso-codes.js";
import {
  countryName,
  countryOptions,
  escapeHtml,
  type FieldSpec,
  type FormState,
  type PageBranding,
  renderErrorSummary,
  renderField,
  renderPage,
} from "./html.js";

const EMPTY_STATE: FormState = { values: {}, errors: new Map() };

/** Identity fields per Beneficiary type, in form order. `tax_id` is never pre-filled. */
function identityFields(view: LinkView): FieldSpec[] {
  const required = new Set(view.requiredFields);
  const is = (field: string) => required.has(field);
  const taxHint = view.taxIdLast4 === null ? undefined : `We have one${endingIn(view.taxIdLast4)}. Leave this empty to keep it.`;
  const common: FieldSpec[] = [
    {
      name: "tax_id",
      label: "Tax identification number",
      required: is("tax_id") && view.taxIdLast4 === null,
      ...(taxHint ? { hint: taxHint } : {}),
    },
    {
      name: "phone",
      label: "Phone number",
      required: is("phone"),
      type: "tel",
      autocomplete: "tel",
      hint: "With the country code, e.g. +4915123456789.",
    },
  ];
  if (view.beneficiaryType === "person") {
    return [
      { name: "first_name", label: "First name", required: is("first_name"), autocomplete: "given-name" },
      { name: "last_name", label: "Last name", required: is("last_name"), autocomplete: "family-name" },
      {
        name: "date_of_birth",
        label: "Date of birth",
        required: is("date_of_birth"),
        date: true,
        autocomplete: "bday",
      },
      {
        name: "country_of_residence",
        label: "Country of residence",
        required: is("country_of_residence"),
        options: countryOptions(),
      },
      ...common,
    ];
  }
  return [
    { name: "business_name", label: "Legal business name", required: is("business_name"), autocomplete: "organization" },
    {
      name: "country_of_incorporation",
      label: "Country of incorporation",
      required: is("country_of_incorporation"),
      options: countryOptions(),
    },
    { name: "registration_number", label: "Company registration number", required: is("registration_number") },
    ...common,
  ];
}

function addressFields(prefix: string, required: boolean, countryField = `${prefix}.country`): FieldSpec[] {
  return [
    { name: `${prefix}.line1`, label: "Street address", required, autocomplete: "address-line1" },
    { name: `${prefix}.line2`, label: "Apartment, suite, unit", autocomplete: "address-line2" },
    { name: `${prefix}.city`, label: "City", required, autocomplete: "address-level2" },
    { name: `${prefix}.state`, label: "State, province or region", autocomplete: "address-level1" },
    { name: `${prefix}.postal_code`, label: "Postal code", autocomplete: "postal-code" },
    { name: countryField, label: "Country", required, options: countryOptions(), autocomplete: "country" },
  ];
}

/** Labels of every bank field a posted form may carry (for the error summary); which ones are asked is bankFieldSpecs'. */
export const BANK_FIELD_LABELS: ReadonlyMap<string, string> = new Map([
  ["bank.account_holder_name", "Account holder name"],
  ["bank.country", "Country of the bank"],
  ["bank.currency", "Account currency"],
  ["bank.iban", "IBAN"],
  ["bank.account_number", "Account number"],
  ["bank.routing_code", "Routing code"],
  ["bank.swift_bic", "SWIFT / BIC"],
  ["bank.clabe", "CLABE"],
  ["bank.pix_key", "Pix key"],
  ["bank.bank_name", "Bank name"],
  ["bank.account_type", "Account type"],
]);

/** The bank's country and the account's currency, chosen on step 1: they decide which fields step 2 asks. */
export interface BankChoice {
  readonly country: string;
  readonly currency: string;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The account fields a country and currency need, from the destination rules the API validates with. */
function bankFieldSpecs(bank: BankChoice): FieldSpec[] {
  const form = bankFormFor(bank.country, bank.currency);
  const alternatives = form.note !== undefined;
  const specs: FieldSpec[] = [
    {
      name: "bank.account_holder_name",
      label: "Account holder name",
      required: true,
      autocomplete: "name",
      hint: "The name on the account, as your bank knows it.",
    },
  ];
  for (const field of form.fields) {
    const base = { required: field.required, ...(alternatives ? { conditional: true } : {}) };
    switch (field.field) {
      case "iban":
        specs.push({ ...base, name: "bank.iban", label: "IBAN", hint: `Starts with ${bank.country}; spaces are fine.` });
        break;
      case "swift_bic":
        specs.push({ ...base, name: "bank.swift_bic", label: "SWIFT / BIC", hint: "8 or 11 letters and digits, e.g. DEUTDEFF." });
        break;
      case "routing_code":
        specs.push({
          ...base,
          name: "bank.routing_code",
          label: capitalized(field.name ?? "routing code"),
          inputmode: "numeric",
        });
        break;
      case "account_number":
        specs.push({
          ...base,
          name: "bank.account_number",
          label: "Account number",
          ...(field.shape === undefined ? {} : { hint: `${capitalized(field.shape)}.` }),
        });
        break;
      case "clabe":
        specs.push({ ...base, name: "bank.clabe", label: "CLABE", inputmode: "numeric", hint: "18 digits." });
        break;
      case "pix_key":
        specs.push({
          ...base,
          name: "bank.pix_key",
          label: "Pix key",
          hint: "CPF, CNPJ, e-mail, +55 mobile number or random key.",
        });
        break;
      default:
        break;
    }
  }
  if (form.scheme === "us_aba" || form.scheme === "ca_eft") {
    specs.push({
      name: "bank.account_type",
      label: "Account type",
      options: [
        ["checking", "Checking"],
        ["savings", "Savings"],
      ],
    });
  }
  return specs;
}

/** A payout in euro to a bank in the SEPA area: the payment carries the payee's structured address. */
function isSepaEuro(country: string, currency: string): boolean {
  return currency === "EUR" && isSepaCountry(country);
}

function destinationLabel(d: ChoosableDestination): string {
  const what = d.kind === "card" ? "Card" : "Bank account";
  return `${what}${endingIn(d.last4)} (${d.currency}, ${countryName(d.country)}), ${d.accountHolderName}`;
}

function bankStepHref(action: string, bank: BankChoice | null): string {
  const query = new URLSearchParams({
    step: "bank",
    ...(bank === null ? {} : { country: bank.country, currency: bank.currency }),
  });
  return `${action}?${query.toString()}`;
}

function destinationSection(view: LinkView, state: FormState, bank: BankChoice | null, action: string): string {
  const canAdd = bank !== null;
  const chosen =
    state.values.destination ?? view.declaredDestinationId ?? (view.destinations.length === 0 && canAdd ? "new" : "");
  const error = state.errors.get("destination");
  const where = bank === null ? "" : ` in ${countryName(bank.country)} (${bank.currency})`;
  const radios =
    view.destinations.length === 0
      ? `<input type="hidden" name="destination" value="new">`
      : `<fieldset id="f-destination"${error ? ' aria-describedby="f-destination-error"' : ""}>
<legend>Where should your payouts go?</legend>
${error ? `<p class="error" id="f-destination-error"><span class="visually-hidden">Error: </span>${escapeHtml(error)}</p>` : ""}
${view.destinations
  .map(
    (d, index) =>
      `<div class="choice"><input type="radio" id="f-destination-${index}" name="destination" value="${escapeHtml(d.id)}"${
        chosen === d.id ? " checked" : ""
      }><label for="f-destination-${index}">${escapeHtml(destinationLabel(d))}</label></div>`,
  )
  .join("\n")}
${
  canAdd
    ? `<div class="choice"><input type="radio" id="f-destination-new" name="destination" value="new"${
        chosen === "new" ? " checked" : ""
      }><label for="f-destination-new">${escapeHtml(`A new bank account${where} (fill in the details below)`)}</label></div>`
    : ""
}
</fieldset>`;
  if (bank === null) {
    return `<h2>Payout account</h2>
${radios}
<p><a href="${escapeHtml(bankStepHref(action, null))}">Add a new bank account instead</a></p>`;
  }
  const existing = view.destinations.length > 0;
  const countryError = state.errors.get("bank.country") ?? state.errors.get("bank.currency");
  const fields = bankFieldSpecs(bank).map((field) =>
    existing && field.required === true ? { ...field, required: false, conditional: true } : field,
  );
  const note = bankFormFor(bank.country, bank.currency).note;
  return `<h2>Payout account</h2>
${radios}
<fieldset>
<legend>${existing ? "New bank account" : "Your bank account"}</legend>
${existing ? '<p class="hint">Fill this in only if you chose "A new bank account" above.</p>' : ""}
<input type="hidden" name="bank.country" value="${escapeHtml(bank.country)}">
<input type="hidden" name="bank.currency" value="${escapeHtml(bank.currency)}">
<div class="chosen${countryError ? " has-error" : ""}" id="f-bank-currency" tabindex="-1">
<p>Bank in <strong>${escapeHtml(countryName(bank.country))}</strong>, account in <strong>${escapeHtml(bank.currency)}</strong></p>
<a id="f-bank-country" href="${escapeHtml(bankStepHref(action, bank))}">Change country or currency</a>
</div>
${countryError ? `<p class="error" id="f-bank-currency-error"><span class="visually-hidden">Error: </span>${escapeHtml(countryError)}</p>` : ""}
${note === undefined ? "" : `<p class="hint">${escapeHtml(note)}</p>`}
${fields.map((field) => renderField(field, state)).join("\n")}
</fieldset>`;
}

/**
 * The postal address. Marked as needed (not "(optional)") when the link's identity rules require it or the
 * new account is paid by SEPA and no complete address is stored: the SEPA file carries town and country
 * apart, and payout creation refuses a SEPA payee without them.
 */
function addressSection(state: FormState, required: boolean, sepa: boolean): string {
  const fields = addressFields("postal_address", required).map((field) =>
    sepa && !required && ["postal_address.line1", "postal_address.city", "postal_address.country"].includes(field.name)
      ? { ...field, conditional: true }
      : field,
  );
  return `<fieldset><legend>Postal address</legend>
${sepa ? '<p class="hint">Banks in the SEPA area need your street, town and country, each in its own field.</p>' : ""}
${fields.map((f) => renderField(f, state)).join("\n")}
</fieldset>`;
}

function formShell(action: string, csrf: string, inner: string, submitLabel: string): string {
  return `<form method="post" action="${escapeHtml(action)}" novalidate>
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
${inner}
<p><button type="submit">${escapeHtml(submitLabel)}</button></p>
</form>`;
}

function expiryNotice(view: LinkView): string {
  const at = view.expiresAt.toISOString().slice(0, 16).replace("T", " ");
  return `<p class="notice">This secure form works once, until ${escapeHtml(at)} UTC. Fields marked (optional) may be left empty.</p>`;
}

export interface FormPage {
  readonly view: LinkView;
  readonly action: string;
  readonly csrf: string;
  readonly state?: FormState;
  /** Tax documents: the chosen form, or null for the "which form?" question. */
  readonly taxForm?: TaxForm | null;
  /** The new account's country and currency (step 1), or null when not chosen and not known. */
  readonly bank?: BankChoice | null;
}

function labelsOf(fields: readonly FieldSpec[]): Map<string, string> {
  return new Map(fields.map((f) => [f.name, f.label]));
}

function brandingOf(view: LinkView, action: string): PageBranding {
  return { color: view.branding.color, logoUrl: view.branding.hasLogo ? `${action}/logo` : null };
}

export function renderFormPage(page: FormPage): string {
  const state = page.state ?? EMPTY_STATE;
  const { view } = page;
  const bank = page.bank ?? null;
  const sepa =
    !view.addressComplete &&
    ((bank !== null && isSepaEuro(bank.country, bank.currency)) ||
      view.destinations.some((d) => d.kind === "bank_account" && isSepaEuro(d.country, d.currency)));
  let title: string;
  let intro: string;
  let inner: string;
  const labels = new Map(BANK_FIELD_LABELS);
  // The summary names a field as the form does ("ABA routing number", not "Routing code").
  if (bank !== null) for (const [name, label] of labelsOf(bankFieldSpecs(bank))) labels.set(name, label);
  const address = addressFields("postal_address", false);
  for (const [name, label] of labelsOf(address)) labels.set(name, label);
  labels.set("destination", "Payout account");
  if (view.scope === "full_onboarding") {
    const identity = identityFields(view);
    for (const [name, label] of labelsOf(identity)) labels.set(name, label);
    title = "Your details";
    intro = `${view.branding.displayName} asks you to confirm who you are and where your payouts should go.`;
    inner = `<h2>About you</h2>
<fieldset><legend>${view.beneficiaryType === "person" ? "Personal details" : "Business details"}</legend>
${identity.map((f) => renderField(f, state)).join("\n")}
</fieldset>
${addressSection(state, view.requiredFields.includes("postal_address"), sepa)}
${destinationSection(view, state, bank, page.action)}`;
  } else if (view.scope === "payout_destination") {
    title = "Your payout account";
    intro = `${view.branding.displayName} asks you to choose the account your payouts are sent to.`;
    inner = `${destinationSection(view, state, bank, page.action)}
${sepa || state.errors.has("postal_address.city") || state.errors.has("postal_address.country") ? addressSection(state, false, true) : ""}`;
  } else {
    return renderTaxPage(page, state);
  }
  return renderPage({
    title,
    businessName: view.branding.displayName,
    branding: brandingOf(view, page.action),
    body: `<h1>${escapeHtml(title)}</h1>
${renderErrorSummary(state.errors, labels)}
<p>${escapeHtml(intro)}</p>
${expiryNotice(view)}
${formShell(page.action, page.csrf, inner, "Submit details")}`,
  });
}

export interface BankStepPage {
  readonly view: LinkView;
  readonly action: string;
  readonly country: string;
  readonly currency: string;
  readonly errors: ReadonlyMap<string, string>;
}

/**
 * Step 1: the bank's country and the account's currency, a GET form (works without JavaScript; the
 * script only pre-selects the country's usual currency). Step 2 asks for what they need.
 */
export function renderBankStepPage(page: BankStepPage): string {
  const { view } = page;
  const countryError = page.errors.get("country");
  const currencyError = page.errors.get("currency");
  const select = (
    name: "country" | "currency",
    label: string,
    hint: string,
    error: string | undefined,
    options: string,
  ) => `<div class="field${error ? " has-error" : ""}">
<label for="f-${name}">${escapeHtml(label)}</label>
<p class="hint" id="f-${name}-hint">${escapeHtml(hint)}</p>
${error ? `<p class="error" id="f-${name}-error"><span class="visually-hidden">Error: </span>${escapeHtml(error)}</p>` : ""}
<select id="f-${name}" name="${name}" aria-describedby="f-${name}-hint${error ? ` f-${name}-error` : ""}"${error ? ' aria-invalid="true"' : ""} required>
<option value="">Choose…</option>
${options}
</select>
</div>`;
  const countries = countryOptions()
    .map(([code, name]) => {
      const currency = defaultCurrencyOf(code);
      return `<option value="${code}"${currency === null ? "" : ` data-currency="${currency}"`}${
        code === page.country ? " selected" : ""
      }>${escapeHtml(name)}</option>`;
    })
    .join("\n");
  const currencies = listCurrencies()
    .map(
      ([code, name]) =>
        `<option value="${code}"${code === page.currency ? " selected" : ""}>${escapeHtml(`${code} – ${name}`)}</option>`,
    )
    .join("\n");
  const title = "Where is your bank account?";
  const errors = new Map<string, string>();
  if (countryError) errors.set("country", countryError);
  if (currencyError) errors.set("currency", currencyError);
  return renderPage({
    title,
    businessName: view.branding.displayName,
    branding: brandingOf(view, page.action),
    script: true,
    body: `<p class="hint">Step 1 of 2</p>
<h1>${escapeHtml(title)}</h1>
${renderErrorSummary(
  errors,
  new Map([
    ["country", "Country of the bank"],
    ["currency", "Account currency"],
  ]),
)}
<p>${escapeHtml(`${view.branding.displayName} pays you through this service. Tell us where your account is, and the next step asks only for the details a bank there needs.`)}</p>
${expiryNotice(view)}
<form method="get" action="${escapeHtml(page.action)}" novalidate>
${select("country", "Country of the bank", "Where your bank is, not where you live.", countryError, countries)}
${select("currency", "Account currency", "The currency your account holds.", currencyError, currencies)}
<p><button type="submit">Continue</button></p>
</form>`,
  });
}

const CERTIFICATIONS: Readonly<Record<TaxForm, string>> = {
  "W-9":
    "Under penalties of perjury, I certify that the number shown is my correct taxpayer identification number, that I am not subject to backup withholding unless I have been notified otherwise, and that I am a U.S. citizen or other U.S. person.",
  "W-8BEN":
    "Under penalties of perjury, I certify that I am the beneficial owner of the income, that I am not a U.S. person, and that the information given is true, correct and complete.",
  "W-8BEN-E":
    "Under penalties of perjury, I certify that the entity named is the beneficial owner of the income, is not a U.S. person, and that I have the authority to sign for it; the information given is true, correct and complete.",
};

function taxFields(form: TaxForm): FieldSpec[] {
  const address = addressFields("address", true, "address_country").map((f) => ({
    ...f,
    name: f.name.replace("address.", "address_"),
  }));
  const head: FieldSpec[] =
    form === "W-9"
      ? [
          { name: "name", label: "Name as shown on your income tax return", required: true, autocomplete: "name" },
          {
            name: "tax_classification",
            label: "Federal tax classification",
            required: true,
            options: Object.entries(W9_CLASSIFICATIONS),
          },
          {
            name: "tin_type",
            label: "Kind of taxpayer identification number",
            required: true,
            options: [
              ["ssn", "Social security number (SSN)"],
              ["ein", "Employer identification number (EIN)"],
              ["itin", "Individual taxpayer identification number (ITIN)"],
            ],
          },
          {
            name: "tin",
            label: "Taxpayer identification number",
            required: true,
            inputmode: "numeric",
            hint: "9 digits, e.g. 123-45-6789.",
          },
        ]
      : [
          {
            name: "name",
            label: form === "W-8BEN" ? "Your full name" : "Name of the organization",
            required: true,
            autocomplete: form === "W-8BEN" ? "name" : "organization",
          },
          {
            name: "country",
            label: form === "W-8BEN" ? "Country of citizenship" : "Country of incorporation or organization",
            required: true,
            options: countryOptions(),
          },
          ...(form === "W-8BEN-E"
            ? [{ name: "entity_type", label: "Type of entity", required: true, options: Object.entries(W8BENE_ENTITY_TYPES) }]
            : [
                {
                  name: "date_of_birth",
                  label: "Date of birth",
                  required: true,
                  date: true,
                },
              ]),
          { name: "foreign_tin", label: "Foreign tax identifying number", hint: "The tax number of your country of residence." },
        ];
  const tail: FieldSpec[] =
    form === "W-9"
      ? []
      : [
          {
            name: "treaty_country",
            label: "Treaty country",
            options: countryOptions(),
            hint: "Only when claiming the benefits of an income tax treaty with the United States.",
          },
        ];
  return [
    ...head,
    ...address,
    ...tail,
    { name: "signature", label: "Signature: type your full name", required: true, autocomplete: "name" },
  ];
}

function checkbox(name: string, label: string, state: FormState): string {
  const error = state.errors.get(name);
  const id = `f-${name.replace(/[^A-Za-z0-9]+/g, "-")}`;
  return `<div class="field${error ? " has-error" : ""}">
${error ? `<p class="error" id="${id}-error"><span class="visually-hidden">Error: </span>${escapeHtml(error)}</p>` : ""}
<div class="choice"><input type="checkbox" id="${id}" name="${name}" value="yes"${state.values[name] === "yes" ? " checked" : ""}${
    error ? ` aria-invalid="true" aria-describedby="${id}-error"` : ""
  }><label for="${id}">${escapeHtml(label)}</label></div>
</div>`;
}

function renderTaxPage(page: FormPage, state: FormState): string {
  const { view } = page;
  const form = page.taxForm ?? null;
  if (form === null) {
    const foreign = view.beneficiaryType === "person" ? "W-8BEN" : "W-8BEN-E";
    return renderPage({
      title: "Tax form",
      businessName: view.branding.displayName,
      branding: brandingOf(view, page.action),
      body: `<h1>Tax form</h1>
<p>${escapeHtml(view.branding.displayName)} needs a US tax form from you before it can pay you.</p>
${expiryNotice(view)}
<form method="get" action="${escapeHtml(page.action)}">
<fieldset><legend>Are you a US person (a US citizen, US resident, or an entity organized in the US)?</legend>
<div class="choice"><input type="radio" id="f-form-w9" name="form" value="W-9" checked><label for="f-form-w9">Yes: fill in form W-9</label></div>
<div class="choice"><input type="radio" id="f-form-w8" name="form" value="${foreign}"><label for="f-form-w8">No: fill in form ${foreign}</label></div>
</fieldset>
<p><button type="submit">Continue</button></p>
</form>`,
    });
  }
  const fields = taxFields(form);
  const labels = labelsOf(fields);
  labels.set("certify", "Certification");
  const values: Record<string, string> = { ...(form === "W-9" ? { address_country: "US" } : {}), ...state.values };
  const shown: FormState = { values, errors: state.errors };
  const inner = `<input type="hidden" name="form" value="${escapeHtml(form)}">
<fieldset><legend>Form ${escapeHtml(form)}</legend>
${fields
  .slice(0, -1)
  .map((f) => renderField(f, shown))
  .join("\n")}
${form === "W-9" ? "" : checkbox("foreign_tin_not_required", "My country does not issue a tax identifying number to me (or it is not legally required)", shown)}
</fieldset>
<fieldset><legend>Certification</legend>
<p>${escapeHtml(CERTIFICATIONS[form])}</p>
${checkbox("certify", "I certify that the information above is correct", shown)}
${renderField(fields[fields.length - 1] as FieldSpec, shown)}
<p class="hint">Your typed name is your signature; it is dated the day you submit (UTC).</p>
</fieldset>`;
  return renderPage({
    title: `Form ${form}`,
    businessName: view.branding.displayName,
    branding: brandingOf(view, page.action),
    body: `<h1>Form ${escapeHtml(form)}</h1>
${renderErrorSummary(state.errors, labels)}
<p><a href="${escapeHtml(page.action)}">Choose another form</a></p>
${expiryNotice(view)}
${formShell(page.action, page.csrf, inner, "Sign and submit")}`,
  });
}

export function renderThanksPage(view: LinkView, destination: ChoosableDestination | null, action: string): string {
  const lines: string[] = [];
  if (view.scope === "tax_documents") lines.push("Your tax form was received.");
  else lines.push("Your details were received.");
  if (destination !== null) {
    lines.push(
      `Your payouts from ${view.branding.displayName} will go to the ${destination.kind === "card" ? "card" : "account"}${endingIn(destination.last4)} (${destination.currency}).`,
    );
  }
  lines.push(`If something is wrong, ask ${view.branding.displayName} for a new link. You can close this page now.`);
  return renderPage({
    title: "Thank you",
    businessName: view.branding.displayName,
    branding: brandingOf(view, action),
    body: `<h1>Thank you</h1>\n${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n")}`,
  });
}

const CLOSED_TEXT: Readonly<Record<ClosedReason, { title: string; text: (business: string) => string }>> = {
  unknown: {
    title: "This link does not work",
    text: () =>
      "Check that you opened the whole link from the message you received. If it still does not work, ask the sender for a new link.",
  },
  expired: {
    title: "This link has expired",
    text: (b) => `Links work for 7 days. Ask ${b} to send you a new one.`,
  },
  consumed: {
    title: "These details were already submitted",
    text: (b) => `This link has been used and works only once. If you need to change something, ask ${b} for a new link.`,
  },
  cancelled: {
    title: "This link was cancelled",
    text: (b) => `${b} cancelled this link. Ask ${b} for a new one if you still need to send your details.`,
  },
  superseded: {
    title: "This link was replaced by a newer one",
    text: (b) => `${b} sent you a newer link. Use the most recent message, or ask ${b} for a new link.`,
  },
  archived: {
    title: "This link is no longer active",
    text: (b) => `${b} no longer collects details with this link. Contact ${b} if you think this is a mistake.`,
  },
};

export function renderClosedPage(reason: ClosedReason, businessName: string | null): string {
  const text = CLOSED_TEXT[reason];
  return renderPage({
    title: text.title,
    businessName,
    body: `<h1>${escapeHtml(text.title)}</h1>\n<p>${escapeHtml(text.text(businessName ?? "the sender"))}</p>`,
  });
}

/** Problems that are not about a link: forged or stale form, too many requests, server failure. */
export function renderProblemPage(title: string, text: string, businessName: string | null = null): string {
  return renderPage({ title, businessName, body: `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>` });
}
