// One database code path, two engines: PGlite (real PostgreSQL compiled to WASM, in-process) persisted
// under DATA_DIR by default, or a PostgreSQL server through a pg pool when DATABASE_URL is set.
// Both are handed to the rest of the code as the same Drizzle `Db` type, so queries cannot diverge. A transaction
// is a distinct type, `Tx`, that only `transaction(db, fn)` makes: a function that must run inside a transaction
// takes a `Tx`, and the compiler refuses the outer handle there (on PGlite, which has one connection, a query on the
// outer handle inside a transaction waits for that transaction forever).
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { type PgDatabase, PgDialect, type PgQueryResultHKT, type PgTransactionConfig } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";

/** Drizzle's handle, with no schema attached: nothing uses the relational query API. */
type DrizzleDb = PgDatabase<PgQueryResultHKT>;

/**
 * A database handle: the outer one, or an open transaction (a `Tx` is also a `Db`). It has no `transaction`
 * method: transactions are opened by `transaction(db, fn)`, the one place a `Tx` comes from.
 */
export type Db = Omit<DrizzleDb, "transaction">;

declare const inTransaction: unique symbol;
/**
 * An open transaction, made only by `transaction(db, fn)`. The outer `Db` is not a `Tx`, so a function that
 * takes a `Tx` (one that locks rows, or writes what must commit together with its events and jobs) cannot be
 * handed the outer handle by mistake.
 */
export type Tx = Db & { readonly [inTransaction]: true };

/**
 * Runs `fn` in one transaction on `db` (a savepoint when `db` is already a transaction); commits when it resolves,
 * rolls back when it throws. On PostgreSQL the transaction is ours: it holds one pool client, so the statements of
 * `namedQueryRows` run on that client through pg's public API; on PGlite it is Drizzle's.
 */
export function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T> {
  const pool = poolOfHandle.get(db);
  if (pool !== undefined) return transactionOnPool(pool, fn, config);
  const open = openTransactions.get(db);
  if (open !== undefined) return savepoint(db as Tx, open, fn);
  return (db as DrizzleDb).transaction((tx) => fn(tx as unknown as Tx), config);
}

/** The pool behind a PostgreSQL database's outer handle. */
const poolOfHandle = new WeakMap<object, pg.Pool>();
/** The client an open PostgreSQL transaction holds, and how many savepoints are open inside it. */
const openTransactions = new WeakMap<object, { readonly client: pg.PoolClient; savepoints: number }>();
/** One Drizzle handle per pooled connection, reused by every transaction on it (its prepared queries too). */
const handleOfClient = new WeakMap<pg.PoolClient, DrizzleDb>();

function beginStatement(config: PgTransactionConfig | undefined): string {
  let statement = "begin";
  if (config?.isolationLevel !== undefined) statement += ` isolation level ${config.isolationLevel}`;
  if (config?.accessMode !== undefined) statement += ` ${config.accessMode}`;
  if (config?.deferrable !== undefined) statement += config.deferrable ? " deferrable" : " not deferrable";
  return statement;
}

async function transactionOnPool<T>(
  pool: pg.Pool,
  fn: (tx: Tx) => Promise<T>,
  config: PgTransactionConfig | undefined,
): Promise<T> {
  const client = await pool.connect();
  let handle = handleOfClient.get(client);
  if (handle === undefined) {
    handle = drizzleNodePg({ client }) as unknown as DrizzleDb;
    handleOfClient.set(client, handle);
  }
  const tx = handle as unknown as Tx;
  // A connection whose rollback failed, or that reported an error while we held it, is broken: it leaves the
  // pool instead of serving the next transaction.
  let broken: Error | undefined;
  // While a client is checked out the pool takes its own 'error' listener off it, and a connection lost then
  // (the server restarted or crashed, the backend was terminated, the network dropped) emits 'error' on the
  // client: with no listener, Node ends the process. The statement under way fails with that error anyway, and a
  // later one fails as "not queryable", so this transaction, and only it, fails (its job is retried, its request
  // answers 503); here the client is only marked so that it is discarded.
  const onConnectionError = (error: Error): void => {
    broken ??= error;
  };
  client.on("error", onConnectionError);
  openTransactions.set(handle, { client, savepoints: 0 });
  try {
    await client.query(beginStatement(config));
    const result = await fn(tx);
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback").catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    openTransactions.delete(handle);
    client.off("error", onConnectionError);
    client.release(broken);
  }
}

async function savepoint<T>(
  tx: Tx,
  open: { readonly client: pg.PoolClient; savepoints: number },
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  open.savepoints += 1;
  const name = `savepoint_${open.savepoints}`;
  try {
    await open.client.query(`savepoint ${name}`);
    const result = await fn(tx);
    await open.client.query(`release savepoint ${name}`);
    return result;
  } catch (error) {
    await open.client.query(`rollback to savepoint ${name}`);
    throw error;
  } finally {
    open.savepoints -= 1;
  }
}
export type DbEngine = "pglite" | "postgres";

export interface Database {
  readonly db: Db;
  readonly engine: DbEngine;
  /** The pg pool when on PostgreSQL (shared stores such as the rate limiter use it); null on PGlite. */
  readonly pool: pg.Pool | null;
  close(): Promise<void>;
  /**
   * Calls `onNotify` for every NOTIFY on `channel` (delivered at commit). PostgreSQL: a dedicated
   * connection outside the pool, reconnected after a failure; PGlite: its own listen(). Returns a stop function.
   * `observer` hears whether the listener works: notifications are only hints (the caller polls anyway), so a
   * listener that cannot connect or loses its connection does not fail the caller, it is reported there.
   * `onNotify` gets the NOTIFY's payload; after a reconnect it is called once with "" (anything may have
   * been committed meanwhile).
   */
  listen(channel: string, onNotify: (payload: string) => void, observer?: ListenObserver): Promise<() => Promise<void>>;
}

/** What happens to a LISTEN: each call is one event (see Database.listen). */
export interface ListenObserver {
  /** LISTEN is in place; `recovered` when it follows a failure or a lost connection. */
  listening(recovered: boolean): void;
  /** Connecting or LISTEN failed; the next try is in `retryInMs`. */
  failed(error: unknown, retryInMs: number): void;
  /** The listening connection dropped (server restart, terminated backend, network); a reconnect follows. */
  lost(error: unknown): void;
}

/** Reconnection delays after a LISTEN failure: 1 s, doubling, at most 30 s. */
const LISTEN_RETRY_FIRST_MS = 1_000;
const LISTEN_RETRY_MAX_MS = 30_000;

/** LISTEN on a dedicated pg connection that reconnects when it drops; notifications are only hints. */
async function listenOnPostgres(
  config: pg.ClientConfig,
  channel: string,
  onNotify: (payload: string) => void,
  observer: ListenObserver | undefined,
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let retryDelayMs = LISTEN_RETRY_FIRST_MS;
  /** Set after a failure or a lost connection, so the next success is reported as a recovery. */
  let interrupted = false;
  const scheduleReconnect = (delayMs: number): void => {
    if (stopped || retry !== null) return;
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, delayMs);
  };
  const connect = async (): Promise<void> => {
    const next = new pg.Client(config);
    next.on("notification", (message) => onNotify(message.payload ?? ""));
    const dropped = (error: unknown): void => {
      next.end().catch(() => {});
      if (client !== next) return;
      client = null;
      if (stopped) return;
      interrupted = true;
      observer?.lost(error);
      scheduleReconnect(LISTEN_RETRY_FIRST_MS);
    };
    next.on("error", dropped);
    // A connection can also end without an error event (the server closed it cleanly).
    next.on("end", () => dropped(new Error("LISTEN connection ended")));
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
    } catch (error) {
      await next.end().catch(() => {});
      if (stopped) return;
      interrupted = true;
      const delay = retryDelayMs;
      retryDelayMs = Math.min(retryDelayMs * 2, LISTEN_RETRY_MAX_MS);
      observer?.failed(error, delay);
      scheduleReconnect(delay);
      return;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    retryDelayMs = LISTEN_RETRY_FIRST_MS;
    observer?.listening(interrupted);
    interrupted = false;
    // Anything committed while we were not listening is found by the next regular poll.
    onNotify("");
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry !== null) clearTimeout(retry);
    retry = null;
    const current = client;
    client = null;
    await current?.end().catch(() => {});
  };
}

export interface DatabaseOptions {
  readonly databaseUrl: string | null;
  readonly dataDir: string;
  readonly poolSize?: number;
  /** PGlite only: keep the database in memory (tests). */
  readonly inMemory?: boolean;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl !== null) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // A dead server must fail requests quickly (503) instead of queueing them forever.
      connectionTimeoutMillis: 5_000,
    });
    // An idle client losing its connection emits 'error' on the pool; unhandled, it would kill the process.
    pool.on("error", () => {});
    const db = drizzleNodePg({ client: pool }) as unknown as Db;
    poolOfHandle.set(db, pool);
    return {
      db,
      engine: "postgres",
      pool,
      close: () => pool.end(),
      listen: (channel, onNotify, observer) =>
        listenOnPostgres(
          { connectionString: options.databaseUrl ?? undefined, connectionTimeoutMillis: 5_000 },
          channel,
          onNotify,
          observer,
        ),
    };
  }
  let client: PGlite;
  if (options.inMemory) {
    client = new PGlite();
  } else {
    const dir = path.join(options.dataDir, "pgdata");
    // Private from the start: PostgreSQL derives the mode of the files it creates from its data folder's.
    await mkdir(dir, { recursive: true, mode: 0o700 });
    client = new PGlite(dir);
  }
  await client.waitReady;
  return pgliteDatabase(client, () => client.close());
}

/**
 * The Database over an open PGlite client. `close` says what closing it means: openDatabase closes the
 * client; the test helpers hand in-memory clients on to the next test database after a reset.
 */
export function pgliteDatabase(client: PGlite, close: () => Promise<void>): Database {
  const db = drizzlePglite({ client }) as unknown as Db;
  return {
    db,
    engine: "pglite",
    pool: null,
    close,
    listen: async (channel, onNotify, observer) => {
      const unlisten = await client.listen(channel, (payload) => onNotify(payload));
      observer?.listening(false);
      return async () => {
        await unlisten().catch(() => {});
      };
    },
  };
}

/** Rows of a raw SQL statement; both drivers return `{ rows }`. Prefer the query builder where it can express the query. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/**
 * A named prepared statement for a query that runs on (nearly) every request, built once per database
 * handle and reused. Measured on `GET /v1/api-keys` (bench/): an unnamed Drizzle query costs ~150-190 us
 * of Node CPU (building the SQL) plus ~100-150 us in the PostgreSQL backend (parse and plan) per
 * execution; prepared, ~40 us each. `build` must use `sql.placeholder()` for every value, and a `name`
 * must always stand for the same SQL text (node-postgres rejects one name with two texts). Named
 * statements live per connection: behind PgBouncer this needs session pooling (or prepared-statement
 * support in transaction pooling). On PGlite the name is ignored; the built query is still reused.
 */
export function preparedQuery<Prepared>(db: Db, name: string, build: (db: Db) => { prepare(name: string): Prepared }): Prepared {
  let byName = preparedQueries.get(db);
  if (byName === undefined) {
    byName = new Map();
    preparedQueries.set(db, byName);
  }
  const cached = byName.get(name);
  if (cached !== undefined) return cached as Prepared;
  const prepared = build(db).prepare(name);
  byName.set(name, prepared);
  return prepared;
}

/** Per handle (the database, or one open transaction), so a statement always runs on the handle it was built for. */
const preparedQueries = new WeakMap<Db, Map<string, unknown>>();

/** Renders SQL templates to text and parameters; stateless, shared. */
const dialect = new PgDialect();

/**
 * A raw SQL statement run as a named prepared statement on PostgreSQL: parsed and planned once per
 * connection, then only bound and executed. Unlike preparedQuery, nothing is built per handle, so it suits
 * statements that run inside a transaction (a new handle each time). Measured on payout creation: about 40%
 * less PostgreSQL CPU than the same statements unnamed. Every interpolation in `query` must be a value (a
 * parameter), never a varying SQL fragment, because a name must always stand for the same text. On PGlite the
 * name is ignored.
 */
export async function namedQueryRows<T>(db: Db, name: string, query: SQL): Promise<T[]> {
  const connection = openTransactions.get(db)?.client ?? poolOfHandle.get(db);
  if (connection === undefined) return queryRows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  const result = await connection.query<T & pg.QueryResultRow>({ name, text, values: params, types: DRIZZLE_TYPE_PARSERS });
  return result.rows;
}

/**
 * Date, time and interval values (and their arrays) stay text, as Drizzle's own pg driver leaves them, so a row
 * reads the same whether it came from the query builder or from namedQueryRows.
 */
const TEXT_TYPE_IDS = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1115, // timestamp[]
  1182, // date[]
  1185, // timestamptz[]
  1187, // interval[]
  1231, // numeric[]
]);
const DRIZZLE_TYPE_PARSERS = {
  getTypeParser: ((typeId: number, format?: "text" | "binary") =>
    TEXT_TYPE_IDS.has(typeId)
      ? (value: string) => value
      : pg.types.getTypeParser(typeId, format)) as pg.CustomTypesConfig["getTypeParser"],
};
