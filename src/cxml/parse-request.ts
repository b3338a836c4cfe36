/**
 * `parseCxmlRequest`: from the posted body to a typed request, or a `CxmlError` saying what is wrong.
 *
 * The order of work keeps hostile input cheap: the byte cap first, then decoding, then one scan of the
 * markup (DOCTYPE declarations, depth, value sizes, balance), and only then the XML parser.
 */
import { decodeCxmlInput } from './decode-input.ts';
import { CxmlError } from './error.ts';
import { guardMarkup } from './markup-guard.ts';
import { type CxmlParseOptions, resolveParseLimits } from './parse-options.ts';
import { readOrderRequest } from './parse-order-request.ts';
import { readSetupRequest } from './parse-setup-request.ts';
import { readStatusUpdateRequest } from './parse-status-update.ts';
import { readAttachmentReferences } from './read-attachments.ts';
import { readHeader } from './read-header.ts';
import type { CxmlRequest, CxmlRequestCommon, DeploymentMode } from './request-types.ts';
import { assertPlainSharedSecrets } from './shared-secret.ts';
import { readTimestampValue } from './timestamp.ts';
import { attr, child, children, elementNames, type XmlNode } from './xml-node.ts';
import { parseXmlTree } from './xml-tree.ts';

function readDeploymentMode(request: XmlNode): DeploymentMode {
  const raw = attr(request, 'deploymentMode');
  if (raw === undefined || raw === '') return 'production';
  const mode = raw.toLowerCase();
  if (mode === 'production' || mode === 'test') return mode;
  throw new CxmlError('invalid_value', `Request deploymentMode "${raw}" is not production or test`);
}

/** The one element inside `<Request>`: cXML puts exactly one business document in an envelope. */
function requestDocument(envelope: XmlNode): { name: string; node: XmlNode; request: XmlNode } {
  const request = child(envelope, 'Request');
  if (request === undefined) {
    const other = elementNames(envelope).find((name) => name === 'Message' || name === 'Response');
    throw new CxmlError(
      'no_request',
      other === undefined
        ? 'cXML document has no Request'
        : `cXML document carries a ${other}, not a Request`,
    );
  }
  const names = elementNames(request);
  const name = names[0];
  const node = name === undefined ? undefined : child(request, name);
  if (name === undefined || node === undefined) throw new CxmlError('no_request', 'Request element is empty');
  const count = names.reduce((sum, each) => sum + children(request, each).length, 0);
  if (count > 1) {
    throw new CxmlError(
      'invalid_value',
      `Request holds ${count} documents (${names.join(', ')}); cXML allows one`,
    );
  }
  return { name, node, request };
}

function readCommon(
  envelope: XmlNode,
  request: XmlNode,
  document: { name: string; node: XmlNode },
  raw: string,
): CxmlRequestCommon {
  const payloadID = attr(envelope, 'payloadID');
  if (payloadID === undefined || payloadID === '') {
    throw new CxmlError('missing_field', 'cXML has no payloadID attribute');
  }
  const version = attr(envelope, 'version');
  const lang = attr(envelope, 'xml:lang');
  return {
    ...(version ? { version } : {}),
    payloadID,
    timestamp: readTimestampValue(attr(envelope, 'timestamp') ?? ''),
    ...(lang ? { lang } : {}),
    deploymentMode: readDeploymentMode(request),
    header: readHeader(envelope),
    attachments: readAttachmentReferences(document.node, document.name, raw),
    raw,
  };
}

/**
 * Read a cXML request as real buyers send it.
 *
 * Accepts a string or the posted bytes (BOM stripped; UTF-8, ISO-8859-1 or windows-1252 as declared),
 * a lower-case `<cxml>` root, children in any order, comments anywhere, and no DOCTYPE or one with an
 * empty internal subset. Rejects entity declarations, oversized or over-deep documents and anything
 * that is not a PunchOutSetupRequest, OrderRequest, ProfileRequest or StatusUpdateRequest, always with a `CxmlError`.
 *
 * @example
 * const request = parseCxmlRequest(await c.req.text());
 * if (request.kind === 'PunchOutSetupRequest') console.log(request.operation, request.browserFormPost);
 */
export function parseCxmlRequest(input: string | Uint8Array, options?: CxmlParseOptions): CxmlRequest {
  const limits = resolveParseLimits(options);
  const raw = decodeCxmlInput(input, limits.maxBytes);
  const rootName = guardMarkup(raw, limits);
  assertPlainSharedSecrets(raw);
  if (rootName.toLowerCase() !== 'cxml') {
    throw new CxmlError('not_cxml', `Root element is <${rootName}>, not <cXML>`);
  }
  const envelope = child(parseXmlTree(raw), rootName);
  if (envelope === undefined) throw new CxmlError('malformed', `<${rootName}> could not be read`);
  const document = requestDocument(envelope);
  const { name, node, request } = document;
  switch (name) {
    case 'PunchOutSetupRequest':
      return { ...readCommon(envelope, request, document, raw), ...readSetupRequest(node) };
    case 'OrderRequest':
      return { ...readCommon(envelope, request, document, raw), ...readOrderRequest(node) };
    case 'ProfileRequest':
      return { ...readCommon(envelope, request, document, raw), kind: 'ProfileRequest' };
    case 'StatusUpdateRequest':
      return { ...readCommon(envelope, request, document, raw), ...readStatusUpdateRequest(node) };
    default:
      throw new CxmlError('unsupported_request', `${name} is not supported`);
  }
}
