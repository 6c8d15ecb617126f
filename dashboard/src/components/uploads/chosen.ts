import type { ParsedFile } from "../../lib/csv";

/** The file a person chose: its name, its upload id (the SHA-256 of its bytes) and its parsed rows. */
export interface Chosen {
  readonly name: string;
  readonly uploadId: string;
  readonly file: ParsedFile;
}
