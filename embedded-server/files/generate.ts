/**
 * The demo's digital product files, generated from the product (README, decision "Product files"):
 * a small PDF, a WAV tone sequence and a PNG poster, byte-for-byte the same on every run and
 * machine (no dates, no randomness, zlib at a fixed level), so an ETag made from the bytes is
 * stable across restarts.
 */
import { deflateSync } from 'node:zlib';

/** The file for a product's stored name, by its extension; null for any other type. */
export function renderProductFile(
  productId: string,
  title: string,
  fileName: string,
): Buffer | null {
  const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  const seed = [...productId].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);
  if (ext === 'pdf') return renderPdf(asciiTitle(title, productId), seed);
  if (ext === 'wav') return renderWav(seed);
  if (ext === 'png') return renderPng(seed);
  return null;
}

/**
 * The standard PDF fonts have no CJK glyphs: the title's Latin part (the demo titles are
 * bilingual).
 */
function asciiTitle(title: string, fallback: string): string {
  const ascii = title.replace(/[^\x20-\x7e]/g, '').trim();
  return (ascii || fallback).replace(/[()\\]/g, '');
}

// ---------------------------------------------------------------- PDF (ISO 32000-1 §7.5: header,
// objects, xref, trailer)

function renderPdf(title: string, seed: number): Buffer {
  const pages = 12;
  const objects: string[] = [];
  // 1 catalog, 2 pages, 3 font, then a page and its content stream per page.
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  const kids = Array.from({ length: pages }, (_, i) => `${4 + i * 2} 0 R`).join(' ');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let p = 0; p < pages; p++) {
    const lines = [
      `BT /F1 20 Tf 56 780 Td (${title}) Tj ET`,
      `BT /F1 10 Tf 56 760 Td (Page ${p + 1} of ${pages} - Learning Desktop demo file) Tj ET`,
    ];
    for (let l = 0; l < 60; l++) {
      const n = (seed + p * 61 + l * 17) % 997;
      lines.push(
        `BT /F1 9 Tf 56 ${735 - l * 11} Td (${p + 1}.${l + 1}  SELECT column_${n} FROM table_${n % 37} WHERE id = ${n * 3} ORDER BY ${n % 7};) Tj ET`,
      );
    }
    const stream = lines.join('\n');
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + p * 2} 0 R >>`,
    );
    objects.push(
      `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    );
  }
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

// ---------------------------------------------------------------- WAV (RIFF, PCM 16-bit mono, 8
// kHz)

function renderWav(seed: number): Buffer {
  const rate = 8000;
  const seconds = 6;
  const samples = rate * seconds;
  const data = Buffer.alloc(samples * 2);
  const notes = [262, 294, 330, 349, 392, 440, 494, 523];
  for (let i = 0; i < samples; i++) {
    const note = notes[(Math.floor(i / (rate / 2)) + seed) % notes.length]!;
    const envelope = Math.min(1, (i % (rate / 2)) / 200) * 0.4;
    data.writeInt16LE(
      Math.round(Math.sin((2 * Math.PI * note * i) / rate) * envelope * 32767),
      i * 2,
    );
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

// ---------------------------------------------------------------- PNG (RFC 2083: signature, IHDR,
// IDAT, IEND)

function renderPng(seed: number): Buffer {
  const width = 640;
  const height = 400;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const band = Math.floor((x + y + seed) / 40) % 6;
      const i = row + 1 + x * 3;
      raw[i] = 40 + band * 30;
      raw[i + 1] = 90 + ((x * 7 + seed) % 120);
      raw[i + 2] = 160 + ((y * 3) % 90);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
