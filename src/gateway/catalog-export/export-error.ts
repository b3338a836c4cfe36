/**
 * Why a buyer's catalog cannot be exported, in words that name what to fix: the buyer, or the product and
 * the field. `punchgate catalog` prints the message and exits 1; the console shows it on the buyer page.
 */
export type CatalogExportErrorCode = 'unknown_buyer' | 'empty_catalog' | 'missing_field' | 'duplicate_part';

export class CatalogExportError extends Error {
  override name = 'CatalogExportError';
  readonly code: CatalogExportErrorCode;
  constructor(code: CatalogExportErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
