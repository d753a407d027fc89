// One database handle for both engines: SQLite in FOLIO_DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set (docs/decisions.md#running). Queries are written once with Kysely; the few places
// where the engines differ (write locks, wake-ups) branch on `dialect`.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type Compilable, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
/** A handle inside a write transaction. */
export type Tx = Kysely<Database> | Transaction<Database>;

// PostgreSQL sends BIGINT as text; every BIGINT here is a millisecond time or micro-USD amount,
// both far below 2^53.
pg.types.setTypeParser(20, (value: string) => Number(value));

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** The PostgreSQL pool, for LISTEN/NOTIFY; null on SQLite. */
  pool: pg.Pool | null;
  /** The SQLite database file, beside which its processes signal each other (file-signal.ts); null on PostgreSQL. */
  sqliteFile: string | null;
  /**
   * Runs `fn` in a transaction that holds the write lock from its first statement: SQLite's
   * BEGIN IMMEDIATE (so two processes never deadlock upgrading a read lock), PostgreSQL's
   * ordinary transaction.
   */
  writeTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function openDatabase(options: { databaseUrl: string | null; dataDir: string; poolSize?: number }): DatabaseHandle {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openSqlite(path.join(options.dataDir, 'folio.sqlite'));
}

function openSqlite(file: string): DatabaseHandle {
  mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SQLite(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('busy_timeout = 10000');
  connection.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  return {
    db,
    dialect: 'sqlite',
    pool: null,
    sqliteFile: file,
    writeTransaction: (fn) =>
      // The SQLite driver has one connection guarded by a mutex; reserving it for the whole
      // callback keeps other queries of this process out of the transaction.
      db.connection().execute(async (conn) => {
        await sql`BEGIN IMMEDIATE`.execute(conn);
        try {
          const result = await fn(conn);
          await sql`COMMIT`.execute(conn);
          return result;
        } catch (error) {
          await sql`ROLLBACK`.execute(conn).catch(() => undefined);
          throw error;
        }
      }),
    close: () => db.destroy(),
  };
}

/**
 * The SQLite driver prepares every query anew; the same few SQL texts (with different
 * parameters) make up nearly all traffic, so prepared statements are kept and reused.
 */
function withStatementCache(connection: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => connection.close(),
    prepare(sqlText: string) {
      let statement = cache.get(sqlText);
      if (!statement) {
        statement = connection.prepare(sqlText);
        if (cache.size >= 500) cache.delete(cache.keys().next().value!);
        cache.set(sqlText, statement);
      }
      return statement;
    },
  };
}

function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that loses its connection emits 'error' on the pool; without a listener the
  // process would crash. The next query gets a fresh connection.
  pool.on('error', () => undefined);
  // A client that is checked out but between queries (inside a transaction waiting on other
  // work) gets the same 'error' on itself when the server drops it, with no listener of the
  // pool's to catch it. Its next query fails and the pool discards it; the process lives on.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    pool,
    sqliteFile: null,
    writeTransaction: (fn) => db.transaction().execute(fn),
    close: () => db.destroy(),
  };
}

/**
 * A query compiled once per database handle and then run with new parameters, for the lookups on
 * every request (key, document): they skip the query builder. `build` must place its parameters
 * in the order the returned function takes them.
 */
export function preparedQuery<Params extends unknown[], Row>(build: (db: Tx, ...placeholders: Params) => Compilable<Row>) {
  const compiled = new WeakMap<Tx, string>();
  return async (db: Tx, ...params: Params): Promise<Row[]> => {
    let text = compiled.get(db);
    if (text === undefined) {
      text = build(db, ...params).compile().sql;
      compiled.set(db, text);
    }
    return (await db.executeQuery<Row>(CompiledQuery.raw(text, params))).rows;
  };
}
