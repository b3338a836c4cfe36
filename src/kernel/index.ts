/**
 * The kernel as one import (`punchgate/kernel`): exact decimal money, the HTML escape and the constant-time
 * secret comparison, for code outside this package that must compute and escape exactly as punchgate does
 * (the sandbox and the buyer simulator). Inside `src/`, import the file you need.
 */
export { constantTimeEqual } from './constant-time.ts';
export {
  addDecimals,
  type Decimal,
  divideDecimals,
  formatDecimal,
  multiplyDecimals,
  readDecimal,
} from './decimal.ts';
export { escapeHtml } from './html-escape.ts';
export {
  formatMoney,
  formatUnitPrice,
  lineAmount,
  minorUnits,
  ONE,
  type PriceBasis,
  pricePerUnit,
} from './money.ts';
