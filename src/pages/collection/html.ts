// HTML building blocks of the hosted pages. Every interpolated value goes through escapeHtml (names and
// values come from Businesses and Beneficiaries, so they are attacker-controlled text). The pages work with
// plain forms; the one script (STEP_SCRIPT, allowed by its hash) only pre-selects a currency on step 1.
import { createHash } from "node:crypto";
import countries from "i18n-iso-countries";
import { escapeHtml } from "../../platform/mail/templates.js";

export { escapeHtml };

/** The one stylesheet, inline; the CSP allows exactly this text by its hash. Readable on a phone (fluid, 16px inputs). */
export const PAGE_CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f6f8fa;color:#1f2328;font:16px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif}
.wrap{max-width:40rem;margin:0 auto;padding:1rem}
header{border-top:6px solid var(--brand,#1f6feb);border-bottom:1px solid #d0d7de;background:#fff}
.sender{margin:0;padding:1rem 0;font-weight:600;font-size:1.125rem;display:flex;align-items:center;gap:.75rem}
.sender img{max-height:40px;max-width:160px;width:auto;height:auto}
fieldset.date{border:0;padding:0;margin:0 0 1rem;min-width:0}
fieldset.date legend{padding:0;margin-bottom:.25rem}
.dob{display:flex;gap:.5rem}
.dob .part{flex:0 0 3.5rem}
.dob .part.year{flex:0 0 4.5rem}
.dob .part.month{flex:1 1 6.5rem;min-width:0}
.dob label{font-weight:400}
.chosen{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap;align-items:baseline;margin:0 0 1rem}
.chosen a{color:#0550ae}
main{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:1.25rem;margin-top:1rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
fieldset{border:1px solid #d0d7de;border-radius:6px;margin:0 0 1.25rem;padding:.75rem 1rem}
legend{font-weight:600;padding:0 .25rem}
.field{margin:0 0 1rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
.choice label{display:inline;font-weight:400}
.choice{margin:.5rem 0;display:flex;gap:.5rem;align-items:flex-start}
.choice input{margin-top:.35rem;width:1.25rem;height:1.25rem;flex:none}
.opt,.hint{font-weight:400;color:#57606a}
.hint{margin:0 0 .25rem;font-size:.9rem}
input[type=text],input[type=tel],select{width:100%;font-size:1rem;padding:.6rem;border:2px solid #57606a;border-radius:4px;background:#fff;color:#1f2328}
input:focus,select:focus,button:focus,a:focus{outline:3px solid #fd8c00;outline-offset:1px}
.has-error input,.has-error select{border-color:#cf222e}
.error{color:#cf222e;font-weight:600;margin:0 0 .25rem}
.error-summary{border:3px solid #cf222e;border-radius:6px;padding:.75rem 1rem;margin:0 0 1.25rem}
.error-summary h2{margin-top:0}
.error-summary a{color:#cf222e}
button,.button{display:inline-block;font-size:1.05rem;font-weight:600;padding:.7rem 1.2rem;border:0;border-radius:6px;background:var(--brand,#1f6feb);color:#fff;text-decoration:none;cursor:pointer}
.notice{background:#ddf4ff;border-radius:6px;padding:.75rem 1rem}
footer{color:#57606a;font-size:.85rem;padding:1rem 0 2rem}
.visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

export const PAGE_CSS_HASH = `sha256-${createHash("sha256").update(PAGE_CSS, "utf8").digest("base64")}`;

/**
 * The brand colour as its own stylesheet (one custom property). The value is a checked `#rrggbb`, so it
 * cannot close the rule; the CSP allows this text by its hash, added per response (`brandStyleHash`).
 */
export function brandStyle(color: string): string {
  if (!/^#[0-9a-f]{6}$/i.test(color)) throw new Error("brand colour not checked");
  return `:root{--brand:${color}}`;
}

export function brandStyleHash(color: string): string {
  return `sha256-${createHash("sha256").update(brandStyle(color), "utf8").digest("base64")}`;
}

/**
 * Step 1's enhancement: choosing a country pre-selects its usual currency (each country option names it in
 * data-currency). Without it the form works the same; the payee picks the currency by hand.
 */
export const STEP_SCRIPT = `document.getElementById("f-country").addEventListener("change",function(e){var o=e.target.selectedOptions[0];var c=o&&o.getAttribute("data-currency");if(c){document.getElementById("f-currency").value=c;}});`;

export const STEP_SCRIPT_HASH = `sha256-${createHash("sha256").update(STEP_SCRIPT, "utf8").digest("base64")}`;

export interface PageBranding {
  readonly color: string | null;
  /** Same-origin URL of the Business's uploaded logo, or null. */
  readonly logoUrl: string | null;
}

export interface PageShell {
  readonly title: string;
  /** Shown as the sender at the top; null when the link is unknown (we cannot say who sent it). */
  readonly businessName: string | null;
  readonly body: string;
  readonly branding?: PageBranding;
  /** Adds STEP_SCRIPT at the end of the body. */
  readonly script?: boolean;
}

export function renderPage(page: PageShell): string {
  const sender = page.businessName === null ? "Secure form" : page.businessName;
  const color = page.branding?.color ?? null;
  const logo = page.branding?.logoUrl ?? null;
  const title = page.businessName === null ? page.title : `${page.title} – ${page.businessName}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<style>${PAGE_CSS}</style>${color === null ? "" : `\n<style>${brandStyle(color)}</style>`}
</head>
<body>
<header><div class="wrap"><p class="sender">${logo === null ? "" : `<img src="${escapeHtml(logo)}" alt="">`}<span>${escapeHtml(sender)}</span></p></div></header>
<div class="wrap">
<main id="main">
${page.body}
</main>
<footer>${
    page.businessName === null
      ? "A secure form of a payout service."
      : `A secure form sent by ${escapeHtml(page.businessName)} through its payout service. Your details go only to ${escapeHtml(page.businessName)}.`
  }</footer>
</div>${page.script === true ? `\n<script>${STEP_SCRIPT}</script>` : ""}
</body>
</html>
`;
}

/** id attribute of a form field (names may hold dots: bank.iban, postal_address.city). */
export function fieldId(name: string): string {
  return `f-${name.replace(/[^A-Za-z0-9]+/g, "-")}`;
}

export interface FieldSpec {
  readonly name: string;
  readonly label: string;
  readonly required?: boolean;
  /** Needed only in some case the page explains (e.g. a new bank account): no "(optional)" mark, no `required`. */
  readonly conditional?: boolean;
  readonly hint?: string;
  readonly type?: "text" | "tel";
  /** A date asked as day, month and year (renderDateField). */
  readonly date?: boolean;
  readonly autocomplete?: string;
  readonly inputmode?: "numeric" | "text";
  /** A select instead of an input: [value, label] pairs. */
  readonly options?: ReadonlyArray<readonly [string, string]>;
}

export interface FormState {
  readonly values: Readonly<Record<string, string>>;
  readonly errors: ReadonlyMap<string, string>;
}

/** One labelled field; its hint and error are tied to it with aria-describedby. */
export function renderField(spec: FieldSpec, state: FormState): string {
  if (spec.date === true) {
    return renderDateField(
      {
        name: spec.name,
        label: spec.label,
        ...(spec.required === true || spec.conditional === true ? { required: true } : {}),
        ...(spec.hint === undefined ? {} : { hint: spec.hint }),
        autocomplete: spec.autocomplete === "bday",
      },
      state,
    );
  }
  const id = fieldId(spec.name);
  const error = state.errors.get(spec.name);
  const value = state.values[spec.name] ?? "";
  const described = [spec.hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter((x) => x !== null).join(" ");
  const common = `id="${id}" name="${escapeHtml(spec.name)}"${described ? ` aria-describedby="${described}"` : ""}${
    error ? ' aria-invalid="true"' : ""
  }${spec.required ? " required" : ""}${spec.autocomplete ? ` autocomplete="${spec.autocomplete}"` : ""}`;
  const control = spec.options
    ? `<select ${common}>${[["", "Choose…"] as const, ...spec.options]
        .map(
          ([optionValue, optionLabel]) =>
            `<option value="${escapeHtml(optionValue)}"${optionValue === value ? " selected" : ""}>${escapeHtml(optionLabel)}</option>`,
        )
        .join("")}</select>`
    : `<input ${common} type="${spec.type ?? "text"}" value="${escapeHtml(value)}"${
        spec.inputmode ? ` inputmode="${spec.inputmode}"` : ""
      } spellcheck="false">`;
  return `<div class="field${error ? " has-error" : ""}">
<label for="${id}">${escapeHtml(spec.label)}${spec.required || spec.conditional ? "" : ' <span class="opt">(optional)</span>'}</label>
${spec.hint ? `<p class="hint" id="${id}-hint">${escapeHtml(spec.hint)}</p>` : ""}
${error ? `<p class="error" id="${id}-error"><span class="visually-hidden">Error: </span>${escapeHtml(error)}</p>` : ""}
${control}
</div>`;
}

/** A list of the problems at the top of the form, each linking to its field; focused first for screen readers. */
export function renderErrorSummary(errors: ReadonlyMap<string, string>, labels: ReadonlyMap<string, string>): string {
  if (errors.size === 0) return "";
  const items = [...errors]
    .map(([name, message]) => {
      const label = labels.get(name);
      return `<li><a href="#${fieldId(name)}">${escapeHtml(label ? `${label}: ${message}` : message)}</a></li>`;
    })
    .join("\n");
  return `<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus>
<h2 id="error-summary-title">There is a problem</h2>
<ul>
${items}
</ul>
</div>`;
}

let countryOptionsCache: ReadonlyArray<readonly [string, string]> | null = null;

/** Every ISO 3166-1 alpha-2 country, by English name. */
export function countryOptions(): ReadonlyArray<readonly [string, string]> {
  if (countryOptionsCache === null) {
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    countryOptionsCache = Object.keys(countries.getAlpha2Codes())
      .map((code) => [code, names.of(code) ?? code] as const)
      .sort((a, b) => a[1].localeCompare(b[1], "en"));
  }
  return countryOptionsCache;
}

export function countryName(code: string): string {
  return new Intl.DisplayNames(["en"], { type: "region" }).of(code) ?? code;
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/**
 * A date as three fields (day, month by name, year), the way GOV.UK and Wise ask for a birth date: no
 * browser date picker whose display format follows the browser's locale while our hint says another.
 * Posted as `<name>.day`, `<name>.month`, `<name>.year` (form.ts joins them into `YYYY-MM-DD`); the value
 * shown comes from `<name>` (stored, `YYYY-MM-DD`) or from the parts just posted. Errors name `<name>`.
 */
export function renderDateField(
  spec: { name: string; label: string; required?: boolean; hint?: string; autocomplete?: boolean },
  state: FormState,
): string {
  const id = fieldId(spec.name);
  const error = state.errors.get(spec.name);
  const stored = /^(\d{4})-(\d{2})-(\d{2})$/.exec(state.values[spec.name] ?? "");
  const part = (which: "day" | "month" | "year", fromStored: string | undefined) =>
    state.values[`${spec.name}.${which}`] ?? fromStored ?? "";
  const day = part("day", stored?.[3] === undefined ? undefined : String(Number(stored[3])));
  const month = part("month", stored?.[2] === undefined ? undefined : String(Number(stored[2])));
  const year = part("year", stored?.[1]);
  const hint = spec.hint ?? "For example 31 March 1990.";
  const described = [`${id}-hint`, error ? `${id}-error` : null].filter((x) => x !== null).join(" ");
  const aria = ` aria-describedby="${described}"${error ? ' aria-invalid="true"' : ""}`;
  const auto = (what: string) => (spec.autocomplete ? ` autocomplete="bday-${what}"` : "");
  return `<fieldset class="date${error ? " has-error" : ""}" role="group" aria-describedby="${described}">
<legend>${escapeHtml(spec.label)}${spec.required ? "" : ' <span class="opt">(optional)</span>'}</legend>
<p class="hint" id="${id}-hint">${escapeHtml(hint)}</p>
${error ? `<p class="error" id="${id}-error"><span class="visually-hidden">Error: </span>${escapeHtml(error)}</p>` : ""}
<div class="dob">
<div class="part"><label for="${id}">Day</label><input id="${id}" name="${escapeHtml(spec.name)}.day" type="text" inputmode="numeric" maxlength="2" value="${escapeHtml(day)}"${aria}${auto("day")}></div>
<div class="part month"><label for="${id}-month">Month</label><select id="${id}-month" name="${escapeHtml(spec.name)}.month"${aria}${auto("month")}><option value="">Choose…</option>${MONTHS.map(
    (label, index) => `<option value="${index + 1}"${String(index + 1) === month ? " selected" : ""}>${label}</option>`,
  ).join("")}</select></div>
<div class="part year"><label for="${id}-year">Year</label><input id="${id}-year" name="${escapeHtml(spec.name)}.year" type="text" inputmode="numeric" maxlength="4" value="${escapeHtml(year)}"${aria}${auto("year")}></div>
</div>
</fieldset>`;
}
