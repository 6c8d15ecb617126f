// HTML building blocks of the hosted pages. Every interpolated value goes through escapeHtml (names and
// values come from Businesses and Beneficiaries, so they are attacker-controlled text). No script at all:
// the pages work with plain forms, and the CSP forbids scripts outright.
import { createHash } from "node:crypto";
import countries from "i18n-iso-countries";
import { escapeHtml } from "../../platform/mail/templates.js";

export { escapeHtml };

/** The one stylesheet, inline; the CSP allows exactly this text by its hash. Readable on a phone (fluid, 16px inputs). */
export const PAGE_CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f6f8fa;color:#1f2328;font:16px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif}
.wrap{max-width:40rem;margin:0 auto;padding:1rem}
header{border-bottom:1px solid #d0d7de;background:#fff}
.sender{margin:0;padding:1rem 0;font-weight:600;font-size:1.125rem}
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
input[type=text],input[type=date],input[type=tel],select{width:100%;font-size:1rem;padding:.6rem;border:2px solid #57606a;border-radius:4px;background:#fff;color:#1f2328}
input:focus,select:focus,button:focus,a:focus{outline:3px solid #fd8c00;outline-offset:1px}
.has-error input,.has-error select{border-color:#cf222e}
.error{color:#cf222e;font-weight:600;margin:0 0 .25rem}
.error-summary{border:3px solid #cf222e;border-radius:6px;padding:.75rem 1rem;margin:0 0 1.25rem}
.error-summary h2{margin-top:0}
.error-summary a{color:#cf222e}
button,.button{display:inline-block;font-size:1.05rem;font-weight:600;padding:.7rem 1.2rem;border:0;border-radius:6px;background:#1f6feb;color:#fff;text-decoration:none;cursor:pointer}
.notice{background:#ddf4ff;border-radius:6px;padding:.75rem 1rem}
footer{color:#57606a;font-size:.85rem;padding:1rem 0 2rem}
.visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

export const PAGE_CSS_HASH = `sha256-${createHash("sha256").update(PAGE_CSS, "utf8").digest("base64")}`;

export interface PageShell {
  readonly title: string;
  /** Shown as the sender at the top; null when the link is unknown (we cannot say who sent it). */
  readonly businessName: string | null;
  readonly body: string;
}

export function renderPage(page: PageShell): string {
  const sender = page.businessName === null ? "Secure form" : page.businessName;
  const title = page.businessName === null ? page.title : `${page.title} – ${page.businessName}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<header><div class="wrap"><p class="sender">${escapeHtml(sender)}</p></div></header>
<div class="wrap">
<main id="main">
${page.body}
</main>
<footer>${
    page.businessName === null
      ? "A secure form of a payout service."
      : `A secure form sent by ${escapeHtml(page.businessName)} through its payout service. Your details go only to ${escapeHtml(page.businessName)}.`
  }</footer>
</div>
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
  readonly type?: "text" | "date" | "tel";
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
