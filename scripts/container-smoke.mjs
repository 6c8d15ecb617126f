// What an operator does first with a freshly started container, through its published port only:
// register a Business (the token comes from the .eml the worker wrote under the mounted DATA_DIR), make a
// Beneficiary payable, create a payout (and replay it), approve it, and wait until the worker has disbursed it.
//   usage: node scripts/container-smoke.mjs <base-url> <host-folder-mounted-as-the-worker's-DATA_DIR>
// Plain Node (fetch, fs): it runs without the project's dependencies installed.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

const [baseUrl, dataDir] = process.argv.slice(2);
if (baseUrl === undefined || dataDir === undefined) {
  console.error("usage: node scripts/container-smoke.mjs <base-url> <data-dir>");
  process.exit(2);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const unique = `${process.pid}-${Date.now().toString(36)}`;

async function call(method, url, { key, body, headers = {} } = {}) {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

async function expectStatus(label, expected, promise) {
  const response = await promise;
  if (!expected.includes(response.status)) {
    throw new Error(`${label}: expected ${expected.join(" or ")}, got ${response.status}: ${response.text}`);
  }
  return response;
}

/** The token in one message: quoted-printable soft line breaks undone, base64 parts decoded. */
function tokenIn(raw) {
  const pattern = /"token":"([A-Za-z0-9_-]{43})"/;
  const direct = pattern.exec(raw.replace(/=\r?\n/g, ""));
  if (direct) return direct[1];
  for (const block of raw.match(/(?:^[A-Za-z0-9+/=]{20,}\r?\n)+/gm) ?? []) {
    const decoded = pattern.exec(Buffer.from(block.replace(/\s+/g, ""), "base64").toString("utf8"));
    if (decoded) return decoded[1];
  }
  return null;
}

async function registrationToken(email, timeoutMs = 60_000) {
  const mailDir = path.join(dataDir, "mail");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = await readdir(mailDir).catch((error) => (error.code === "ENOENT" ? [] : Promise.reject(error)));
    for (const file of files.filter((name) => name.endsWith(".eml"))) {
      const raw = await readFile(path.join(mailDir, file), "utf8");
      if (!raw.includes(email)) continue;
      const token = tokenIn(raw);
      if (token !== null) return token;
    }
    if (Date.now() > deadline) throw new Error(`no registration e-mail to ${email} under ${mailDir} within ${timeoutMs} ms`);
    await sleep(200);
  }
}

const email = `ops-${unique}@example.com`;
await expectStatus(
  "registration",
  [202],
  call("POST", "/v1/registration", {
    body: { business_name: `Container Smoke ${unique}`, email, password: "correct horse battery staple" },
  }),
);
const token = await registrationToken(email);
const verified = await expectStatus("verification", [201], call("POST", "/v1/registration/verification", { body: { token } }));
const key = verified.json().api_keys.find((candidate) => candidate.environment === "sandbox")?.key;
if (typeof key !== "string") throw new Error(`verification returned no sandbox key: ${verified.text}`);
console.log(`registered business ${verified.json().business.id}`);

const beneficiary = await expectStatus(
  "beneficiary",
  [201],
  call("POST", "/v1/beneficiaries", {
    key,
    body: {
      beneficiary_type: "person",
      email: `payee-${unique}@example.com`,
      name: "Jane Doe",
      first_name: "Jane",
      last_name: "Doe",
      country_of_residence: "DE",
    },
  }),
);
const beneficiaryId = beneficiary.json().id;
await expectStatus(
  "bank account",
  [200, 201],
  call("POST", `/v1/beneficiaries/${beneficiaryId}/bank-accounts`, {
    key,
    body: { account_holder_name: "Jane Doe", country: "DE", currency: "EUR", iban: "DE89370400440532013000" },
  }),
);
await expectStatus("acknowledge", [200], call("POST", `/v1/beneficiaries/${beneficiaryId}/acknowledge`, { key }));

const payoutBody = { beneficiary_id: beneficiaryId, amount_minor: 1234, currency: "EUR", idempotency_key: `smoke-${unique}` };
const created = await expectStatus("payout", [201], call("POST", "/v1/payouts", { key, body: payoutBody }));
const payoutId = created.json().payout_id;
// The same request again is a replay of the first answer, not a second payout.
const replay = await expectStatus("payout replay", [200], call("POST", "/v1/payouts", { key, body: payoutBody }));
if (replay.json().payout_id !== payoutId || replay.headers.get("idempotent-replayed") !== "true") {
  throw new Error(`the replay did not return the original payout: ${replay.text}`);
}
console.log(`created payout ${payoutId} (${created.json().status})`);

await expectStatus("approve", [201], call("POST", `/v1/payouts/${payoutId}/approve`, { key }));
const deadline = Date.now() + 60_000;
let status = "";
while (status !== "disbursed") {
  const read = await expectStatus("payout read", [200], call("GET", `/v1/payouts/${payoutId}`, { key }));
  status = read.json().status;
  if (["failed", "rejected", "canceled", "returned"].includes(status)) throw new Error(`payout ended ${status}: ${read.text}`);
  if (status === "disbursed") break;
  if (Date.now() > deadline) throw new Error(`payout still ${status} after 60 s`);
  await sleep(250);
}
console.log(`payout ${payoutId} disbursed`);
