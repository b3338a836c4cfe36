/**
 * `<Distribution>` on an ItemOut: the accounting objects (cost centre, GL account, WBS element, …) the
 * line is charged to, kept as sent so the print shop can put them on the job ticket and the invoice.
 * `AccountingSegment` is read, and so is the deprecated `Segment` (its `type` becomes the name) that older
 * buyer systems still send.
 */
import { CxmlError } from './error.ts';
import { readMoney } from './read-money.ts';
import type { AccountingSegment, Distribution } from './request-types.ts';
import { attr, child, children, text, type XmlNode } from './xml-node.ts';

function readSegments(accounting: XmlNode): AccountingSegment[] {
  const current = children(accounting, 'AccountingSegment').map((segment) => ({
    id: attr(segment, 'id') ?? '',
    name: text(child(segment, 'Name')),
    description: text(child(segment, 'Description')),
  }));
  const deprecated = children(accounting, 'Segment').map((segment) => ({
    id: attr(segment, 'id') ?? '',
    name: attr(segment, 'type') ?? '',
    description: attr(segment, 'description') ?? '',
  }));
  return [...current, ...deprecated];
}

/** The Distribution elements of an ItemOut; `where` names the line in errors. */
export function readDistribution(line: XmlNode, where: string): Distribution[] {
  return children(line, 'Distribution').map((distribution, index) => {
    const at = `${where}/Distribution #${index + 1}`;
    const accounting = child(distribution, 'Accounting');
    if (accounting === undefined) throw new CxmlError('missing_field', `${at} has no Accounting`);
    const charge = child(distribution, 'Charge');
    return {
      accountingName: attr(accounting, 'name') ?? '',
      segments: readSegments(accounting),
      ...(charge !== undefined && { charge: readMoney(charge, `${at}/Charge`) }),
    };
  });
}
