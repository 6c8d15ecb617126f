// The one e-mail layout: a plain text body and an HTML body from the same parts. Every interpolated value
// is escaped (a Business chooses its own name, so it is attacker-controlled text), and the HTML loads
// nothing remote: no images, fonts, stylesheets or tracking pixels, inline styles only.

export interface EmailContent {
  /** Shown as the sender line of the layout; the Business the message is about. */
  readonly businessName: string;
  readonly heading: string;
  /** Plain text; a line break inside a paragraph is kept. */
  readonly paragraphs: readonly string[];
  /** A call to action rendered as a link (http or https only), e.g. an invitation link. */
  readonly action?: { readonly label: string; readonly url: string };
  /** Plain text after the action, e.g. what to do when the link does not open. */
  readonly closing?: readonly string[];
  /** Small print: why the reader gets this message. */
  readonly footer: string;
  /**
   * Wrap the plain-text body's lines at this many columns (words are never split, lines indented by four
   * spaces are left alone). A text part whose lines are all short and ASCII is sent as 7bit, so it reads as
   * is in the raw message (an .eml file opened as text) and a token on a line of its own is never cut by
   * quoted-printable soft line breaks. The HTML is unchanged.
   */
  readonly textWidth?: number;
}

export interface RenderedEmail {
  readonly text: string;
  readonly html: string;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for an HTML element body or a double- or single-quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

function escapeMultiline(value: string): string {
  return escapeHtml(value).replace(/\r\n|\r|\n/g, "<br>\n");
}

/**
 * A link into the dashboard that carries a secret (`${publicBaseUrl}/dashboard/<page>#token=…`). The values go in
 * the URL's fragment, which a browser never sends: it stays out of server and proxy logs and Referer headers,
 * and only the dashboard's own script reads it. The base is the configured PUBLIC_BASE_URL, never a request's
 * Host header, so nobody can make the service mail a link to another site.
 */
export function dashboardLink(publicBaseUrl: string, page: string, fragment: Readonly<Record<string, string>>): string {
  return `${publicBaseUrl}/dashboard/${page}#${new URLSearchParams(fragment).toString()}`;
}

function checkedActionUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("renderEmail: action.url is not a URL");
  }
  // javascript:, data: and the like would turn the link into script or content of the sender's choosing.
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error("renderEmail: action.url must be http(s)");
  return parsed.toString();
}

/**
 * Greedy word wrap of each line of `text`; a word longer than `width` keeps a line of its own. A line
 * indented by four spaces is code (a command to copy) and is never wrapped.
 */
export function wrapText(text: string, width: number): string {
  return text
    .split("\n")
    .map((line) => {
      if (line.length <= width || line.startsWith("    ")) return line;
      const indent = /^\s*/.exec(line)?.[0] ?? "";
      const lines: string[] = [];
      let current = "";
      for (const word of line.trim().split(/ +/)) {
        if (current !== "" && current.length + 1 + word.length > width) {
          lines.push(current);
          current = `${indent}${word}`;
        } else {
          current = current === "" ? `${indent}${word}` : `${current} ${word}`;
        }
      }
      lines.push(current);
      return lines.join("\n");
    })
    .join("\n");
}

export function renderEmail(content: EmailContent): RenderedEmail {
  const actionUrl = content.action ? checkedActionUrl(content.action.url) : null;
  const wrap = (text: string) => (content.textWidth === undefined ? text : wrapText(text, content.textWidth));

  const textParts = [content.businessName, "", content.heading, "=".repeat(Math.min(content.heading.length, 72)), ""];
  for (const paragraph of content.paragraphs) textParts.push(wrap(paragraph), "");
  if (content.action && actionUrl !== null) textParts.push(`${content.action.label}:`, actionUrl, "");
  for (const paragraph of content.closing ?? []) textParts.push(wrap(paragraph), "");
  // "-- " (with the space) is the conventional signature separator that mail clients recognise.
  textParts.push("-- ", wrap(content.footer), "");
  const text = textParts.join("\n");

  const font = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif";
  const paragraphHtml = (paragraph: string) =>
    `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;overflow-wrap:break-word">${escapeMultiline(paragraph)}</p>`;
  const paragraphsHtml = content.paragraphs.map(paragraphHtml).join("\n");
  const closingHtml = (content.closing ?? []).map(paragraphHtml).join("\n");
  const actionHtml =
    content.action && actionUrl !== null
      ? `<p style="margin:24px 0"><a href="${escapeHtml(actionUrl)}" style="display:inline-block;padding:10px 18px;background:#1f6feb;color:#ffffff;text-decoration:none;border-radius:6px;font-size:15px">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#57606a;overflow-wrap:anywhere">${escapeHtml(actionUrl)}</p>`
      : "";
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(content.heading)}</title>
</head>
<body style="margin:0;padding:24px 12px;background:#f6f8fa;color:#1f2328;${font}">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d0d7de;border-radius:8px;padding:24px">
<p style="margin:0 0 8px;font-size:13px;color:#57606a">${escapeHtml(content.businessName)}</p>
<h1 style="margin:0 0 20px;font-size:20px;line-height:1.3">${escapeHtml(content.heading)}</h1>
${paragraphsHtml}
${actionHtml}
${closingHtml}
<hr style="border:none;border-top:1px solid #d0d7de;margin:24px 0 16px">
<p style="margin:0;font-size:12px;line-height:1.5;color:#57606a">${escapeMultiline(content.footer)}</p>
</div>
</body>
</html>
`;
  return { text, html };
}
