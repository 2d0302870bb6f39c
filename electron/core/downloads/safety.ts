/**
 * A product's file is untrusted input twice: its address (the site wrote it) and its bytes and name
 * (whatever answers). One check per function; each refusal says what was wrong in plain words.
 */
import { CoreError } from '../errors';
import { siteLinkUrl } from '../../common/external-url';
import { isLoopbackHost } from '../net/http';
import type { ViewAs } from '../../common/downloads';

const MAX_URL_LENGTH = 4096;

/**
 * The address a file may be fetched from: https, or http on this computer only (RFC 8252 §8.3's
 * loopback, where the demo sites live); no user name or password in it (RFC 3986 §3.2.1:
 * credentials in a URL are deprecated and would be sent to whoever answers). The fragment is
 * dropped (never sent). For the site at `siteOrigin`: plain http only when the site is on loopback
 * itself, and an address on this computer or its network only when the site is there too
 * (common/external-url.ts siteLinkUrl); a name that resolves there is stopped when it is connected
 * to (fileGetFor).
 */
export function checkFileUrl(raw: string, siteOrigin: string): URL {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_URL_LENGTH)
    throw refuse('The file’s address is missing or too long.');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('The file’s address is not a valid web address.');
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname))
      throw refuse('The file’s address is not secure (http). Only https addresses are downloaded.');
  } else if (url.protocol !== 'https:') {
    throw refuse(
      `The file’s address uses ${url.protocol.replace(/:$/, '')}, which the app does not download from.`,
    );
  }
  if (url.username !== '' || url.password !== '')
    throw refuse(
      'The file’s address carries a user name or password; the app does not send those.',
    );
  if (siteLinkUrl(url.href, siteOrigin) === null)
    throw refuse(
      'The file’s address points at this computer or its local network, which a school on the Internet may not do.',
    );
  url.hash = '';
  return url;
}

function refuse(message: string): CoreError {
  return new CoreError('forbidden', message, { reason: 'unsafe-address' });
}

/** Windows device names: a file called `CON` or `nul.txt` cannot be created or opens a device. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

const MAX_NAME_CHARS = 120;

/**
 * A file name that is safe to create in the app's folder, from what the site suggested: no folder
 * parts (only the last segment after / or \), no control, bidirectional-override or
 * Windows-forbidden characters, no leading or trailing dots and spaces, no device name, at most 120
 * characters (the extension kept). Only the types the app opens itself keep their extension (an
 * allow-list: a list of what systems run or install is never complete:
 * `.application`, `.appref-ms`, `.chm`, `.jnlp`, `.terminal`, `.fileloc`, `.html`, Office macro
 * formats...); any other becomes `<name>.download`, which no system opens with a program of the
 * file's choosing. The extension is judged whole before any length rule, so a long one
 * (`x.SettingContent-ms`) is not mistaken for part of the name.
 */
export function sanitizeFileName(suggested: string, fallback = 'download'): string {
  let name = suggested.normalize('NFC');
  name = name.split(/[/\\]/).pop() ?? '';
  // C0/C1 controls, DEL, and the bidi controls that can show "exe.pdf" for "fdp.exe" (U+202A-202E,
  // U+2066-2069, U+200E/200F, U+061C).
  name = name.replace(/[\p{Cc}\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/gu, '');
  name = name.replace(/[<>:"|?*]/g, '_');
  name = name.replace(/^[\s.]+|[\s.]+$/g, '');
  if (name === '') name = sanitizeFallback(fallback);
  const dot = name.lastIndexOf('.');
  let stem = dot > 0 ? name.slice(0, dot) : name;
  let ext = dot > 0 ? name.slice(dot + 1) : '';
  if (RESERVED.test(stem.split('.')[0]!.trim())) stem = `_${stem}`;
  const kept = ext === '' || keepsExtension(ext);
  if (ext.length > 16) {
    // Too long to be shown as an extension: part of the name (it was judged above, so it never
    // keeps it).
    stem = `${stem}.${ext}`;
    ext = '';
  }
  if (stem.length > MAX_NAME_CHARS) stem = stem.slice(0, MAX_NAME_CHARS).replace(/[\s.]+$/, '');
  name = ext ? `${stem}.${ext}` : stem;
  return kept ? name : `${name}.download`;
}

/**
 * Whether a file saved with this extension keeps it: only the types the app opens inline (INLINE
 * below).
 */
export function keepsExtension(ext: string): boolean {
  return Object.hasOwn(INLINE, ext.toLowerCase());
}

function sanitizeFallback(fallback: string): string {
  const cleaned = fallback
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .trim()
    .slice(0, MAX_NAME_CHARS);
  return cleaned === '' ? 'download' : cleaned;
}

/**
 * The name the site suggests (RFC 6266 Content-Disposition: `filename*` in RFC 8187 UTF-8 first,
 * then `filename`), else the address's last path segment, else the product's title. Not yet
 * sanitised.
 */
export function suggestedName(
  contentDisposition: string | undefined,
  url: URL,
  title: string,
): string {
  if (contentDisposition) {
    const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(contentDisposition);
    if (star) {
      try {
        return decodeURIComponent(star[1]!.trim());
      } catch {
        // Malformed percent-encoding: fall through to the plain parameter.
      }
    }
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/.exec(contentDisposition);
    if (plain) return (plain[1] ?? plain[2] ?? '').replace(/\\(.)/g, '$1');
  }
  const segment = url.pathname.split('/').pop() ?? '';
  try {
    const decoded = decodeURIComponent(segment);
    if (decoded !== '') return decoded;
  } catch {
    if (segment !== '') return segment;
  }
  return title;
}

/**
 * The types opened inside the app, by extension: the file's first bytes must agree (sniffed at
 * save).
 */
const INLINE: Readonly<
  Record<
    string,
    {
      readonly viewAs: ViewAs;
      readonly mimeType: string;
      readonly magic: (head: Buffer) => boolean;
    }
  >
> = {
  pdf: {
    viewAs: 'pdf',
    mimeType: 'application/pdf',
    magic: (h) => starts(h, '%PDF-'),
  },
  png: {
    viewAs: 'image',
    mimeType: 'image/png',
    magic: (h) =>
      h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  jpg: {
    viewAs: 'image',
    mimeType: 'image/jpeg',
    magic: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  },
  jpeg: {
    viewAs: 'image',
    mimeType: 'image/jpeg',
    magic: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  },
  gif: {
    viewAs: 'image',
    mimeType: 'image/gif',
    magic: (h) => starts(h, 'GIF87a') || starts(h, 'GIF89a'),
  },
  webp: {
    viewAs: 'image',
    mimeType: 'image/webp',
    magic: (h) => starts(h, 'RIFF') && h.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  wav: {
    viewAs: 'audio',
    mimeType: 'audio/wav',
    magic: (h) => starts(h, 'RIFF') && h.subarray(8, 12).toString('latin1') === 'WAVE',
  },
  mp3: {
    viewAs: 'audio',
    mimeType: 'audio/mpeg',
    magic: (h) => starts(h, 'ID3') || (h[0] === 0xff && ((h[1] ?? 0) & 0xe0) === 0xe0),
  },
  ogg: {
    viewAs: 'audio',
    mimeType: 'audio/ogg',
    magic: (h) => starts(h, 'OggS'),
  },
  oga: {
    viewAs: 'audio',
    mimeType: 'audio/ogg',
    magic: (h) => starts(h, 'OggS'),
  },
  m4a: {
    viewAs: 'audio',
    mimeType: 'audio/mp4',
    magic: (h) => h.subarray(4, 8).toString('latin1') === 'ftyp',
  },
  flac: {
    viewAs: 'audio',
    mimeType: 'audio/flac',
    magic: (h) => starts(h, 'fLaC'),
  },
  mp4: {
    viewAs: 'video',
    mimeType: 'video/mp4',
    magic: (h) => h.subarray(4, 8).toString('latin1') === 'ftyp',
  },
  m4v: {
    viewAs: 'video',
    mimeType: 'video/mp4',
    magic: (h) => h.subarray(4, 8).toString('latin1') === 'ftyp',
  },
  webm: {
    viewAs: 'video',
    mimeType: 'video/webm',
    magic: (h) => h.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])),
  },
};

function starts(head: Buffer, text: string): boolean {
  return head.subarray(0, text.length).toString('latin1') === text;
}

/**
 * How a saved file opens in the app: its extension names an inline type AND its first bytes are
 * that type.
 */
export function detectViewAs(name: string, head: Buffer): ViewAs | null {
  const entry = INLINE[extensionOf(name)];
  return entry && entry.magic(head) ? entry.viewAs : null;
}

/** The Content-Type a saved file is served with inside the app (only for the inline types). */
export function inlineMimeType(name: string): string | null {
  return INLINE[extensionOf(name)]?.mimeType ?? null;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * The whole representation's SHA-256 the site declared, if any: RFC 9530
 * `Repr-Digest: sha-256=:<base64>:` (the same on a 206 as on a 200), or RFC 3230's
 * `Digest: SHA-256=<base64>`. Other algorithms are not checked.
 */
export function declaredSha256(
  reprDigest: string | undefined,
  digest: string | undefined,
): string | null {
  const sf = reprDigest && /(?:^|,)\s*sha-256=:([A-Za-z0-9+/=]+):/.exec(reprDigest);
  if (sf) return Buffer.from(sf[1]!, 'base64').toString('hex');
  const legacy = digest && /(?:^|,)\s*sha-256=([A-Za-z0-9+/=]+)/i.exec(digest);
  if (legacy) return Buffer.from(legacy[1]!, 'base64').toString('hex');
  return null;
}
