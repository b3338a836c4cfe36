import { unzipSync } from 'fflate';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import {
  buildItemAssetsZip,
  buildItemZip,
  buildOrderZip,
  buildZip,
  itemAssetsZipFileName,
  itemZipFileName,
  orderZipFileName,
} from '../../../src/print/media/index.ts';
import { savedCard } from './sample-products.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const producedAt = new Date('2025-03-01T12:00:00Z');

/** Central-directory file names in archive order, read straight from the bytes. */
function entryNames(zip: Uint8Array): string[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.byteLength - 22;
  expect(view.getUint32(end, true)).toBe(0x06054b50);
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const nameLength = view.getUint16(offset + 28, true);
    const extra = view.getUint16(offset + 30, true);
    const comment = view.getUint16(offset + 32, true);
    names.push(new TextDecoder().decode(zip.subarray(offset + 46, offset + 46 + nameLength)));
    offset += 46 + nameLength + extra + comment;
  }
  return names;
}

describe('buildZip', () => {
  it('round-trips names and contents through fflate, keeping the given order', () => {
    const zip = buildZip([
      { name: 'b.txt', data: bytes('second letter') },
      { name: 'folder/a.pdf', data: bytes('%PDF-1.7') },
      { name: '10-20.pdf', data: new Uint8Array([0, 1, 2, 255]) },
    ]);
    expect(entryNames(zip)).toEqual(['b.txt', 'folder/a.pdf', '10-20.pdf']);
    const files = unzipSync(zip);
    expect(new TextDecoder().decode(files['b.txt'])).toBe('second letter');
    expect(new TextDecoder().decode(files['folder/a.pdf'])).toBe('%PDF-1.7');
    expect([...files['10-20.pdf']!]).toEqual([0, 1, 2, 255]);
  });

  it('is deterministic and stamps every entry 1980-01-01 00:00 (DOS date 0x0021, time 0)', () => {
    const entries = [{ name: 'x.txt', data: bytes('same') }];
    const first = buildZip(entries);
    expect(buildZip(entries)).toEqual(first);
    const view = new DataView(first.buffer, first.byteOffset);
    expect(view.getUint16(10, true)).toBe(0);
    expect(view.getUint16(12, true)).toBe(0x0021);
  });

  it.each([
    ['', 'empty'],
    ['/etc/passwd', 'absolute'],
    ['../escape.pdf', 'parent segment'],
    ['a//b.pdf', 'empty segment'],
    ['a\\b.pdf', 'backslash'],
    ['123', 'all digits'],
  ])('refuses the name %j (%s)', (name) => {
    expect(() => buildZip([{ name, data: bytes('x') }])).toThrow(TypeError);
  });

  it('refuses duplicate names', () => {
    expect(() =>
      buildZip([
        { name: 'a.pdf', data: bytes('1') },
        { name: 'a.pdf', data: bytes('2') },
      ]),
    ).toThrow('duplicate ZIP entry name: a.pdf');
  });
});

describe('download archives', () => {
  it('names the attachments as the interface does', () => {
    expect(orderZipFileName(5001)).toBe('order-5001.zip');
    expect(itemZipFileName(7001)).toBe('item-7001.zip');
    expect(itemAssetsZipFileName(7001)).toBe('item-assets-7001.zip');
  });

  it('puts one print PDF per item in the order ZIP', async () => {
    const zip = await buildOrderZip(
      5001,
      [
        { itemId: 7001, quantity: 250, design: savedCard },
        { itemId: 7002, quantity: 1, design: { ...savedCard, productId: 202, widthIn: 4, heightIn: 2 } },
      ],
      producedAt,
    );
    expect(entryNames(zip)).toEqual(['5001-7001.pdf', '5001-7002.pdf']);
    for (const data of Object.values(unzipSync(zip))) {
      expect(new TextDecoder().decode(data.subarray(0, 5))).toBe('%PDF-');
    }
    expect(
      await buildOrderZip(5001, [{ itemId: 7001, quantity: 250, design: savedCard }], producedAt),
    ).toEqual(await buildOrderZip(5001, [{ itemId: 7001, quantity: 250, design: savedCard }], producedAt));
  });

  it('puts the item print PDF in the item ZIP', async () => {
    const zip = await buildItemZip(5001, { itemId: 7001, quantity: 250, design: savedCard }, producedAt);
    expect(entryNames(zip)).toEqual(['5001-7001.pdf']);
  });

  it('puts the design image and each shown image item in the assets ZIP', () => {
    const files = unzipSync(buildItemAssetsZip(7001, savedCard));
    expect(Object.keys(files)).toEqual(['design-7001.png', 'images/logo.png', 'images/photo-14.png']);
    const design = PNG.sync.read(Buffer.from(files['design-7001.png']!));
    expect([design.width, design.height]).toEqual([525, 300]); // 3.5 × 2 in at 150 ppi
    const photo = PNG.sync.read(Buffer.from(files['images/photo-14.png']!));
    expect([photo.width, photo.height]).toEqual([1024, 1024]);
  });

  it('leaves hidden image items out and makes unsafe tag names file-safe', () => {
    const design = { ...savedCard, tags: { logo: 'false', '../Front photo': '7' } };
    expect(Object.keys(unzipSync(buildItemAssetsZip(9, design)))).toEqual([
      'design-9.png',
      'images/__Front_photo-7.png',
    ]);
    expect(Object.keys(unzipSync(buildItemAssetsZip(9, { ...savedCard, tags: {} })))).toEqual([
      'design-9.png',
    ]);
  });
});
