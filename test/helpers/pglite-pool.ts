// In-memory PGlite instances of the migrated snapshot, kept per worker process and handed from one test
// database to the next: loading the snapshot costs about 0.5-1 s of CPU per instance, resetting a returned
// instance a few tens of milliseconds. A returned instance is reused only when it is indistinguishable, to
// SQL, from a freshly loaded snapshot: no transaction left open, session state discarded, every table except
// schema_migrations truncated with its sequences restarted, and the catalog (schemas, tables, columns,
// indexes, constraints, functions, triggers, types, sequences, settings, roles, extensions) and the applied
// migrations exactly as in the snapshot. Anything else (a test left a table or a trigger behind, the instance
// was closed, a statement failed) closes the instance instead, and the next database loads the snapshot.
//
// A test database only ever sees a fenced view of its instance: once it is closed, whatever still holds it
// (a late job, a forgotten timer) gets an error instead of reading or writing the next database's rows, and
// notification listeners it left are removed.
import { PGlite } from "@electric-sql/pglite";

/** Idle instances a worker keeps; more only exist while a file has several databases open at once. */
const MAX_IDLE = 2;

export interface PgliteLease {
  /** The fenced client: every use after release throws. */
  readonly client: PGlite;
  release(): Promise<void>;
}

export interface PglitePool {
  lease(): Promise<PgliteLease>;
}

/** A pool of instances of one snapshot (a `dumpDataDir()` tarball of a migrated database). */
export function createPglitePool(snapshot: Blob): PglitePool {
  const idle: PGlite[] = [];
  let snapshotFingerprint: Promise<string> | undefined;

  const load = async (): Promise<PGlite> => {
    const client = new PGlite({ loadDataDir: snapshot });
    await client.waitReady;
    // Taken from the first instance before any test touches it: the state every reset must reproduce.
    snapshotFingerprint ??= catalogFingerprint(client);
    await snapshotFingerprint;
    return client;
  };

  const reusable = async (client: PGlite): Promise<boolean> =>
    snapshotFingerprint !== undefined && (await resetToSnapshot(client)) === (await snapshotFingerprint);

  return {
    lease: async () => {
      const client = idle.pop() ?? (await load());
      const unlistens = new Set<() => Promise<void>>();
      const { proxy, revoke } = Proxy.revocable(client, {
        get(target, key) {
          if (key === "listen") {
            return async (...args: Parameters<PGlite["listen"]>) => {
              const unlisten = await target.listen(...args);
              const tracked = async () => {
                unlistens.delete(tracked);
                await unlisten();
              };
              unlistens.add(tracked);
              return tracked;
            };
          }
          // Bound to the instance itself: PGlite's methods use private fields, which a proxy receiver lacks.
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      let released = false;
      return {
        client: proxy,
        release: async () => {
          if (released) return;
          released = true;
          revoke();
          for (const unlisten of [...unlistens]) await unlisten().catch(() => {});
          if (idle.length < MAX_IDLE && (await reusable(client))) {
            idle.push(client);
            return;
          }
          await client.close().catch(() => {});
        },
      };
    },
  };
}

/** Empties the instance and returns its catalog fingerprint, or null when it cannot be reused. */
async function resetToSnapshot(client: PGlite): Promise<string | null> {
  if (client.closed) return null;
  try {
    // Waits for a transaction still running on the instance, then fails if one was left open (DISCARD ALL
    // cannot run inside a transaction block). Resets settings, prepared statements, temporary tables,
    // advisory locks and LISTENs.
    await client.exec("discard all");
    const tables = await client.query<{ name: string }>(
      `select format('%I.%I', n.nspname, c.relname) as name
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname <> 'schema_migrations'`,
    );
    if (tables.rows.length > 0) {
      await client.exec(`truncate ${tables.rows.map((row) => row.name).join(", ")} restart identity cascade`);
    }
    return await catalogFingerprint(client);
  } catch {
    return null;
  }
}

/** Everything a test could leave behind besides rows, as one hash. */
async function catalogFingerprint(client: PGlite): Promise<string> {
  const result = await client.query<{ fingerprint: string }>(`
    with user_namespaces as (
      select oid, nspname from pg_namespace
       where nspname not in ('pg_catalog', 'information_schema') and nspname not like 'pg\\_toast%' and nspname not like 'pg\\_temp%'
    )
    select md5(coalesce(string_agg(item, E'\\n' order by item), '')) as fingerprint from (
      select 'namespace ' || nspname from pg_namespace
      union all
      select 'relation ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text || ' ' || c.relpersistence::text || ' ' || c.relrowsecurity::text
        from pg_class c join user_namespaces n on n.oid = c.relnamespace
      union all
      select 'column ' || n.nspname || '.' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
             || ' ' || a.attnotnull::text || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
        from pg_attribute a
        join pg_class c on c.oid = a.attrelid
        join user_namespaces n on n.oid = c.relnamespace
        left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
       where a.attnum > 0 and not a.attisdropped
      union all
      select 'index ' || pg_get_indexdef(i.indexrelid)
        from pg_index i join pg_class c on c.oid = i.indexrelid join user_namespaces n on n.oid = c.relnamespace
      union all
      select 'constraint ' || n.nspname || '.' || con.conname || ' ' || pg_get_constraintdef(con.oid)
        from pg_constraint con join user_namespaces n on n.oid = con.connamespace
      union all
      select 'function ' || n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || md5(coalesce(p.prosrc, ''))
        from pg_proc p join user_namespaces n on n.oid = p.pronamespace
      union all
      select 'trigger ' || pg_get_triggerdef(t.oid) from pg_trigger t where not t.tgisinternal
      union all
      select 'rule ' || r.rulename || ' ' || md5(pg_get_ruledef(r.oid))
        from pg_rewrite r join pg_class c on c.oid = r.ev_class join user_namespaces n on n.oid = c.relnamespace
      union all
      select 'policy ' || polname from pg_policy
      union all
      select 'type ' || n.nspname || '.' || t.typname || ' ' || t.typtype::text from pg_type t join user_namespaces n on n.oid = t.typnamespace
      union all
      select 'enum ' || t.typname || ' ' || e.enumsortorder::text || ' ' || e.enumlabel from pg_enum e join pg_type t on t.oid = e.enumtypid
      union all
      select 'sequence ' || schemaname || '.' || sequencename || ' ' || coalesce(last_value::text, 'unused') from pg_sequences
      union all
      select 'setting ' || setdatabase::text || ' ' || setrole::text || ' ' || setconfig::text from pg_db_role_setting
      union all
      select 'role ' || rolname from pg_roles
      union all
      select 'extension ' || extname || ' ' || extversion from pg_extension
      union all
      select 'database ' || datname from pg_database
      union all
      select 'migration ' || hash || ' ' || folder_millis::text || ' ' || applied_at::text from schema_migrations
    ) items(item)`);
  const row = result.rows[0];
  if (row === undefined) throw new Error("catalog fingerprint: no row");
  return row.fingerprint;
}
