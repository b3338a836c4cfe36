/**
 * Thumbnails in the requisition: each cart line carries a gateway thumbnail link of its design (a cXML
 * Extrinsic or ItemDetail/URL, an OCI ATTACHMENT or a long-text line, as the buyer's setting says), which
 * answers the design's PNG to anyone without a credential, and a 404 that says nothing to any link that was
 * changed: another design, another storefront, another key.
 */
import { describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../../schemas/config.ts';
import { isThumbnailMac, thumbnailUrl } from '../../../src/gateway/punchout/thumbnail-links.ts';
import { nodeHmacSha256 } from '../../../src/runtime/node-hmac.ts';
import { decodeEntities } from '../../support/html-forms.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
} from '../../support/punchout-flow.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import {
  createStack,
  GATEWAY_ORIGIN,
  resolveTestConfig,
  SANDBOX_ORIGIN,
  type Stack,
  testConfig,
} from '../../support/stack.ts';
import { loadPunchIn, ociFormOf, pressButton, sendPunchIn } from '../oci/oci-http.ts';

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const LINK = new RegExp(`^${GATEWAY_ORIGIN}/thumbnail/demo/(\\d+)/([A-Za-z0-9_-]{22})\\.png$`);

/** The test config with one buyer's settings changed. */
function withBuyer(id: string, settings: Record<string, unknown>): GatewayConfigInput {
  const input = testConfig();
  return {
    ...input,
    buyers: input.buyers.map((b) => (b.id === id ? { ...b, ...settings } : b)),
  } as GatewayConfigInput;
}

/** A cXML punch-out with one designed line, transferred: the PunchOutOrderMessage. */
async function transferredMessage(stack: Stack): Promise<string> {
  const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
  const cart = await designProduct(stack, catalog, 'Business cards', { Name: 'Jane Roe' });
  expect(cart.status).toBe(200);
  return cxmlFromForm(returnFormOf(await clickButton(stack, cart, 'Transfer cart to procurement system')));
}

const extrinsic = (poom: string, name: string) =>
  decodeEntities(new RegExp(`<Extrinsic name="${name}">([^<]+)</Extrinsic>`).exec(poom)?.[1] ?? '');

/** What a browser without any cookie or header of ours gets at `url`. */
async function fetchAsStranger(stack: Stack, url: string) {
  const res = await stack.request(url);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('a cXML cart line', () => {
  it('carries a thumbnail link of its design (Extrinsic thumbnailUrl) that answers its PNG to anyone, and 404 to any change', async () => {
    const stack = await createStack();
    const poom = await transferredMessage(stack);
    const link = extrinsic(poom, 'thumbnailUrl');
    const designId = extrinsic(poom, 'designId');
    expect(link).toMatch(LINK);
    expect(LINK.exec(link)?.[1]).toBe(designId);
    // ItemDetail/URL stays the proof link; the thumbnail link names no editor host and no token.
    expect(/<URL>([^<]+)<\/URL>/.exec(poom)?.[1]).toBe(extrinsic(poom, 'proofUrl'));
    expect(link).not.toContain(SANDBOX_ORIGIN);

    const { res, bytes } = await fetchAsStranger(stack, link);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // Shown in the buyer's system's pages, another origin: a same-origin resource policy would block it.
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect([...bytes.slice(0, 8)]).toEqual(PNG_MAGIC);
    // The editor host was asked for that design's thumbnail, with no credential.
    expect(stack.upstreamCalls.filter((c) => c.includes('productthumb'))).toHaveLength(1);

    // A second look is served from the gateway's memory.
    expect((await fetchAsStranger(stack, link)).res.status).toBe(200);
    expect(stack.upstreamCalls.filter((c) => c.includes('productthumb'))).toHaveLength(1);

    const [, , mac] = LINK.exec(link) ?? [];
    const flipped = `${mac!.slice(0, 5)}${mac![5] === 'A' ? 'B' : 'A'}${mac!.slice(6)}`;
    const tampered = [
      link.replace(`/${mac}.png`, `/${flipped}.png`),
      link.replace(`/${designId}/`, `/${Number(designId) - 1}/`),
      link.replace('/thumbnail/demo/', '/thumbnail/druck/'),
      link.replace('/thumbnail/demo/', '/thumbnail/nowhere/'),
      link.replace('.png', '.jpg'),
    ];
    for (const url of tampered) {
      const { res: refused, bytes: body } = await fetchAsStranger(stack, url);
      expect(refused.status, url).toBe(404);
      expect(refused.headers.get('content-type'), url).toMatch(/^text\/plain/);
      expect(new TextDecoder().decode(body), url).toBe('No such thumbnail.');
    }
    // A link cut short is no thumbnail route at all: the gateway's own 404.
    expect((await fetchAsStranger(stack, link.replace(`/${mac}.png`, ''))).res.status).toBe(404);
    // Nothing tampered reached the print service.
    expect(stack.upstreamCalls.filter((c) => c.includes('productthumb'))).toHaveLength(1);
  });

  it('puts the link in ItemDetail/URL for a buyer set to url, and leaves it out for one set to off', async () => {
    const asUrl = await transferredMessage(await createStack(withBuyer('acme', { cartThumbnails: 'url' })));
    expect(/<URL>([^<]+)<\/URL>/.exec(asUrl)?.[1]).toMatch(LINK);
    expect(extrinsic(asUrl, 'proofUrl')).toMatch(/\/proof\//);
    expect(asUrl).not.toContain('name="thumbnailUrl"');

    const off = await transferredMessage(await createStack(withBuyer('acme', { cartThumbnails: 'off' })));
    expect(off).not.toContain('/thumbnail/');
  });
});

describe('an OCI cart line', () => {
  async function transferredItem(settings: Record<string, unknown>, sapLanguage = 'EN') {
    const stack = await createStack(withBuyer('sap1', settings));
    const punchIn = loadPunchIn('srm7-post.json');
    const body = new TextDecoder()
      .decode(punchIn.body)
      .replace('sap-language=EN', `sap-language=${sapLanguage}`);
    const answer = await sendPunchIn(stack, 'sap1', { ...punchIn, body: new TextEncoder().encode(body) });
    const catalog = await stack.browse(answer.headers.get('location') ?? '');
    const german = sapLanguage === 'DE';
    const [product, link] = german
      ? ['Business cards', 'Business cards gestalten']
      : ['Business cards', 'Design Business cards'];
    const cart = await designProduct(stack, catalog, product, { Name: 'Jürgen Müller' }, link);
    const transfer = german
      ? 'Warenkorb an das Beschaffungssystem übertragen'
      : 'Transfer cart to procurement system';
    const form = ociFormOf(await pressButton(stack, cart, transfer));
    return { stack, item: form.items[1] ?? {} };
  }

  it('carries the link as NEW_ITEM-ATTACHMENT for a buyer set to attachment, which SAP can download', async () => {
    const { stack, item } = await transferredItem({ cartThumbnails: 'attachment' });
    expect(item.ATTACHMENT).toMatch(LINK);
    expect(item.ATTACHMENT_TITLE).toBe(`design-${LINK.exec(item.ATTACHMENT ?? '')?.[1]}.png`);
    expect(item.LONGTEXT).toBeUndefined();
    const res = await stack.request(item.ATTACHMENT ?? '');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
  });

  it("as the long text's last line for a buyer set to longtext, and not at all by default", async () => {
    const { item } = await transferredItem({ cartThumbnails: 'longtext' });
    expect(item.LONGTEXT).toMatch(new RegExp(`^Preview: ${LINK.source.slice(1)}`));
    expect(item.ATTACHMENT).toBeUndefined();
    // The line is in the session's language, as the rest of the long text.
    const { item: german } = await transferredItem({ cartThumbnails: 'longtext' }, 'DE');
    expect(german.LONGTEXT).toMatch(new RegExp(`^Vorschau: ${LINK.source.slice(1)}`));
    const { item: plain } = await transferredItem({});
    expect(plain.ATTACHMENT).toBeUndefined();
    expect(plain.LONGTEXT).toBeUndefined();
  });
});

describe('thumbnail links', () => {
  it("are the same whichever runtime's HMAC makes them, so links kept in requisitions stay valid", async () => {
    const keys = { publicUrl: 'https://gw.example.com', signingKey: 'k'.repeat(32) };
    const webCrypto = await thumbnailUrl(keys, 'demo', 5012);
    // The key as links have always been made: an HMAC under SHA-256 of the label and the signing key.
    const raw = await crypto.subtle.digest(
      'SHA-256',
      new TextEncoder().encode(`punchgate:thumbnail:${keys.signingKey}`),
    );
    const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const signed = new Uint8Array(
      await crypto.subtle.sign('HMAC', key, new TextEncoder().encode('demo\n5012')),
    );
    const kept = Buffer.from(signed.subarray(0, 16)).toString('base64url');
    expect(webCrypto).toBe(`https://gw.example.com/thumbnail/demo/5012/${kept}.png`);
    expect(await thumbnailUrl(keys, 'demo', 5012, nodeHmacSha256)).toBe(webCrypto);
    const mac = /\/([^/]+)\.png$/.exec(webCrypto)?.[1] ?? '';
    expect(await isThumbnailMac(keys, 'demo', 5012, mac, nodeHmacSha256)).toBe(true);
    expect(await isThumbnailMac(keys, 'demo', 5013, mac, nodeHmacSha256)).toBe(false);
  });

  it('made under a previous signing key keep working after the key is rotated', async () => {
    const input = testConfig();
    const old = await thumbnailUrl(resolveTestConfig(input), 'demo', 101);
    const rotated: GatewayConfigInput = {
      ...input,
      signingKey: 'rotated-signing-key-0123456789abcdef',
      previousSigningKeys: [input.signingKey as string],
    };
    const stack = await createStack(rotated);
    expect((await stack.request(old)).status).toBe(200);
    const fresh = await thumbnailUrl(resolveTestConfig(rotated), 'demo', 101);
    expect(fresh).not.toBe(old);
    expect((await stack.request(fresh)).status).toBe(200);
    // A link made with a key the gateway does not hold opens nothing.
    const foreign = await thumbnailUrl(
      { ...resolveTestConfig(input), signingKey: 'someone-elses-key-0123456789' },
      'demo',
      101,
    );
    expect((await stack.request(foreign)).status).toBe(404);
  });

  it('of a design the print service does not have: 404, with nothing cached', async () => {
    const stack = await createStack();
    const missing = await thumbnailUrl(resolveTestConfig(testConfig()), 'demo', 424242);
    const res = await stack.request(missing);
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe('No such thumbnail.');
  });
});
