/**
 * Lines of an edit or inspect the gateway cannot match to a cart line of its own (a SupplierPartID without
 * our line reference, a line from before the gateway, an unknown reference). They are carried through the
 * session unchanged and handed back exactly as the buyer sent them: a line left out of an edit
 * PunchOutOrderMessage is a line Ariba and Coupa delete from the requisition.
 *
 * They live in the session's `extrinsics` JSON under one reserved key, so no table changes; removing one
 * marks it removed (its position stays its id in URLs).
 */
import type { JsonObject, JsonValue, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError } from '../http/errors.ts';
import {
  addDecimals,
  type Decimal,
  formatDecimal,
  multiplyDecimals,
  readDecimal,
} from '../../kernel/decimal.ts';

/** The reserved key in a session's `extrinsics`; a buyer extrinsic of this name is overwritten. */
export const KEPT_LINES_KEY = 'punchgate.keptLines';

/** A line as the buyer's system sent it; every field verbatim. */
export interface KeptLine {
  supplierPartID: string;
  supplierPartAuxiliaryID?: string;
  /** The quantity's text exactly as sent. */
  quantity: string;
  unitPrice?: { value: string; currency: string };
  description: string;
  shortName?: string;
  unitOfMeasure?: string;
  classifications: { domain: string; code: string }[];
  manufacturerPartID?: string;
  manufacturerName?: string;
  extrinsics: { name: string; value: string }[];
  /** The user removed it from the cart; it is no longer handed back. */
  removed?: boolean;
}

/** Every kept line of the session, removed ones included (a line's index is its id). */
export function keptLinesOf(session: PunchoutSession): KeptLine[] {
  const stored = session.extrinsics?.[KEPT_LINES_KEY];
  return Array.isArray(stored) ? (stored as unknown as KeptLine[]) : [];
}

/** The kept lines that are handed back, with their index. */
export function liveKeptLines(session: PunchoutSession): { index: number; line: KeptLine }[] {
  return keptLinesOf(session)
    .map((line, index) => ({ index, line }))
    .filter(({ line }) => line.removed !== true);
}

/** The session's extrinsics with these kept lines stored in them. */
export function withKeptLines(extrinsics: JsonObject | undefined, lines: readonly KeptLine[]): JsonObject {
  return { ...extrinsics, [KEPT_LINES_KEY]: lines as unknown as JsonValue };
}

/**
 * The kept lines' sum in `currency`, exact (a kept quantity may be a decimal such as 2.5); a line priced in
 * another currency, or whose price or quantity is not a plain decimal, adds nothing.
 */
export function keptLinesTotal(lines: readonly KeptLine[], currency: string): string {
  const totals: Decimal[] = [];
  for (const line of lines) {
    if (line.unitPrice?.currency !== currency) continue;
    const price = readDecimal(line.unitPrice.value.trim(), { signed: true });
    const quantity = readDecimal(line.quantity.trim());
    if (price !== undefined && quantity !== undefined) totals.push(multiplyDecimals(price, quantity));
  }
  return formatDecimal(addDecimals(totals));
}

/** Marks kept line `index` removed; an index that names no live line is `unknown_line`. */
export async function removeKeptLine(
  ctx: GatewayContext,
  session: PunchoutSession,
  index: string,
): Promise<void> {
  const lines = keptLinesOf(session);
  const position = /^\d{1,4}$/.test(index) ? Number(index) : -1;
  const line = lines[position];
  if (line === undefined || line.removed === true) {
    throw new GatewayError('unknown_line', 'That line is not in this cart.');
  }
  if (session.operation === 'inspect') throw new GatewayError('inspect_read_only', 'This cart is read only.');
  const changed = lines.map((kept, i) => (i === position ? { ...kept, removed: true } : kept));
  // Compare-and-set: two removals in two tabs must not bring back the line the other one removed.
  await ctx.store.sessions.update(
    session.id,
    { extrinsics: withKeptLines(session.extrinsics, changed) },
    { ifVersion: session.version },
  );
}
