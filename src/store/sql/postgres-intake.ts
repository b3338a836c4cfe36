/**
 * The statements of a PO's intake that only PostgreSQL runs, kept out of the shared statements so the
 * Worker's bundle (D1) carries none of them; `postgres.ts` hands them to `createSqlStore`.
 *
 * PostgreSQL locks the rows an UPDATE writes in whatever order its plan visits them (physical order, which
 * moves as rows are rewritten). Two POs naming the same cart lines could each hold some and wait for the
 * rest: a deadlock it breaks only after `deadlock_timeout` (a second), with every other such PO queued
 * behind. Locked in reference order, they queue for the lines one behind the other instead.
 */
import { postgresDialect } from './dialect.ts';
import { storeStatements } from './statements.ts';
import type { IntakeRowLocking } from './store.ts';

/** The cart lines of the JSON array `$1`, locked in reference order (before the batch marks them). */
const LOCK_LINES = `SELECT 1 FROM cart_lines WHERE line_ref IN (SELECT jsonb_array_elements_text($1::jsonb))
  ORDER BY line_ref FOR UPDATE`;

/**
 * The whole intake of a PO without parts or attachments as one statement (a WITH may write here): the
 * batch's `insert` (`$1`–`$17`), `queueIntake` (`$18`–`$22`) and `markIntakeLines` (`$23`, its lines locked
 * in reference order), reading the new order's id from the insert's answer. One round trip and one implicit
 * transaction instead of five (BEGIN, three statements, COMMIT), so the lines' locks are never held while a
 * busy event loop gets round to sending the COMMIT. Answers the new order's id, or nothing for a copy (and
 * then writes nothing).
 */
function intakeAtOnce(insert: string): string {
  return `WITH po AS (${insert}),
  job AS (INSERT INTO jobs (kind, key, payload, run_at, attempts, max_attempts, state, created_at, updated_at)
    SELECT $18::text, $19::text || id, '{"poId":"' || id || '"}', $20::bigint, 0, $21::integer, 'pending',
      $22::bigint, $22
    FROM po ON CONFLICT DO NOTHING),
  lines AS (UPDATE cart_lines SET state = 'ordered', po_id = (SELECT CAST(id AS TEXT) FROM po), updated_at = $22
    WHERE line_ref IN (SELECT line_ref FROM cart_lines
      WHERE line_ref IN (SELECT jsonb_array_elements_text($23::jsonb)) AND EXISTS (SELECT 1 FROM po)
      ORDER BY line_ref FOR UPDATE))
  SELECT id FROM po`;
}

export function postgresIntake(): IntakeRowLocking {
  const { orders } = storeStatements(postgresDialect);
  return {
    lockLines: postgresDialect.compile(LOCK_LINES),
    intakeAtOnce: postgresDialect.compile(intakeAtOnce(orders.insert.sql)),
  };
}
