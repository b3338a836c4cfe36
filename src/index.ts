/**
 * punchgate's main entry: the typed client of the print ordering service v2 and the types of its
 * contracts. Runs unchanged on Node and Workers; on Node, pair it with `createNodeFetch` from
 * `src/print-api/node-fetch.ts` for a tuned undici pool.
 *
 * @example
 * import { createPrintApi, PrintApiError } from 'punchgate';
 *
 * const api = createPrintApi({ baseUrl: 'https://print.example.com', token, key });
 * await api.ping();
 */

export type {
  Address,
  CheckoutField,
  Customer,
  EventName,
  HookEntry,
  LicenseTier,
  OptionItem,
  Order,
  OrderItem,
  ParametricProperty,
  PipoConvertUserBody,
  PipoCreateOrderBody,
  PipoCreateTempUserBody,
  PipoCreateUserBody,
  PipoLoginBody,
  PipoProject,
  PipoTempUser,
  PipoTransferUserBody,
  PipoUpdateUserBody,
  PipoUser,
  PrintApiErrorName,
  Rendering,
  ReportQuery,
  ReportRecord,
  ReportType,
  SalesReportRecord,
  Shipment,
  ShippedBody,
  ShipToAddress,
  StatusBody,
  ViewBy,
} from '../schemas/print-api.ts';
export { EVENT_NAMES, REPORT_TYPES } from '../schemas/print-api.ts';
export * from './print-api/index.ts';
