// OpenPGP on a bank rail (optional per Business): outgoing files encrypted to the bank's key (AEAD off, SEIPD
// version 1) and signed with the Business's key; the bank's answers decrypted with the Business's key and
// accepted only with the bank's signature. The "bank" here uses openpgp directly with its own key pair.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as openpgp from "openpgp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankRailConfigs } from "../../src/modules/bank-rails/bank-rails.schema.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { bankPain002, checkBankAnswersOfThisFile } from "../helpers/test-bank.js";
import { createPayout, decide, getPayout } from "../payouts/payout-fixtures.js";
import { epcSchemaAvailable, epcSchemaErrors } from "../unit/bank-files/xsd.js";
import { localFolder, sepaConfig } from "./bank-rail-fixtures.js";

// Every pain.002 and camt.054 this file sends is checked against its ISO 20022 schema after its tests.
checkBankAnswersOfThisFile();

let t: TestApp;
let root: string;
let business: RegisteredBusiness;
let key: string;
let bankKeys: { privateKey: string; publicKey: string };
let businessKeys: { privateKey: string; publicKey: string };
let strangerKeys: { privateKey: string; publicKey: string };
const PASSPHRASE = "correct horse battery staple";
const drain = () => t.runtime.createWorker(`w-${Math.random()}`).drain();

async function keyPair(name: string, passphrase?: string) {
  const { privateKey, publicKey } = await openpgp.generateKey({
    userIDs: [{ name, email: `${name.toLowerCase().replaceAll(" ", ".")}@example.com` }],
    format: "armored",
    ...(passphrase === undefined ? {} : { passphrase }),
  });
  return { privateKey, publicKey };
}

/** What the bank does with a file it receives: decrypt with its key, require the Business's signature. */
async function bankOpens(armored: string): Promise<string> {
  const message = await openpgp.readMessage({ armoredMessage: armored });
  const { data } = await openpgp.decrypt({
    message,
    decryptionKeys: await openpgp.readPrivateKey({ armoredKey: bankKeys.privateKey }),
    verificationKeys: await openpgp.readKey({ armoredKey: businessKeys.publicKey }),
    expectSigned: true,
  });
  return data;
}

/** What the bank sends: encrypted to the Business's public key, signed with `signer` (the bank's key, or not). */
async function bankSeals(text: string, signer: { privateKey: string } | null): Promise<string> {
  return openpgp.encrypt({
    message: await openpgp.createMessage({ text }),
    encryptionKeys: await openpgp.readKey({ armoredKey: businessKeys.publicKey }),
    ...(signer === null ? {} : { signingKeys: await openpgp.readPrivateKey({ armoredKey: signer.privateKey }) }),
    config: { aeadProtect: false },
  });
}

function openpgpConfig(extra: Record<string, unknown> = {}) {
  return {
    bank_public_key: bankKeys.publicKey,
    private_key: businessKeys.privateKey,
    private_key_passphrase: PASSPHRASE,
    inbound: "decrypt_and_verify",
    ...extra,
  };
}

beforeAll(async () => {
  bankKeys = await keyPair("Test Bank");
  businessKeys = await keyPair("Acme Payouts", PASSPHRASE);
  strangerKeys = await keyPair("Someone Else");
  root = mkdtempSync(path.join(tmpdir(), "bank-rail-pgp-"));
  t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root, BANK_RAIL_POLL_INTERVAL_SECONDS: "60" } });
  business = await registerBusiness(t.app);
  key = business.keys.production;
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

const delivery = { kind: "local_directory", outbound_directory: "out", inbound_directory: "in" };

describe("OpenPGP configuration", () => {
  it("checks the keys, unlocks the private key once, stores it encrypted and never returns it", async () => {
    const notAKey = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({
        delivery,
        openpgp: openpgpConfig({ bank_public_key: "-----BEGIN PGP PUBLIC KEY BLOCK-----\nnope" }),
      }),
    });
    expect(notAKey.statusCode).toBe(400);
    expect(notAKey.json().error.details[0].field).toBe("openpgp.bank_public_key");
    const wrongPassphrase = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({ delivery, openpgp: openpgpConfig({ private_key_passphrase: "wrong" }) }),
    });
    expect(wrongPassphrase.statusCode).toBe(400);
    expect(wrongPassphrase.json().error.details[0].field).toBe("openpgp.private_key");

    const saved = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({ delivery, openpgp: openpgpConfig() }),
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const bankFingerprint = (await openpgp.readKey({ armoredKey: bankKeys.publicKey })).getFingerprint().toUpperCase();
    const ownFingerprint = (await openpgp.readKey({ armoredKey: businessKeys.publicKey })).getFingerprint().toUpperCase();
    expect(saved.json().openpgp).toEqual({
      bank_key_fingerprint: bankFingerprint,
      has_private_key: true,
      private_key_fingerprint: ownFingerprint,
      inbound: "decrypt_and_verify",
    });
    expect(saved.body).not.toContain("PRIVATE KEY");
    // At rest: the private key is only inside the encrypted secrets.
    const [row] = await t.runtime.deps.database.db.select().from(bankRailConfigs);
    expect(JSON.stringify(row?.settings)).not.toContain("PRIVATE KEY");
    expect(String(row?.secretsEncrypted)).not.toContain("PRIVATE KEY");
    // A later PUT without the private key keeps it.
    const again = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({ delivery, openpgp: { bank_public_key: bankKeys.publicKey, inbound: "decrypt_and_verify" } }),
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().openpgp).toMatchObject({ has_private_key: true, private_key_fingerprint: ownFingerprint });
  });
});

describe("OpenPGP files", () => {
  it("sends the file encrypted to the bank and signed, and applies only answers the bank signed", async () => {
    const beneficiary = await createBeneficiary(t.app, key, {
      first_name: "Ana",
      last_name: "Pérez",
      country_of_residence: "ES",
      postal_address: { line1: "Calle Mayor 5", city: "Madrid", postal_code: "28013", country: "ES" },
    });
    await registerBankAccount(t.app, key, beneficiary.id, {
      account_holder_name: "Ana Pérez",
      country: "ES",
      currency: "EUR",
      iban: "ES9121000418450200051332",
    });
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(key) });
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiary.id, amount_minor: 4_200, currency: "EUR" });
    expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
    await drain();
    t.clock.set(new Date("2026-05-27T13:00:00.000Z"));
    await drain();

    const [name] = readdirSync(localFolder(root, business.businessId, "out"));
    expect(name).toMatch(/^sepa-.*Z\.xml\.pgp$/);
    const armored = readFileSync(path.join(localFolder(root, business.businessId, "out"), String(name)), "utf8");
    expect(armored.startsWith("-----BEGIN PGP MESSAGE-----")).toBe(true);
    // AEAD off: the encrypted data is a version 1 SEIPD packet (with MDC), which every bank's OpenPGP reads.
    const packets = (await openpgp.readMessage({ armoredMessage: armored })).packets;
    const encrypted = [...packets].filter((p) => p instanceof openpgp.SymEncryptedIntegrityProtectedDataPacket);
    expect(encrypted).toHaveLength(1);
    expect((encrypted[0] as unknown as { version: number }).version).toBe(1);
    expect([...packets].some((p) => p instanceof openpgp.AEADEncryptedDataPacket)).toBe(false);
    const xml = await bankOpens(armored);
    expect(xml).toContain(`<EndToEndId>${payout.payout_id.replaceAll("-", "")}</EndToEndId>`);
    if (epcSchemaAvailable()) expect(await epcSchemaErrors(xml)).toEqual([]);
    // The content endpoint shows the bytes sent: the encrypted file.
    const [file] = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
    const content = await t.app.inject({ method: "GET", url: `/v1/bank-files/${file.id}/content`, headers: bearer(key) });
    expect(content.body).toBe(armored);

    const messageId = /<MsgId>([^<]+)</.exec(xml)?.[1] ?? "";
    const accepted = bankPain002({ messageId: "STS-1", originalMessageId: messageId, groupStatus: "ACCP" });
    mkdirSync(localFolder(root, business.businessId, "in"), { recursive: true });
    // Signed by someone else, and not signed at all: refused, nothing applied.
    writeFileSync(
      path.join(localFolder(root, business.businessId, "in"), "forged.xml.pgp"),
      await bankSeals(accepted, strangerKeys),
    );
    writeFileSync(path.join(localFolder(root, business.businessId, "in"), "unsigned.xml.pgp"), await bankSeals(accepted, null));
    t.clock.advance(61_000);
    await drain();
    await drain();
    expect(await getPayout(t.app, key, payout.payout_id)).toMatchObject({ status: "approved" });
    expect(
      (await t.app.inject({ method: "GET", url: `/v1/bank-files/${file.id}`, headers: bearer(key) })).json().bank_file,
    ).toMatchObject({ status: "uploaded", acknowledged_at: null });
    // Signed by the bank: applied.
    writeFileSync(path.join(localFolder(root, business.businessId, "in"), "status.xml.pgp"), await bankSeals(accepted, bankKeys));
    t.clock.advance(61_000);
    await drain();
    await drain();
    expect(
      (await t.app.inject({ method: "GET", url: `/v1/bank-files/${file.id}`, headers: bearer(key) })).json().bank_file,
    ).toMatchObject({ status: "accepted" });
    expect(t.logLines.join("")).toMatch(/forged\.xml\.pgp[\s\S]*could not be decrypted and verified/);
  }, 60_000);
});
