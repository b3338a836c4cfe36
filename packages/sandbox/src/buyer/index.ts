/**
 * The buyer simulator: an emulated procurement system (Ariba-style and Coupa-style cXML, SAP-style OCI)
 * that punches out to the gateway, receives carts, orders, and shows the supplier's order-status
 * documents. See README.md beside this file.
 */
export { lineAmountText } from './amount-text.ts';
export { buildOrderRequest, type OrderRequestInput, orderTotal } from './build-order-request.ts';
export { buildSetupRequest, type SetupRequestInput } from './build-setup-request.ts';
export {
  type BuyerStore,
  createMemoryBuyerStore,
  type InboundDocument,
  type MemoryBuyerStoreOptions,
} from './buyer-store.ts';
export {
  checkInvoice,
  dueDateOf,
  type InvoiceCheck,
  type InvoiceCheckInput,
  type KnownInvoice,
} from './check-invoice.ts';
export { buyerTimestamp } from './cxml-document.ts';
export { DEMO_USERS, type DemoUser } from './demo-users.ts';
export { decodeUrlencoded, type FormBody, readFormBody } from './form-body.ts';
export { type GatewayExchange, postCxml } from './gateway-client.ts';
export {
  ARIBA_PROFILE,
  type BuyerCredential,
  type BuyerProfile,
  COUPA_PROFILE,
  type CxmlBuyerProfile,
  type CxmlDocumentStyle,
  type CxmlIdentity,
  DEFAULT_BUYER_PROFILES,
  type OciBuyerProfile,
  SAP_PROFILE,
} from './profiles.ts';
export { type OrderedDocument, type OrderedLine, readOrderedLines } from './purchase-order-lines.ts';
export { readConfirmation } from './read-confirmation.ts';
export {
  type InvoiceContent,
  type InvoiceItemContent,
  type InvoiceSummaryContent,
  type MoneyText,
  readInvoice,
} from './read-invoice.ts';
export { readOciCart } from './read-oci-cart.ts';
export { type OrderMessage, readOrderMessage } from './read-order-message.ts';
export { readCxmlResponse } from './read-response.ts';
export { readShipNotice } from './read-ship-notice.ts';
export {
  ORDER_STATUS_KINDS,
  readStatusDocument,
  type StatusDocument,
  type StatusDocumentKind,
} from './read-status-document.ts';
export type * from './requisition.ts';
export {
  type BuyerSimulator,
  type BuyerSimulatorOptions,
  createBuyerSimulator,
  firstOrderNumberAt,
} from './simulator.ts';
export type { AdvanceOrder, AdvanceOrderContext } from './simulator-context.ts';
export { SimulatorError, type SimulatorErrorCode } from './simulator-error.ts';
