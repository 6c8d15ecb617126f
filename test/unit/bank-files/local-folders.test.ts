// Local bank folders (BANK_RAIL_LOCAL_ROOT) never follow a symbolic link below the root: one planted at any
// level of the path (the Business's folder, its environment folder, an intermediate folder, the outbound or
// inbound folder, the file itself, the `.part` temporary file) is refused for reading and writing, and the file
// it points to outside the root is neither read nor written. Each Business's folders are its own.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  describeDeliveryFailure,
  localFolderSegments,
  openLocalTarget,
} from "../../../src/modules/bank-rails/bank-rails.delivery.js";

const BUSINESS = { businessId: "0190a1b2-0000-7000-8000-00000000000a", environment: "production" };
const OTHER = { businessId: "0190a1b2-0000-7000-8000-00000000000b", environment: "production" };
const NAME = "sepa-000000000000-20260527T1300Z.xml";

let scratch: string;
let root: string;
let outside: string;

beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "bank-folders-"));
  root = path.join(scratch, "root");
  outside = path.join(scratch, "outside");
  mkdirSync(root);
  mkdirSync(outside);
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** The real directory (under the root) of a Business's configured directory. */
const folder = (tenant: typeof BUSINESS, directory: string) => path.join(root, ...localFolderSegments(tenant, directory));

/** What a failed operation shows the Business (or null when it did not fail). */
async function shownFailure(operation: Promise<unknown>): Promise<string | null> {
  try {
    await operation;
    return null;
  } catch (error) {
    return describeDeliveryFailure(error).shown;
  }
}

describe("each Business has its own folder under the root", () => {
  it("puts two Businesses' files with the same configured folder in two different places", async () => {
    await openLocalTarget(root, BUSINESS, "sepa/out", "sepa/in").put(NAME, "first business");
    await openLocalTarget(root, OTHER, "sepa/out", "sepa/in").put(NAME, "second business");
    expect(readFileSync(path.join(folder(BUSINESS, "sepa/out"), NAME), "utf8")).toBe("first business");
    expect(readFileSync(path.join(folder(OTHER, "sepa/out"), NAME), "utf8")).toBe("second business");
    expect(readdirSync(root).sort()).toEqual([BUSINESS.businessId, OTHER.businessId].sort());
    // And one never sees the other's answers.
    mkdirSync(folder(BUSINESS, "sepa/in"), { recursive: true });
    writeFileSync(path.join(folder(BUSINESS, "sepa/in"), "status.xml"), "for the first business");
    expect(await openLocalTarget(root, OTHER, "sepa/out", "sepa/in").listInbound()).toEqual([]);
    const listed = await openLocalTarget(root, BUSINESS, "sepa/out", "sepa/in").listInbound();
    expect(listed.map((entry) => entry.name)).toEqual(["status.xml"]);
  });
});

describe("a symbolic link below the root is never followed", () => {
  // Each level of `<root>/<business>/<environment>/sepa/out`: replaced by a link to a directory outside.
  const levels: Array<{ name: string; at: () => string }> = [
    { name: "the Business's folder", at: () => path.join(root, BUSINESS.businessId) },
    { name: "the environment folder", at: () => path.join(root, BUSINESS.businessId, "production") },
    { name: "an intermediate folder of the configured path", at: () => folder(BUSINESS, "sepa") },
    { name: "the outbound folder itself", at: () => folder(BUSINESS, "sepa/out") },
  ];

  for (const level of levels) {
    it(`refuses to write through a link at ${level.name}`, async () => {
      mkdirSync(path.dirname(level.at()), { recursive: true });
      symlinkSync(outside, level.at());
      const shown = await shownFailure(openLocalTarget(root, BUSINESS, "sepa/out", "sepa/in").put(NAME, "payment file"));
      expect(shown).toMatch(/symbolic link/);
      expect(shown).not.toContain(scratch); // no path of the operator's disk
      expect(readdirSync(outside, { recursive: true })).toEqual([]);
    });

    it(`refuses to read or list through a link at ${level.name}`, async () => {
      // The same level on the inbound side (`…/sepa/in` instead of `…/sepa/out` for the last one).
      const at = level.at().replace(/out$/, "in");
      mkdirSync(path.dirname(at), { recursive: true });
      writeFileSync(path.join(outside, "status.xml"), "a file outside the root");
      symlinkSync(outside, at);
      const target = openLocalTarget(root, BUSINESS, "sepa/out", "sepa/in");
      expect(await shownFailure(target.listInbound())).toMatch(/symbolic link/);
      expect(await shownFailure(target.readInbound("status.xml", 1024))).toMatch(/symbolic link/);
      // Looking for an already delivered file through a link is refused too, not taken for "absent".
      const outAt = level.at();
      if (outAt !== at) {
        mkdirSync(path.dirname(outAt), { recursive: true });
        symlinkSync(outside, outAt);
      }
      expect(await shownFailure(target.existing("status.xml"))).toMatch(/symbolic link/);
    });
  }

  it("refuses to read an inbound file that is a link, and does not list it", async () => {
    const inbound = folder(BUSINESS, "sepa/in");
    mkdirSync(inbound, { recursive: true });
    writeFileSync(path.join(outside, "secret.txt"), "outside the root");
    symlinkSync(path.join(outside, "secret.txt"), path.join(inbound, "status.xml"));
    writeFileSync(path.join(inbound, "real.xml"), "a real answer");
    const target = openLocalTarget(root, BUSINESS, "sepa/out", "sepa/in");
    expect((await target.listInbound()).map((entry) => entry.name)).toEqual(["real.xml"]);
    expect(await shownFailure(target.readInbound("status.xml", 1024))).toMatch(/symbolic link/);
    expect((await target.readInbound("real.xml", 1024)).toString("utf8")).toBe("a real answer");
  });

  it("refuses a delivered file that is a link (neither read as the delivered file nor replaced through)", async () => {
    const outbound = folder(BUSINESS, "sepa/out");
    mkdirSync(outbound, { recursive: true });
    writeFileSync(path.join(outside, "victim.txt"), "must stay");
    symlinkSync(path.join(outside, "victim.txt"), path.join(outbound, NAME));
    const target = openLocalTarget(root, BUSINESS, "sepa/out", "sepa/in");
    expect(await shownFailure(target.existing(NAME))).toMatch(/symbolic link/);
    expect(await shownFailure(target.put(NAME, "payment file"))).toMatch(/symbolic link/);
    expect(readFileSync(path.join(outside, "victim.txt"), "utf8")).toBe("must stay");
  });

  it("refuses a planted `.part` link and leaves the file it points to untouched", async () => {
    const outbound = folder(BUSINESS, "sepa/out");
    mkdirSync(outbound, { recursive: true });
    writeFileSync(path.join(outside, "victim.txt"), "must stay");
    symlinkSync(path.join(outside, "victim.txt"), path.join(outbound, `.${NAME}.part`));
    const shown = await shownFailure(openLocalTarget(root, BUSINESS, "sepa/out", "sepa/in").put(NAME, "payment file"));
    expect(shown).toMatch(/symbolic link/);
    expect(readFileSync(path.join(outside, "victim.txt"), "utf8")).toBe("must stay");
    expect(readdirSync(outbound)).toEqual([`.${NAME}.part`]); // nothing delivered
  });

  it("replaces a leftover `.part` regular file of a crashed attempt and delivers", async () => {
    const outbound = folder(BUSINESS, "sepa/out");
    mkdirSync(outbound, { recursive: true });
    writeFileSync(path.join(outbound, `.${NAME}.part`), "half a file");
    await openLocalTarget(root, BUSINESS, "sepa/out", "sepa/in").put(NAME, "payment file");
    expect(readdirSync(outbound)).toEqual([NAME]);
    expect(readFileSync(path.join(outbound, NAME), "utf8")).toBe("payment file");
  });
});
