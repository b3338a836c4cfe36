/**
 * Lines of an edit or inspect the gateway cannot match to a cart line of its own (a SupplierPartID without
 * our line reference, a line from before the gateway, an unknown reference). They are carried through the
 * session unchanged and handed back exactly as the buyer sent them: a line left out of an edit
 * PunchOutOrderMessage is a line Ariba and Coupa delete from the requisition.
 *
 * They live in the session's `extrinsics` JSON under one reserved key, so no table changes; removing one
 * marks it removed (its position stays its id in URLs).
 */
import * as z from 'zod';
import { type JsonObject, type PunchoutSession, toJson } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError } from '../http/errors.ts';
import { priceBasisQuantitySchema } from '../../cxml/request-types.ts';
import { addDecimals, type Decimal, readDecimal } from '../../kernel/decimal.ts';
import { lineAmount } from '../../kernel/money.ts';
import { exactPriceBasis } from './pricing.ts';

/** The reserved key in a session's `extrinsics`; a buyer extrinsic of this name is overwritten. */
const KEPT_LINES_KEY = 'punchgate.keptLines';

const text = z.string();
const optional = <T extends z.ZodType>(schema: T) => schema.exactOptional();

/** A line as the buyer's system sent it; every field verbatim. Read back through this schema. */
const keptLineSchema = z.object({
  supplierPartID: text,
  supplierPartAuxiliaryID: optional(text),
  /** The quantity's text exactly as sent. */
  quantity: text,
  unitPrice: optional(z.object({ value: text, currency: text })),
  /** What the unit price is for, as sent (a price per thousand stays one when handed back). */
  priceBasis: optional(priceBasisQuantitySchema),
  description: text,
  shortName: optional(text),
  unitOfMeasure: optional(text),
  classifications: z.array(z.object({ domain: text, code: text })),
  manufacturerPartID: optional(text),
  manufacturerName: optional(text),
  extrinsics: z.array(z.object({ name: text, value: text })),
  /** The user removed it from the cart; it is no longer handed back. */
  removed: optional(z.boolean()),
});
export type KeptLine = z.infer<typeof keptLineSchema>;
const keptLinesSchema = z.array(keptLineSchema);

/**
 * Every kept line of the session, removed ones included (a line's index is its id). A stored value that is
 * not a list of kept lines is a bug or a damaged record: an `internal` error, never lines made up from it.
 */
function keptLinesOf(session: PunchoutSession): KeptLine[] {
  const stored = session.extrinsics?.[KEPT_LINES_KEY];
  if (stored === undefined) return [];
  const read = keptLinesSchema.safeParse(stored);
  if (!read.success) {
    throw new GatewayError('internal', `The kept lines of session ${session.id} cannot be read.`, {
      cause: read.error,
    });
  }
  return read.data;
}

/** The kept lines that are handed back, with their index. */
export function liveKeptLines(session: PunchoutSession): { index: number; line: KeptLine }[] {
  return keptLinesOf(session)
    .map((line, index) => ({ index, line }))
    .filter(({ line }) => line.removed !== true);
}

/** The session's extrinsics with these kept lines stored in them. */
export function withKeptLines(extrinsics: JsonObject | undefined, lines: readonly KeptLine[]): JsonObject {
  return { ...extrinsics, [KEPT_LINES_KEY]: toJson(lines) };
}

/**
 * The kept lines' sum in `currency`, each line's amount rounded once to the currency's minor units after
 * its price basis (a kept quantity may be a decimal such as 2.5); a line priced in another currency, or
 * whose price or quantity is not a plain decimal, adds nothing.
 */
export function keptLinesTotal(lines: readonly KeptLine[], currency: string): Decimal {
  const totals: Decimal[] = [];
  for (const line of lines) {
    if (line.unitPrice?.currency !== currency) continue;
    const price = readDecimal(line.unitPrice.value.trim(), { signed: true });
    const quantity = readDecimal(line.quantity.trim());
    if (price === undefined || quantity === undefined) continue;
    totals.push(lineAmount(quantity, price, exactPriceBasis(line.priceBasis), currency));
  }
  return addDecimals(totals);
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
  await ctx.store.sessions.patch(
    session.id,
    { extrinsics: withKeptLines(session.extrinsics, changed) },
    { ifVersion: session.version },
  );
}
