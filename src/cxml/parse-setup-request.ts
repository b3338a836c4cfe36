/**
 * Mapping `<PunchOutSetupRequest>`: the buyer opening a punch-out session (create), reopening a cart
 * (edit) or viewing it (inspect).
 */
import { CxmlError } from './error.ts';
import { extrinsicValue, readExtrinsics } from './extrinsics.ts';
import { readAddress, readContacts } from './read-address.ts';
import { readItemOut, readItemReference } from './read-item-out.ts';
import type {
  CxmlRequestCommon,
  ItemReference,
  PunchOutSetupRequest,
  SetupOperation,
} from './request-types.ts';
import { attr, child, childText, children, descend, rawText, text, type XmlNode } from './xml-node.ts';

const OPERATIONS: ReadonlySet<string> = new Set<SetupOperation>(['create', 'edit', 'inspect']);

function readOperation(request: XmlNode): SetupOperation {
  const raw = attr(request, 'operation');
  if (raw === undefined || raw === '') {
    throw new CxmlError('missing_field', 'PunchOutSetupRequest has no operation attribute');
  }
  const operation = raw.toLowerCase();
  if (OPERATIONS.has(operation)) return operation as SetupOperation;
  if (operation === 'source') {
    throw new CxmlError('unsupported_request', 'PunchOutSetupRequest operation "source" is not supported');
  }
  throw new CxmlError(
    'invalid_value',
    `PunchOutSetupRequest operation "${raw}" is not one of create, edit, inspect`,
  );
}

function readBrowserFormPost(request: XmlNode): string {
  const url = text(descend(request, 'BrowserFormPost', 'URL'));
  if (url === '') throw new CxmlError('missing_field', 'PunchOutSetupRequest has no BrowserFormPost/URL');
  if (!URL.canParse(url) || !/^https?:$/i.test(new URL(url).protocol)) {
    throw new CxmlError('invalid_value', `BrowserFormPost/URL "${url}" is not an absolute http(s) URL`);
  }
  return url;
}

/**
 * The item of a level-2 punch-out. A SelectedItem that names no part (`<SelectedItem/>`, an empty ItemID
 * or an empty SupplierPartID) is how Ariba sends a level-1 punch-out: it opens the catalog, not an error.
 */
function readSelectedItem(request: XmlNode): ItemReference | undefined {
  const selected = child(request, 'SelectedItem');
  if (childText(child(selected, 'ItemID'), 'SupplierPartID') === undefined) return undefined;
  return readItemReference(selected, 'SelectedItem');
}

export function readSetupRequest(request: XmlNode): Omit<PunchOutSetupRequest, keyof CxmlRequestCommon> {
  const operation = readOperation(request);
  const cookie = child(request, 'BuyerCookie');
  if (cookie === undefined) throw new CxmlError('missing_field', 'PunchOutSetupRequest has no BuyerCookie');
  const buyerCookie = rawText(cookie, 'BuyerCookie');
  const browserFormPost = readBrowserFormPost(request);
  const supplierSetup = text(descend(request, 'SupplierSetup', 'URL'));
  const extrinsics = readExtrinsics(request);
  const shipTo = readAddress(child(request, 'ShipTo'));
  const selectedItem = readSelectedItem(request);
  const returnFrame = extrinsicValue(extrinsics, 'ReturnFrame');
  return {
    kind: 'PunchOutSetupRequest',
    operation,
    buyerCookie,
    browserFormPost,
    ...(supplierSetup === '' ? {} : { supplierSetup }),
    extrinsics,
    contacts: readContacts(request),
    ...(shipTo === undefined ? {} : { shipTo }),
    ...(selectedItem === undefined ? {} : { selectedItem }),
    itemOut: children(request, 'ItemOut').map((node, index) => readItemOut(node, index + 1)),
    ...(returnFrame === undefined || returnFrame === '' ? {} : { returnFrame }),
  };
}
