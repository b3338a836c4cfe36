/**
 * Line references: the SupplierPartAuxiliaryID / EXT_PRODUCT_ID of a cart line. Buyers echo them in edit
 * and inspect punch-outs and in the purchase order, Ariba rejects `?{}` in them and SAP fields are
 * short, so they are short upper-case ASCII from an alphabet without look-alike characters.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function newLineRef(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let out = 'L-';
  for (const byte of bytes) out += ALPHABET[byte & 31];
  return out;
}

export const LINE_REF_PATTERN = /^L-[0-9A-HJKMNP-TV-Z]{8}$/;
