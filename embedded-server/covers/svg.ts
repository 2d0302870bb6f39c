import { createHash } from 'node:crypto';

/**
 * A course's generated cover: 640×360 SVG, a two-colour gradient and a geometric motif derived from
 * a hash of the slug (the same course always gets the same cover), and the title wrapped over a few
 * lines. Pure: no I/O, no clock, no randomness. The SVG holds no script, no external reference and
 * no link; every piece of text in it is XML-escaped.
 */

export const COVER_WIDTH = 640;
export const COVER_HEIGHT = 360;
const MARGIN = 48;
const TEXT_WIDTH = COVER_WIDTH - 2 * MARGIN;
const FONT_FAMILY =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans TC', 'PingFang TC', 'Microsoft JhengHei', sans-serif";
/**
 * Font sizes tried largest first; the first one at which the title fits in its line budget wins.
 */
const SIZES = [48, 42, 36, 30, 26] as const;
const LINE_HEIGHT = 1.25;

/**
 * Characters XML 1.0 §2.2 does not allow at all (C0 controls except tab/newline/return,
 * U+FFFE/U+FFFF, lone surrogates).
 */
const NOT_XML_CHAR =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text and attribute values for XML: the five predefined entities, and characters XML cannot carry
 * dropped.
 */
export function escapeXml(value: string): string {
  return value
    .replace(NOT_XML_CHAR, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * Wide (East Asian full-width) characters: about 1 em each, and a line may break between any two of
 * them.
 */
const WIDE_RANGES =
  '\\u1100-\\u115F\\u2E80-\\uA4CF\\uAC00-\\uD7A3\\uF900-\\uFAFF\\uFE30-\\uFE4F\\uFF00-\\uFF60\\uFFE0-\\uFFE6\\u{20000}-\\u{3FFFD}';
const WIDE = new RegExp(`[${WIDE_RANGES}]`, 'u');
/**
 * Break opportunities: one wide character, a run of other non-space characters, or a run of spaces.
 */
const TOKENS = new RegExp(`[${WIDE_RANGES}]|[^\\s${WIDE_RANGES}]+|\\s+`, 'gu');

/**
 * Rough advance of one character in em, measured on the widest common bold sans-serif (DejaVu Sans
 * Bold, the Linux fallback) so lines stay inside the picture with narrower fonts (Segoe UI, SF)
 * too.
 */
function charWidth(ch: string): number {
  if (WIDE.test(ch)) return 1;
  if (/\s/.test(ch)) return 0.35;
  if (/[ijlft.,:;'!|()[\]]/.test(ch)) return 0.4;
  if (/[mwMW@%]/.test(ch)) return 1.05;
  if (/[A-Z0-9&?#<>"]/.test(ch)) return 0.8;
  return 0.7;
}

const widthOf = (text: string, size: number): number =>
  [...text].reduce((w, ch) => w + charWidth(ch), 0) * size;

/**
 * Greedy line breaking: between words, between wide characters, and inside a word only when it
 * alone is too long.
 */
export function wrapTitle(title: string, size: number, maxWidth: number = TEXT_WIDTH): string[] {
  const tokens = title.trim().match(TOKENS) ?? [];
  const lines: string[] = [];
  let line = '';
  const push = () => {
    if (line.trim() !== '') lines.push(line.trim());
    line = '';
  };
  for (const token of tokens) {
    if (/^\s+$/.test(token)) {
      if (line !== '') line += ' ';
      continue;
    }
    if (widthOf(line + token, size) <= maxWidth) {
      line += token;
      continue;
    }
    if (line.trim() !== '') push();
    if (widthOf(token, size) <= maxWidth) {
      line = token;
      continue;
    }
    for (const ch of token) {
      if (widthOf(line + ch, size) > maxWidth && line !== '') push();
      line += ch;
    }
  }
  push();
  return lines;
}

/**
 * The title's lines and font size: the largest size at which it fits without leaving one or two
 * characters alone on the last line (else the largest that fits); at the smallest size, the last
 * line ends in an ellipsis.
 */
export function layoutTitle(title: string): { size: number; lines: string[] } {
  let fallback: { size: number; lines: string[] } | null = null;
  for (const size of SIZES) {
    const lines = wrapTitle(title, size);
    if (lines.length > maxLines(size)) continue;
    const orphan = lines.length > 1 && [...lines[lines.length - 1]!].length <= 2;
    if (!orphan) return { size, lines };
    fallback ??= { size, lines };
  }
  if (fallback) return fallback;
  const size = SIZES[SIZES.length - 1];
  const lines = wrapTitle(title, size).slice(0, maxLines(size));
  let last = lines[lines.length - 1] ?? '';
  while (last !== '' && widthOf(`${last}…`, size) > TEXT_WIDTH)
    last = [...last].slice(0, -1).join('').trimEnd();
  lines[lines.length - 1] = `${last}…`;
  return { size, lines };
}

function maxLines(size: number): number {
  return size >= 36 ? 3 : 4;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}

/** WCAG 2.x relative luminance of an sRGB colour with channels in 0..1. */
function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

const hex = (rgb: [number, number, number]) =>
  `#${rgb
    .map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/**
 * A colour of the given hue and saturation, darkened until white text on it has at least 4.5:1
 * contrast (WCAG 2.x 1.4.3, the bar for normal text; the title is large bold text, which needs only
 * 3:1).
 */
function darkEnough(h: number, s: number, l: number): string {
  let light = l;
  while (light > 0.05 && 1.05 / (luminance(hslToRgb(h, s, light)) + 0.05) < 4.5) light -= 0.02;
  return hex(hslToRgb(h, s, light));
}

/**
 * Gradient colours and motif of a slug. Exported for tests: different slugs should rarely look
 * alike.
 */
export function coverPalette(slug: string): {
  from: string;
  to: string;
  motif: number;
  seed: Buffer;
} {
  const seed = createHash('sha256').update(slug, 'utf8').digest();
  const hue = ((seed[0]! << 8) | seed[1]!) % 360;
  const hue2 = (hue + 40 + (seed[2]! % 80)) % 360;
  const from = darkEnough(hue, 0.55 + (seed[3]! % 20) / 100, 0.34 + (seed[4]! % 10) / 100);
  const to = darkEnough(hue2, 0.55 + (seed[5]! % 20) / 100, 0.26 + (seed[6]! % 10) / 100);
  return { from, to, motif: seed[7]! % 3, seed };
}

/**
 * Light, low-contrast shapes in the right-hand part of the picture, away from most of the title.
 */
function motif(kind: number, seed: Buffer): string {
  const n = (i: number) => seed[8 + i]!;
  switch (kind) {
    case 0: {
      const cx = 520 + (n(0) % 80);
      const cy = 40 + (n(1) % 80);
      return [90, 150, 210]
        .map(
          (r) =>
            `<circle cx="${cx}" cy="${cy}" r="${r + (n(2) % 20)}" fill="none" stroke="#ffffff" stroke-opacity="0.12" stroke-width="16"/>`,
        )
        .join('');
    }
    case 1: {
      const start = 380 + (n(0) % 60);
      const gap = 36 + (n(1) % 16);
      return [0, 1, 2, 3, 4, 5]
        .map(
          (i) =>
            `<line x1="${start + i * gap}" y1="0" x2="${start + i * gap + 160}" y2="${COVER_HEIGHT}" stroke="#ffffff" stroke-opacity="0.1" stroke-width="14"/>`,
        )
        .join('');
    }
    default: {
      const tri = (x: number, y: number, s: number) =>
        `<path d="M${x} ${y}l${s} 0l${-s / 2} ${Math.round(s * 0.866)}z" fill="#ffffff" fill-opacity="0.1"/>`;
      return [
        tri(430 + (n(0) % 40), 30, 120),
        tri(520 + (n(1) % 30), 150 + (n(2) % 40), 90),
        tri(470, 250 + (n(3) % 30), 70),
      ].join('');
    }
  }
}

/**
 * The cover SVG of a course. `slug` picks the colours and motif; `title` is drawn (escaped,
 * wrapped).
 */
export function renderCoverSvg(slug: string, title: string): string {
  const { from, to, motif: kind, seed } = coverPalette(slug);
  const { size, lines } = layoutTitle(title);
  const lineHeight = Math.round(size * LINE_HEIGHT);
  const blockHeight = lineHeight * lines.length;
  // Baseline of the first line: the block centred vertically, ascent ≈ 0.8 em.
  const first = Math.round((COVER_HEIGHT - blockHeight) / 2 + size * 0.8);
  const text = lines
    .map(
      (line, i) =>
        `<text x="${MARGIN}" y="${first + i * lineHeight}" font-size="${size}">${escapeXml(line)}</text>`,
    )
    .join('');
  const label = escapeXml(title);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}" viewBox="0 0 ${COVER_WIDTH} ${COVER_HEIGHT}" role="img" aria-label="${label}">` +
    `<title>${label}</title>` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
    `<rect width="${COVER_WIDTH}" height="${COVER_HEIGHT}" fill="url(#g)"/>` +
    motif(kind, seed) +
    `<rect x="${MARGIN}" y="${first - size - 18}" width="56" height="6" rx="3" fill="#ffffff" fill-opacity="0.7"/>` +
    `<g fill="#ffffff" font-family="${escapeXml(FONT_FAMILY)}" font-weight="700">${text}</g>` +
    `</svg>`
  );
}
