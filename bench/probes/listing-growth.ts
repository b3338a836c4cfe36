/**
 * `node --conditions=punchgate-source bench/probes/listing-growth.ts [n…]`: what the listings a background
 * round and a PO's job run cost with `n` POs and `n` buyer documents stored (default 1,000 and 100,000):
 * the POs left `processing` (the round's look for abandoned jobs, which finds none), one PO's documents
 * (its job, its console page), the dead documents (the notifier's round) and the 50 POs received whose
 * job is not queued (the round's look for lost jobs, beside `n` finished jobs). Both should cost the same at every size: they find their rows through an
 * index. The rows are bulk-inserted into a SQLite store file (one statement each, a recursive CTE).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteStore } from '../../src/store/sqlite.ts';
import { median } from '../harness/statistics.ts';

const sizes = process.argv.slice(2).map(Number);
const CALLS = 20;

async function msPerCall(work: () => Promise<unknown>): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) await work();
    rounds.push((performance.now() - started) / CALLS);
  }
  return median(rounds);
}

for (const n of sizes.length > 0 ? sizes : [1_000, 100_000]) {
  const dir = mkdtempSync(join(tmpdir(), 'punchgate-listings-'));
  const path = join(dir, 'store.db');
  await createSqliteStore({ path }).close();
  const db = new Database(path);
  const numbers = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`;
  db.exec(`INSERT INTO purchase_orders (buyer_id, payload_id, order_id, type, order_version, revision_key,
      state, raw, document, answer_code, answer_text, print_order_ids, flags, created_at, updated_at)
    ${numbers} SELECT 'acme', 'p' || i, 'o' || i, 'new', 1, '', 'ordered', printf('%.4000c', 'x'),
      printf('%.4000c', 'y'), 200, 'OK', '[]', '[]', i, i FROM n`);
  db.exec(`INSERT INTO buyer_documents (buyer_id, po_id, kind, dedupe_key, url, body, created_at)
    ${numbers} SELECT 'acme', CAST(i AS TEXT), 'confirmation', 'k' || i, 'https://buyer.invalid', '<cXML/>', i
    FROM n`);
  // Each PO's finished job, and the last 50 POs received, waiting for theirs (the round looks for them).
  db.exec(`INSERT INTO jobs (kind, key, payload, run_at, attempts, max_attempts, state, created_at, updated_at)
    ${numbers} SELECT 'process_order', 'process_order:' || i, '{}', i, 1, 5, 'done', i, i FROM n`);
  db.exec(`UPDATE purchase_orders SET state = 'received' WHERE id > ${n - 50}`);
  db.close();
  const store = createSqliteStore({ path });
  const processing = await msPerCall(() => store.orders.list({ state: 'processing', limit: 50 }));
  const documents = await msPerCall(() => store.outbox.list({ poId: 'none', limit: 500 }));
  const dead = await msPerCall(() => store.outbox.list({ state: 'dead', limit: 500 }));
  const jobless = await msPerCall(() => store.orders.listIdsWithoutLiveJob('received', 'process_order:', 50));
  const stats = await msPerCall(() => store.stats(new Date()));
  console.log(
    `${n.toLocaleString('en-US')} POs and documents: POs processing ${processing.toFixed(3)} ms, ` +
      `a PO's documents ${documents.toFixed(3)} ms, dead documents ${dead.toFixed(3)} ms, ` +
      `received POs without a live job ${jobless.toFixed(3)} ms, the metrics' figures ${stats.toFixed(3)} ms ` +
      `(medians of 5 × ${CALLS})`,
  );
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
