/**
 * `<Extrinsic name>` lists. No extrinsic is guaranteed and their names vary in case between buyers
 * (`UserEmail`, `userEmail`, `ReturnFrame`, `returnFrame`), so lookups ignore case.
 */
import type { Extrinsic } from './request-types.ts';
import { attr, children, text, type XmlNode } from './xml-node.ts';

/**
 * The first value in `extrinsics` whose name matches `name` case-insensitively.
 *
 * @example
 * extrinsicValue([{ name: 'UserEmail', value: 'a@b.c' }], 'useremail'); // 'a@b.c'
 */
export function extrinsicValue(extrinsics: readonly Extrinsic[], name: string): string | undefined {
  const wanted = name.toLowerCase();
  return extrinsics.find((extrinsic) => extrinsic.name.toLowerCase() === wanted)?.value;
}

/** The Extrinsic children of `parent`; an Extrinsic with element content contributes its own text. */
export function readExtrinsics(parent: XmlNode | undefined): Extrinsic[] {
  return children(parent, 'Extrinsic').map((node) => ({ name: attr(node, 'name') ?? '', value: text(node) }));
}
