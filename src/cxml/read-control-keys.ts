/**
 * `<ControlKeys>` (OrderRequestHeader and ItemOut): the buyer's instructions on confirmations, ship notices
 * and invoices. Values are matched without regard to case, as buyers' systems vary it; a value outside the
 * DTD's list is refused rather than ignored, because an instruction misread as "allowed" would send the
 * buyer a document it forbade (an invoice under evaluated receipt settlement bills twice). The tolerances
 * (`Lower`/`Upper`) and SESInstruction are not read: punchgate sends no service sheets and checks no
 * tolerances.
 */
import { CxmlError } from './error.ts';
import type { ControlKeys } from './request-types.ts';
import { attr, child, type XmlNode } from './xml-node.ts';

function instruction<T extends string>(
  keys: XmlNode,
  name: string,
  values: readonly T[],
  where: string,
): T | undefined {
  const node = child(keys, name);
  const raw = attr(node, 'value')?.trim();
  if (node === undefined || raw === undefined || raw === '') return undefined;
  const found = values.find((value) => value.toLowerCase() === raw.toLowerCase());
  if (found === undefined) {
    throw new CxmlError(
      'invalid_value',
      `${where}/ControlKeys/${name} value "${raw}" is not one of ${values.join(', ')}`,
    );
  }
  return found;
}

/** The ControlKeys of `parent`, undefined when it has none; `where` names the parent in errors. */
export function readControlKeys(parent: XmlNode | undefined, where: string): ControlKeys | undefined {
  const keys = child(parent, 'ControlKeys');
  if (keys === undefined) return undefined;
  const ocInstruction = instruction(
    keys,
    'OCInstruction',
    ['allowed', 'notAllowed', 'requiredBeforeASN'] as const,
    where,
  );
  const asnInstruction = instruction(keys, 'ASNInstruction', ['allowed', 'notAllowed'] as const, where);
  const invoiceInstruction = instruction(
    keys,
    'InvoiceInstruction',
    ['isERS', 'isNotERS', 'allowed', 'notAllowed'] as const,
    where,
  );
  const temporaryPrice = attr(child(child(keys, 'InvoiceInstruction'), 'TemporaryPrice'), 'value');
  return {
    ...(ocInstruction !== undefined && { ocInstruction }),
    ...(asnInstruction !== undefined && { asnInstruction }),
    ...(invoiceInstruction !== undefined && { invoiceInstruction }),
    ...(temporaryPrice?.trim().toLowerCase() === 'yes' && { temporaryPrice: true }),
  };
}
