// The one upload-id derivation of a bulk payouts file, shared by the client, the CLI and the dashboard (which
// imports this file through the package's "./upload-id" export): the same file sent by any of them is the same
// upload, so its rows replay instead of paying twice. Dependency-free and browser-safe (WebCrypto only).

/** The shape of an upload id this function writes: `sha256-` and 64 lowercase hex digits. */
export const UPLOAD_ID_PATTERN = /^sha256-[0-9a-f]{64}$/;

/**
 * `sha256-<64 lowercase hex>` of the file's bytes exactly as read (no byte-order mark, newline or encoding
 * change): the upload id of a file. A string is hashed as its UTF-8 bytes.
 */
export async function computeUploadId(bytes: Uint8Array | string): Promise<string> {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  if (globalThis.crypto?.subtle === undefined) {
    throw new Error("computeUploadId needs WebCrypto's SHA-256: in a browser, a secure context (https or localhost)");
  }
  const digest = await globalThis.crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  return `sha256-${hex}`;
}
