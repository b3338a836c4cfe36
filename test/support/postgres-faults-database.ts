/**
 * A database of its own for the PostgreSQL fault tests. Terminating backends hits every session of a
 * database, so these tests must not share one with the other PostgreSQL tests that run beside them; a
 * schema is not enough. Created in the test cluster (`PUNCHGATE_TEST_PG_URL`), dropped after the file.
 */
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { pgUrl, withClient } from './postgres-test-database.ts';

export interface FaultDatabase {
  /** The connection URL of the file's own database. */
  url(): string;
  /**
   * Ends every other session on the database, as `pg_terminate_backend` does when an operator or a
   * failover kills connections; answers how many it ended.
   */
  terminateBackends(): Promise<number>;
  /** How many sessions of the database wait for a lock just now. */
  waitingForLocks(): Promise<number>;
}

export function useFaultDatabase(): FaultDatabase {
  const name = `pgfaults_${process.pid}_${Date.now().toString(36)}`;
  let url = '';
  let killer: pg.Client | undefined;

  beforeAll(async () => {
    // The test database's client creates and drops this one beside it in the cluster.
    await withClient((admin) => admin.query(`CREATE DATABASE ${name}`));
    const target = new URL(pgUrl);
    target.pathname = `/${name}`;
    url = target.toString();
  });

  /** The session that ends the others: never among those it ends. */
  const admin = async (): Promise<pg.Client> => {
    if (killer === undefined) {
      killer = new pg.Client({ connectionString: url });
      killer.on('error', () => {});
      await killer.connect();
    }
    return killer;
  };

  afterAll(async () => {
    if (url === '') return;
    await killer?.end().catch(() => {});
    await withClient((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });

  return {
    url: () => url,
    async terminateBackends() {
      const result = await (await admin()).query(
        `SELECT count(pg_terminate_backend(pid))::int AS ended FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      return result.rows[0].ended as number;
    },
    async waitingForLocks() {
      const result = await (await admin()).query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return result.rows[0].waiting as number;
    },
  };
}

export interface CuttableLink {
  /** The database URL through the link. */
  url: string;
  /** Cuts every connection through the link and refuses new ones, like a network partition. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay in front of PostgreSQL for one instance: cutting it takes that instance off the database
 * while the others keep theirs, which `pg_terminate_backend` cannot do (it ends every session at once).
 */
export async function createCuttableLink(databaseUrl: string): Promise<CuttableLink> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let open = true;
  const server = createServer((incoming) => {
    if (!open) {
      incoming.destroy();
      return;
    }
    const outgoing = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [incoming, outgoing]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        incoming.destroy();
        outgoing.destroy();
      });
    }
    incoming.pipe(outgoing);
    outgoing.pipe(incoming);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const through = new URL(databaseUrl);
  through.hostname = '127.0.0.1';
  through.port = String((server.address() as AddressInfo).port);
  return {
    url: through.toString(),
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
