/**
 * `<Extrinsic name>` lists. No extrinsic is guaranteed and their names vary in case between buyers
 * (`UserEmail`, `userEmail`, `ReturnFrame`, `returnFrame`), so lookups ignore case.
 */
import type { Extrinsic, Extrinsics } from './request-types.ts';
import { attr, children, text, type XmlNode } from './xml-node.ts';

/**
 * An ordered extrinsic list with a case-insensitive lookup.
 *
 * @example
 * createExtrinsics([{ name: 'UserEmail', value: 'a@b.c' }]).get('useremail'); // 'a@b.c'
 */
export function createExtrinsics(list: readonly Extrinsic[]): Extrinsics {
  return {
    list,
    get(name: string): string | undefined {
      const wanted = name.toLowerCase();
      return list.find((extrinsic) => extrinsic.name.toLowerCase() === wanted)?.value;
    },
  };
}

/** The Extrinsic children of `parent`; an Extrinsic with element content contributes its own text. */
export function readExtrinsics(parent: XmlNode | undefined): Extrinsics {
  return createExtrinsics(
    children(parent, 'Extrinsic').map((node) => ({ name: attr(node, 'name') ?? '', value: text(node) })),
  );
}
