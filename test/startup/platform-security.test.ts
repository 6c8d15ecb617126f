// The built service as an operator runs it, for what only a real process shows: DATA_DIR is private to the
// service user (folders 0700, files without group/other bits) whatever umask it was started with, wider modes
// left in DATA_DIR are corrected at start, and METRICS_PORT serves /metrics on its own listener while the API
// port does not. The service is the run's one build (test/helpers/service-build.ts, shared with
// startup.test.ts, never the checkout's dist/) and is started under `umask 000`, the worst an operator could leave.
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerThroughMail } from "../../bench/lib/registration-mail.js";
import { type ChildHandle, createChildTracker, waitFor } from "../fixtures/child-processes.js";
import { builtServiceMain } from "../helpers/service-build.js";
import { TEST_ENCRYPTION_KEY } from "../helpers/test-app.js";
import { createScratchPostgresDatabase, onPostgres, TEST_DATABASE_URL } from "../helpers/test-database.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
// A deadline for a condition, not a timing assertion: a first start on a fresh DATA_DIR runs initdb in a new
// process (seconds of CPU), which took close to a minute on a 2-core machine shared by a loaded test run.
const START_DEADLINE_MS = 180_000;
const METRICS_TOKEN = "platform-security-metrics-token-0123456789";

const children = createChildTracker();
const tempDirs: string[] = [];
let main = "";

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

function startService(name: string, args: readonly string[], env: Record<string, string>): ChildHandle {
  const serviceEnv = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? tmpdir(),
    LOG_LEVEL: "info",
    HOST: "127.0.0.1",
    ...env,
  };
  // `umask 000` first: files the service creates are private because it makes them so, not thanks to our umask.
  return children.spawn(name, "/bin/sh", ["-c", 'umask 000 && exec "$0" "$@"', process.execPath, main, ...args], {
    cwd: REPO_ROOT,
    env: serviceEnv,
  });
}

async function apiBase(child: ChildHandle): Promise<string> {
  const [, port] = await child.waitForOutput(/listening on 127\.0\.0\.1:(\d+)/, START_DEADLINE_MS);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    `${child.name} to become ready`,
    async () => {
      if (child.hasExited) throw new Error(`${child.name} exited:\n${child.output()}`);
      const response = await fetch(`${base}/readyz`).catch(() => null);
      return response?.status === 200 ? true : undefined;
    },
    START_DEADLINE_MS,
    () => child.output(),
  );
  return base;
}

interface Entry {
  readonly name: string;
  readonly mode: number;
  readonly kind: "dir" | "file" | "other";
}

/** Every folder and file under `root` (root included, as "."), with its permission bits. */
async function entriesUnder(root: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  const visit = async (target: string): Promise<void> => {
    const info = await lstat(target);
    const kind = info.isDirectory() ? "dir" : info.isFile() ? "file" : "other";
    entries.push({ name: path.relative(root, target) || ".", mode: info.mode & 0o777, kind });
    if (kind === "dir") for (const name of await readdir(target)) await visit(path.join(target, name));
  };
  await visit(root);
  return entries;
}

/** Entries any group or other user could read, write or enter, as `name mode` for a readable failure. */
async function widerThanPrivate(root: string): Promise<string[]> {
  return (await entriesUnder(root)).filter((entry) => (entry.mode & 0o077) !== 0).map((e) => `${e.name} ${e.mode.toString(8)}`);
}

/** What a careless copy or restore leaves: folders 0755, files 0666. */
async function widenEverything(root: string): Promise<{ folders: number; files: number }> {
  let folders = 0;
  let files = 0;
  for (const entry of await entriesUnder(root)) {
    if (entry.kind === "dir") {
      await chmod(path.join(root, entry.name), 0o755);
      folders += 1;
    } else if (entry.kind === "file") {
      await chmod(path.join(root, entry.name), 0o666);
      files += 1;
    }
  }
  return { folders, files };
}

/** Registers as a person would over HTTP (the token from the e-mail the worker writes); the sandbox key. */
async function registerOver(base: string, dataDir: string, businessName: string, email: string): Promise<string> {
  const send = async (route: string, body: unknown) => {
    const response = await fetch(`${base}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };
  return (await registerThroughMail(send, dataDir, businessName, email)).sandboxKey;
}

async function post(url: string, body: unknown, key?: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 201) throw new Error(`POST ${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

beforeAll(async () => {
  // The run's one build of the service, in a folder of its own (test/helpers/service-build.ts).
  main = await builtServiceMain();
}, 600_000); // generous: the build takes seconds, more on a loaded machine or when the other worker builds it

afterAll(async () => {
  await children.killAll();
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("DATA_DIR on the embedded database", () => {
  it("a fresh DATA_DIR holds nothing another user could read, while running and after stopping; wider modes are corrected at the next start", async () => {
    const dataDir = path.join(await tempDir("platform-security-data-"), "data");

    const first = startService("service (fresh DATA_DIR)", [], {
      DATA_DIR: dataDir,
      PORT: "0",
      METRICS_PORT: "0",
      METRICS_TOKEN,
    });
    const base = await apiBase(first);
    // Data the review found readable by anyone: names and e-mail addresses (database and WAL) and a mail file.
    const key = await registerOver(base, dataDir, "Private Data Co", "owner@private-data.example");
    const beneficiary = await post(
      `${base}/v1/beneficiaries`,
      { beneficiary_type: "person", email: "jane.payee@private-data.example", name: "Jane Payee" },
      key,
    );
    const link = await post(
      `${base}/v1/beneficiaries/${String(beneficiary.id)}/collection-requests`,
      { scope: "full_onboarding", send_email: true },
      key,
    );
    expect(link.email_sent).toBe(true);
    const mailDir = path.join(dataDir, "mail");
    await waitFor(
      "the invitation e-mail to be written",
      async () => ((await readdir(mailDir).catch(() => [])).some((name) => name.endsWith(".eml")) ? true : undefined),
      START_DEADLINE_MS,
      () => first.output(),
    );

    const running = await entriesUnder(dataDir);
    expect(running.filter((entry) => entry.name.startsWith("pgdata/") && entry.kind === "file").length).toBeGreaterThan(500);
    expect(running.map((entry) => entry.name)).toEqual(expect.arrayContaining(["encryption.key", "mail", "pgdata/pg_wal"]));
    expect(await widerThanPrivate(dataDir)).toEqual([]);
    expect(running.find((entry) => entry.name === ".")?.mode).toBe(0o700);

    // The metrics listener of the same process: /metrics there (with the token), not on the API port.
    const [, metricsPort] = await first.waitForOutput(/Metrics \(all\) listening on 127\.0\.0\.1:(\d+)/, START_DEADLINE_MS);
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('route="/v1/registration"');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(401);
    const onApiPort = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(onApiPort.status).toBe(404);
    expect(((await onApiPort.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    expect(await first.stop("SIGTERM"), first.output()).toEqual({ code: 0, signal: null });
    expect(await widerThanPrivate(dataDir)).toEqual([]);
    expect(first.output()).not.toContain("readable by other users");

    // A careless copy or restore: every folder 0755, every file 0666, and a stray file written by hand.
    await writeFile(path.join(mailDir, "restored-by-hand.eml"), "Subject: restored\n\nhello\n", { mode: 0o644 });
    const widened = await widenEverything(dataDir);
    expect((await widerThanPrivate(dataDir)).length).toBe(widened.folders + widened.files);

    const second = startService("service (restart on a widened DATA_DIR)", [], { DATA_DIR: dataDir, PORT: "0" });
    const secondBase = await apiBase(second);
    const warning = second
      .output()
      .split("\n")
      .find((line) => line.includes("DATA_DIR entries were readable by other users"));
    expect(warning, second.output()).toBeDefined();
    expect(JSON.parse(warning ?? "{}")).toMatchObject({
      level: 40,
      data_dir: dataDir,
      folders: widened.folders,
      files: widened.files,
    });
    expect(await widerThanPrivate(dataDir)).toEqual([]);
    // Same data, still working.
    const listed = await fetch(`${secondBase}/v1/api-keys`, { headers: { authorization: `Bearer ${key}` } });
    expect(listed.status).toBe(200);
    expect(await second.stop("SIGTERM"), second.output()).toEqual({ code: 0, signal: null });
    expect(await widerThanPrivate(dataDir)).toEqual([]);
  }, 600_000);
});

describe.skipIf(!onPostgres)("DATA_DIR with PostgreSQL (mail files only)", () => {
  let scratch: { url: string; drop: () => Promise<void> } | undefined;
  afterAll(async () => {
    await children.killAll();
    await scratch?.drop();
  });

  it("corrects a widened mail folder at start and writes new mail privately", async () => {
    if (TEST_DATABASE_URL === null) throw new Error("TEST_DATABASE_URL is not set");
    scratch = await createScratchPostgresDatabase(TEST_DATABASE_URL);
    const dataDir = await tempDir("platform-security-pg-data-");
    const mailDir = path.join(dataDir, "mail");
    await mkdir(mailDir);
    await writeFile(path.join(mailDir, "old.eml"), "Subject: old\n\nold\n");
    await chmod(path.join(mailDir, "old.eml"), 0o666);
    await chmod(mailDir, 0o777);
    await chmod(dataDir, 0o755);

    const service = startService("service (PostgreSQL)", [], {
      DATA_DIR: dataDir,
      DATABASE_URL: scratch.url,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      PORT: "0",
    });
    const base = await apiBase(service);
    const warning = service
      .output()
      .split("\n")
      .find((line) => line.includes("DATA_DIR entries were readable by other users"));
    expect(JSON.parse(warning ?? "{}"), service.output()).toMatchObject({ level: 40, folders: 2, files: 1 });
    expect(await widerThanPrivate(dataDir)).toEqual([]);

    // Registration's e-mail is written by the worker into the mail folder (the sandbox invitation below is
    // captured in the sandbox mailbox instead): a file the service itself creates there.
    const key = await registerOver(base, dataDir, "Private Mail Co", "owner@private-mail.example");
    const beneficiary = await post(
      `${base}/v1/beneficiaries`,
      { beneficiary_type: "person", email: "payee@private-mail.example", name: "Pat Payee" },
      key,
    );
    await post(
      `${base}/v1/beneficiaries/${String(beneficiary.id)}/collection-requests`,
      { scope: "payout_destination", send_email: true },
      key,
    );
    await waitFor(
      "the registration e-mail beside the old one",
      async () => ((await readdir(mailDir)).filter((name) => name.endsWith(".eml")).length >= 2 ? true : undefined),
      START_DEADLINE_MS,
      () => service.output(),
    );
    expect(await widerThanPrivate(dataDir)).toEqual([]);
    expect(await service.stop("SIGTERM"), service.output()).toEqual({ code: 0, signal: null });
  }, 420_000);
});
