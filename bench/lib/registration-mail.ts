// Registration is two steps: POST /v1/registration e-mails a token, POST /v1/registration/verification
// turns it into the Business and its keys. A benchmark reads the token the way a person on the embedded
// default would: from the .eml file the worker wrote under DATA_DIR/mail.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The token in one message's source: quoted-printable soft line breaks undone, base64 parts decoded. */
function tokenIn(raw: string): string | null {
  const unfolded = raw.replace(/=\r?\n/g, "");
  const direct = /"token":"([A-Za-z0-9_-]{43})"/.exec(unfolded);
  if (direct?.[1] !== undefined) return direct[1];
  for (const block of raw.match(/(?:^[A-Za-z0-9+/=]{20,}\r?\n)+/gm) ?? []) {
    const decoded = Buffer.from(block.replace(/\s+/g, ""), "base64").toString("utf8");
    const match = /"token":"([A-Za-z0-9_-]{43})"/.exec(decoded);
    if (match?.[1] !== undefined) return match[1];
  }
  return null;
}

/** Waits for the registration e-mail to `email` under `dataDir/mail` and returns its token. */
export async function waitForRegistrationToken(dataDir: string, email: string, timeoutMs = 60_000): Promise<string> {
  const mailDir = path.join(dataDir, "mail");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let files: string[] = [];
    try {
      files = (await readdir(mailDir)).filter((file) => file.endsWith(".eml")).sort();
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
    }
    for (const file of files.reverse()) {
      const raw = await readFile(path.join(mailDir, file), "utf8");
      if (!new RegExp(`^To: ${email.replace(/[.+]/g, "\\$&")}$`, "mi").test(raw)) continue;
      const token = tokenIn(raw);
      if (token !== null) return token;
    }
    if (Date.now() > deadline) throw new Error(`no registration e-mail to ${email} under ${mailDir} within ${timeoutMs} ms`);
    await sleep(100);
  }
}

export interface RegistrationKeys {
  readonly businessId: string;
  readonly sandboxKey: string;
  readonly productionKey: string;
}

interface VerificationResponse {
  readonly business: { readonly id: string };
  readonly api_keys: readonly { readonly environment: string; readonly key: string }[];
}

/** POST /v1/registration, the token from the written e-mail, POST /v1/registration/verification. */
export async function registerThroughMail(
  send: (path: string, body: unknown) => Promise<{ status: number; text: string }>,
  dataDir: string,
  businessName: string,
  email: string,
): Promise<RegistrationKeys> {
  const started = await send("/v1/registration", {
    business_name: businessName,
    email,
    password: "correct horse battery staple",
  });
  if (started.status !== 202) throw new Error(`registration answered ${started.status}: ${started.text}`);
  const token = await waitForRegistrationToken(dataDir, email);
  const verified = await send("/v1/registration/verification", { token });
  if (verified.status !== 201) throw new Error(`verification answered ${verified.status}: ${verified.text}`);
  const body = JSON.parse(verified.text) as VerificationResponse;
  const keyFor = (environment: string) => {
    const key = body.api_keys.find((candidate) => candidate.environment === environment)?.key;
    if (key === undefined) throw new Error(`registration returned no ${environment} key`);
    return key;
  };
  return { businessId: body.business.id, sandboxKey: keyFor("sandbox"), productionKey: keyFor("production") };
}
