/**
 * A minimal PNG encoder (8-bit RGBA, no interlace) on fflate's zlib.
 *
 * Why hand-written: pngjs needs node:zlib and node:stream (its browser build is a bundle of Node polyfills),
 * and fast-png would add pako and iobuffer beside the fflate we already ship. A PNG is three chunk types and
 * a CRC, so this file is all that Cloudflare Workers and Node both need.
 */

import { zlibSync } from 'fflate';

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * Encodes RGBA pixels (row-major, 4 bytes a pixel) as a PNG file.
 *
 * @example
 * const png = encodePng(new Uint8Array(4 * 2 * 2).fill(255), 2, 2); // a white 2×2 image
 */
export function encodePng(rgba: Uint8Array, width: number, height: number): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new TypeError(`PNG size must be positive integers, got ${width}×${height}`);
  }
  if (rgba.length !== width * height * 4) {
    throw new TypeError(`PNG pixel data must be ${width * height * 4} bytes, got ${rgba.length}`);
  }
  const header = new Uint8Array(13);
  const headerView = new DataView(header.buffer);
  headerView.setUint32(0, width);
  headerView.setUint32(4, height);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  // compression, filter method and interlace stay 0

  // Each scanline starts with its filter type; 0 (none) suits flat-colour pictures well enough.
  const stride = width * 4;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);

  const parts = [
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', zlibSync(raw, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
