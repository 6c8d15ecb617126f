// OpenPGP for bank files (optional per Business; many banks ask for it): an outgoing file is encrypted to the
// bank's public key and, when the Business stored its own private key, signed with it; an incoming file is
// decrypted with the Business's key and its signature checked against the bank's key. `openpgp` 6, with AEAD
// off (SEIPD version 1 packets with MDC): the OpenPGP implementations bank gateways run (GnuPG 2.2, Bouncy
// Castle in older versions) do not all read the AEAD packets of RFC 9580. Armored text only: files travel and
// are stored as text.
import * as openpgp from "openpgp";

/** Raised for a key that cannot be used, a message that cannot be read, or a signature that does not verify. */
export class BankPgpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BankPgpError";
  }
}

const CONFIG = { aeadProtect: false } as const;

/** The bank's public key, checked to be a public key that can encrypt; its fingerprint (upper-case hex). */
export async function readBankPublicKey(armored: string): Promise<{ fingerprint: string }> {
  let key: openpgp.Key;
  try {
    key = await openpgp.readKey({ armoredKey: armored });
  } catch (error) {
    throw new BankPgpError(`not an armored OpenPGP public key (${(error as Error).message})`);
  }
  if (key.isPrivate()) throw new BankPgpError("a private key was given where the bank's public key belongs");
  try {
    await key.getEncryptionKey();
  } catch (error) {
    throw new BankPgpError(`the key cannot encrypt (${(error as Error).message})`);
  }
  return { fingerprint: key.getFingerprint().toUpperCase() };
}

/**
 * The Business's private key, unlocked with its passphrase when it has one, as armored text to store
 * (encrypted at rest by the caller) and its fingerprint.
 */
export async function unlockPrivateKey(
  armored: string,
  passphrase: string | undefined,
): Promise<{ armored: string; fingerprint: string }> {
  let key: openpgp.PrivateKey;
  try {
    key = await openpgp.readPrivateKey({ armoredKey: armored });
  } catch (error) {
    throw new BankPgpError(`not an armored OpenPGP private key (${(error as Error).message})`);
  }
  if (!key.isDecrypted()) {
    if (passphrase === undefined) throw new BankPgpError("the private key is protected: its passphrase is needed");
    try {
      key = await openpgp.decryptKey({ privateKey: key, passphrase });
    } catch {
      throw new BankPgpError("the passphrase does not unlock the private key");
    }
  }
  try {
    await key.getSigningKey();
  } catch (error) {
    throw new BankPgpError(`the key cannot sign (${(error as Error).message})`);
  }
  return { armored: key.armor(), fingerprint: key.getFingerprint().toUpperCase() };
}

/** An outgoing file encrypted to the bank (and signed by the Business when its key is given), armored. */
export async function protectOutbound(
  content: string,
  keys: { readonly bankPublicKey: string; readonly signingKey: string | null },
): Promise<string> {
  const encryptionKeys = await openpgp.readKey({ armoredKey: keys.bankPublicKey });
  const signingKeys = keys.signingKey === null ? undefined : await openpgp.readPrivateKey({ armoredKey: keys.signingKey });
  const message = await openpgp.createMessage({ text: content });
  return openpgp.encrypt({
    message,
    encryptionKeys,
    ...(signingKeys === undefined ? {} : { signingKeys }),
    format: "armored",
    config: CONFIG,
  });
}

/**
 * An incoming armored file decrypted with the Business's key; its signature must verify against the bank's
 * public key (an unsigned or wrongly signed file is refused: anyone can encrypt to a public key). A compressed
 * message is decompressed to `maxBytes` at most (a few kilobytes can inflate to gigabytes, and the signature is
 * checked only once all of it is read): past that it is refused.
 */
export async function openInbound(
  armored: string,
  keys: { readonly decryptionKey: string; readonly bankPublicKey: string; readonly maxBytes: number },
): Promise<string> {
  let message: openpgp.Message<string>;
  try {
    message = await openpgp.readMessage({ armoredMessage: armored });
  } catch (error) {
    throw new BankPgpError(`not an armored OpenPGP message (${(error as Error).message})`);
  }
  const decryptionKeys = await openpgp.readPrivateKey({ armoredKey: keys.decryptionKey });
  const verificationKeys = await openpgp.readKey({ armoredKey: keys.bankPublicKey });
  try {
    const { data } = await openpgp.decrypt({
      message,
      decryptionKeys,
      verificationKeys,
      expectSigned: true,
      config: { ...CONFIG, maxDecompressedMessageSize: keys.maxBytes },
    });
    return data;
  } catch (error) {
    const message = (error as Error).message;
    if (/decompressed message size exceeded/i.test(message))
      throw new BankPgpError(`the file decompresses to more than ${keys.maxBytes} bytes`);
    throw new BankPgpError(`the file could not be decrypted and verified (${message})`);
  }
}
