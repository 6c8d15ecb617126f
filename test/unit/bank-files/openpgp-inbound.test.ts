// An OpenPGP inbound file is opened within the inbound size limit: a compressed message of a few kilobytes that
// inflates past the limit is refused while it is being decompressed (before its signature could be checked),
// never inflated whole; the same message opens under a limit it fits.
import * as openpgp from "openpgp";
import { beforeAll, describe, expect, it } from "vitest";
import { openInbound } from "../../../src/rails/bank-files/openpgp.js";

const LIMIT = 64 * 1024;
let business: { privateKey: string; publicKey: string };
let bank: { privateKey: string; publicKey: string };
let inflating: string;
const content = `<?xml version="1.0"?><Document>${" ".repeat(4 * 1024 * 1024)}</Document>`;

beforeAll(async () => {
  const pair = (name: string) => openpgp.generateKey({ userIDs: [{ name, email: `${name}@example.com` }], format: "armored" });
  [business, bank] = await Promise.all([pair("business"), pair("bank")]);
  // Signed by the bank, encrypted to the Business, compressed: 4 MiB of text in a few kilobytes.
  inflating = await openpgp.encrypt({
    message: await openpgp.createMessage({ text: content }),
    encryptionKeys: await openpgp.readKey({ armoredKey: business.publicKey }),
    signingKeys: await openpgp.readPrivateKey({ armoredKey: bank.privateKey }),
    config: { aeadProtect: false, preferredCompressionAlgorithm: openpgp.enums.compression.zlib },
  });
});

describe("openInbound", () => {
  it("refuses a compressed file that inflates past the limit", async () => {
    expect(inflating.length).toBeLessThan(LIMIT);
    await expect(
      openInbound(inflating, { decryptionKey: business.privateKey, bankPublicKey: bank.publicKey, maxBytes: LIMIT }),
    ).rejects.toThrow(`the file decompresses to more than ${LIMIT} bytes`);
  });

  it("opens the same file under a limit it fits", async () => {
    const opened = await openInbound(inflating, {
      decryptionKey: business.privateKey,
      bankPublicKey: bank.publicKey,
      maxBytes: 8 * 1024 * 1024,
    });
    expect(opened).toBe(content);
  });
});
