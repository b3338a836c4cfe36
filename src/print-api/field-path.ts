/**
 * Field paths in messages about a call's arguments and about the service's answers alike: below both, so
 * the argument checks need not reach into the answer readers for it.
 */

/** `items[0].quantity` from zod's `['items', 0, 'quantity']`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}
