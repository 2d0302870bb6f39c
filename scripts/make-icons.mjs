#!/usr/bin/env node
// Writes build/icon.png (512×512, the source electron-builder turns into .icns/.ico) from the same
// shapes as build/icon.svg, with no image library: a tiny rasteriser and a PNG encoder (zlib +
// CRC-32, RFC 2083).
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
const px = Buffer.alloc(SIZE * SIZE * 4);
const hex = (h) => [
  parseInt(h.slice(1, 3), 16),
  parseInt(h.slice(3, 5), 16),
  parseInt(h.slice(5, 7), 16),
];
const set = (x, y, [r, g, b], a = 255) => {
  const i = (y * SIZE + x) * 4;
  px[i] = r;
  px[i + 1] = g;
  px[i + 2] = b;
  px[i + 3] = a;
};
const inRoundRect = (x, y, x0, y0, w, h, r) => {
  const cx = Math.min(Math.max(x, x0 + r), x0 + w - r);
  const cy = Math.min(Math.max(y, y0 + r), y0 + h - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= x0 && x < x0 + w && y >= y0 && y < y0 + h;
};
// Quadratic top edge from (xa,ya) via control (xc,yc) to (xb,yb): y of the curve at x.
const quadY = (x, xa, ya, xc, yc, xb, yb) => {
  // Solve x(t) = x for t on [0,1] by bisection (x(t) is monotonic for these shapes).
  let lo = 0;
  let hi = 1;
  const xt = (t) => (1 - t) ** 2 * xa + 2 * (1 - t) * t * xc + t * t * xb;
  const increasing = xb > xa;
  for (let k = 0; k < 30; k++) {
    const mid = (lo + hi) / 2;
    if (xt(mid) < x === increasing) lo = mid;
    else hi = mid;
  }
  const t = (lo + hi) / 2;
  return (1 - t) ** 2 * ya + 2 * (1 - t) * t * yc + t * t * yb;
};
const top = hex('#3b5bdb');
const bottom = hex('#1c2f8c');
for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    if (!inRoundRect(x, y, 16, 16, 480, 480, 96)) continue;
    const t = y / SIZE;
    set(
      x,
      y,
      top.map((c, i) => Math.round(c + (bottom[i] - c) * t)),
    );
    // Left page: x 96..248, top curve 150→(176,120)→160, bottom curve 372→(176,348)→384.
    if (
      x >= 96 &&
      x < 248 &&
      y >= quadY(x, 96, 150, 176, 120, 248, 160) &&
      y <= quadY(x, 96, 372, 176, 348, 248, 384)
    )
      set(x, y, hex('#ffffff'));
    if (
      x >= 264 &&
      x < 416 &&
      y >= quadY(x, 416, 150, 336, 120, 264, 160) &&
      y <= quadY(x, 416, 372, 336, 348, 264, 384)
    )
      set(x, y, hex('#e7ecff'));
    if (x >= 248 && x < 264 && y >= 160 && y < 384) set(x, y, hex('#c5d0fa'));
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++)
  px.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('../build/icon.png', import.meta.url), png);
console.log(`build/icon.png written (${png.length} bytes)`);
