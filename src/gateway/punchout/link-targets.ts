/**
 * What a signed link acts on, carried in its token's `ref` claim as short text: where a start URL leads,
 * and what an editor return URL does with the design it brings back. One codec per kind, so no route reads
 * a ref by looking at its prefix.
 */

/**
 * Where the start URL leads: the catalog, straight into one product's editor (level 2), the cart, or the
 * catalog saying that the reorder item a level-2 setup named is no longer available.
 */
export type StartTarget =
  | { kind: 'catalog' }
  | { kind: 'design'; sku: string }
  | { kind: 'cart' }
  | { kind: 'unavailable'; partId: string };

/** What a saved design coming back from the editor does: a new cart line of a SKU, or a line's new design. */
export type ReturnTarget = { kind: 'sku'; sku: string } | { kind: 'line'; lineRef: string };

export function startTargetRef(target: StartTarget): string {
  switch (target.kind) {
    case 'design':
      return `design:${target.sku}`;
    case 'unavailable':
      return `unavailable:${target.partId}`;
    default:
      return target.kind;
  }
}

export function parseStartTargetRef(ref: string | undefined): StartTarget {
  if (ref?.startsWith('design:')) return { kind: 'design', sku: ref.slice('design:'.length) };
  if (ref?.startsWith('unavailable:'))
    return { kind: 'unavailable', partId: ref.slice('unavailable:'.length) };
  return ref === 'cart' ? { kind: 'cart' } : { kind: 'catalog' };
}

export function returnTargetRef(target: ReturnTarget): string {
  return target.kind === 'sku' ? `sku:${target.sku}` : `line:${target.lineRef}`;
}

/** The target of a return link, or undefined for a ref no version of the gateway signs. */
export function parseReturnTargetRef(ref: string | undefined): ReturnTarget | undefined {
  if (ref?.startsWith('sku:')) return { kind: 'sku', sku: ref.slice('sku:'.length) };
  if (ref?.startsWith('line:')) return { kind: 'line', lineRef: ref.slice('line:'.length) };
  return undefined;
}

/**
 * Whose proof a proof link opens: a design in a storefront, opened as the design's owner (the `userKey`
 * of its PIPO account). The buyer is the token's `sid`. The user ref comes last since it is free text.
 */
export interface ProofTarget {
  storefrontId: string;
  designId: number;
  userRef: string;
}

export function proofTargetRef(target: ProofTarget): string {
  return `${target.designId}:${encodeURIComponent(target.storefrontId)}:${target.userRef}`;
}

/** The target of a proof link, or undefined for a ref no version of the gateway signs. */
export function parseProofTargetRef(ref: string | undefined): ProofTarget | undefined {
  const match = ref === undefined ? null : /^([1-9]\d{0,15}):([^:]+):(.+)$/s.exec(ref);
  if (match === null) return undefined;
  try {
    return { designId: Number(match[1]), storefrontId: decodeURIComponent(match[2]!), userRef: match[3]! };
  } catch {
    return undefined;
  }
}
