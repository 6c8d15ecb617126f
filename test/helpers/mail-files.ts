// The embedded default's mailbox: the .eml files the worker writes under DATA_DIR/mail when no SMTP_URL is set.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseMime, partOfType } from "../mail/smtp-sink.js";

export interface WrittenMail {
  readonly file: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly raw: string;
}

/** Every message written under `dataDir/mail`, in file-name (time) order; none when nothing was written yet. */
export async function readWrittenMail(dataDir: string): Promise<WrittenMail[]> {
  const mailDir = path.join(dataDir, "mail");
  let files: string[];
  try {
    files = (await readdir(mailDir)).filter((file) => file.endsWith(".eml")).sort();
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return [];
    throw error;
  }
  return Promise.all(
    files.map(async (file) => {
      const raw = await readFile(path.join(mailDir, file), "utf8");
      const mime = parseMime(raw);
      return {
        file,
        to: mime.headers.to ?? "",
        subject: mime.headers.subject ?? "",
        text: partOfType(mime, "text/plain")?.body ?? "",
        html: partOfType(mime, "text/html")?.body ?? "",
        raw,
      };
    }),
  );
}

/** A fresh DATA_DIR for a test app whose mail goes to files, and its removal. */
export async function tempDataDir(prefix = "payouts-mail-"): Promise<{ path: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { path: dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
