// The two registration e-mails. Both go to the address that was registered and carry a single-use token;
// which one is sent is the only difference between a new and a known address, and only the mailbox's owner
// sees it (the HTTP answer is identical). The Business name is chosen by whoever called the API, so it
// never appears in a subject, and in the body only as quoted text (escaped in HTML by renderEmail; control
// characters were refused at validation).
import { dashboardLink, renderEmail } from "../../platform/mail/templates.js";

export interface RegistrationMailInput {
  readonly businessName: string;
  readonly token: string;
  readonly publicBaseUrl: string;
  readonly ttlHours: number;
}

export interface RegistrationMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** The layout's sender line: the service itself, not a Business. */
const SERVICE_NAME = "Payout service";

/**
 * Plain-text lines stay within this width (the link's line is longer: a URL is never cut). The mailer sends the
 * text part unencoded (7bit, see plainTextPart), so the raw message, an .eml file read as text, shows the token
 * and the example command exactly as they are to be pasted.
 */
const TEXT_WIDTH = 72;

/** The link that opens the dashboard's confirmation page with the token filled in (in the URL's fragment). */
function completionLink(input: RegistrationMailInput) {
  return {
    label: "Confirm and create the Business",
    url: dashboardLink(input.publicBaseUrl, "sign-up/verify", { token: input.token }),
  };
}

/** The token itself for mail clients that break links, and the API call for those who script it. */
function completionParagraphs(input: RegistrationMailInput): string[] {
  const url = `${input.publicBaseUrl}/v1/registration/verification`;
  return [
    `If the link does not open, paste this verification token (valid for ${input.ttlHours} hours, usable once) on ${input.publicBaseUrl}/dashboard/sign-up/verify:\n\n    ${input.token}`,
    [
      "Or send it to the API, for example with curl:",
      "",
      `    curl -s -X POST ${url} \\`,
      "      -H 'content-type: application/json' \\",
      `      -d '{"token":"${input.token}"}'`,
    ].join("\n"),
    "The answer holds the new Business's sandbox and production API keys, each shown only in that answer: store them right away.",
  ];
}

/** To an address that has no account yet. */
export function renderVerificationMail(input: RegistrationMailInput): RegistrationMail {
  const body = renderEmail({
    businessName: SERVICE_NAME,
    heading: "Confirm your e-mail address",
    paragraphs: [
      `Someone, hopefully you, asked to register a Business named "${input.businessName}" at ${input.publicBaseUrl} with this e-mail address.`,
      `The link below opens the dashboard to confirm the address and create the Business; it is valid for ${input.ttlHours} hours and works once.`,
    ],
    action: completionLink(input),
    closing: [
      ...completionParagraphs(input),
      "If you did not ask for this, ignore this message: nothing is created without the token.",
    ],
    footer: "You receive this because this address was given to register a Business. We send it only once per request.",
    textWidth: TEXT_WIDTH,
  });
  return { subject: "Confirm your e-mail address to finish registering", ...body };
}

/** To an address that already has an account: a new Business is added to that account, if its owner wants it. */
export function renderExistingAccountMail(input: RegistrationMailInput): RegistrationMail {
  const body = renderEmail({
    businessName: SERVICE_NAME,
    heading: "Someone asked to register a new Business with your address",
    paragraphs: [
      `Someone asked to register a new Business named "${input.businessName}" at ${input.publicBaseUrl} with this e-mail address, which already has an account there.`,
      `If it was you, the link below adds the new Business to your existing account (valid for ${input.ttlHours} hours, works once). Your password does not change: the one given with this request is ignored.`,
    ],
    action: completionLink(input),
    closing: [
      ...completionParagraphs(input),
      "If it was not you, ignore this message: nothing changes without the token, and your account is as it was.",
    ],
    footer: "You receive this because this address was given to register a Business. We send it only once per request.",
    textWidth: TEXT_WIDTH,
  });
  return { subject: "A new Business was requested with your e-mail address", ...body };
}
