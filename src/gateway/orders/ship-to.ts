/**
 * Whether a print PO says where to ship. A line ships to its own ShipTo, else the order's; an address the
 * print shop can ship to has a street, a city and a postal code. A PO with a line that has no such
 * address is flagged `ship_to_missing`, and by the buyer's `missingShipTo` waits for an operator (`hold`)
 * or is placed all the same (`accept`), so the print shop never learns it only when the parcel is packed.
 */
import type { Address } from '../../cxml/index.ts';

/** An address a parcel can go to: a street, a city and a postal code. */
export function isUsableAddress(address: Address | undefined): boolean {
  if (address === undefined) return false;
  return (
    address.street.some((street) => street.trim() !== '') &&
    (address.city ?? '').trim() !== '' &&
    (address.postalCode ?? '').trim() !== ''
  );
}

/** The numbers of the lines with no usable ShipTo of their own nor from the order's header, in PO order. */
export function linesWithoutShipTo(
  request: { shipTo?: Address },
  lines: readonly { lineNumber: number; shipTo?: Address }[],
): number[] {
  if (isUsableAddress(request.shipTo)) {
    return [];
  }
  return lines.filter((line) => !isUsableAddress(line.shipTo)).map((line) => line.lineNumber);
}

/** The reason shown to operators while a PO waits for its ship-to address. */
export function missingShipToReason(lineNumbers: readonly number[]): string {
  const lines = `${lineNumbers.length === 1 ? 'Line' : 'Lines'} ${lineNumbers.join(', ')}`;
  return (
    `${lines} of this order ${lineNumbers.length === 1 ? 'has' : 'have'} no usable ship-to address ` +
    "(neither the line's own ShipTo nor the order's has a street, city and postal code), so it was not " +
    'placed. Get the address from the buyer, then retry to place the order (the print shop ships to the ' +
    'address it got), or mark it handled if it was placed by hand.'
  );
}
