/** One item of a buyer's catalog as its procurement system loads it for Level-2 punch-out (CIF or cXML Index). Plain data. */
export interface CatalogExportItem {
  /** SupplierPartID; unique within one buyer's export. */
  readonly supplierPartId: string;
  /** Short description per language code ("en", "de", …); the first key is the default language. */
  readonly descriptions: Readonly<Record<string, string>>;
  readonly unspsc?: string;
  /** UN/CEFACT unit of measure, e.g. "EA". */
  readonly unitOfMeasure: string;
  /** Absent when the price is only known in the editor. amount is a decimal string in the currency's minor units. */
  readonly price?: { readonly amount: string; readonly currency: string; readonly basisQuantity?: number };
  readonly leadTimeDays?: number;
  /** An image a buyer's catalog may show; carries no session or credential. */
  readonly thumbnailUrl?: string;
}
