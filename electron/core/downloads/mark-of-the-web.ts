/**
 * A saved product file is marked as coming from the Internet, as a browser marks its downloads, so
 * the system's own checks apply when the student opens it from the file manager (the app itself
 * never runs it):
 * - Windows: the `Zone.Identifier` alternate data stream (NTFS), ZoneId=3 (URLZONE_INTERNET):
 *   SmartScreen, Office's Protected View and "this file came from another computer" read it.
 * - macOS: the `com.apple.quarantine` extended attribute: Gatekeeper and LaunchServices read it.
 * - Linux and others: no system facility reads such a mark; nothing is written.
 * Best effort: a file system without streams or attributes (FAT, a network share) keeps the file unmarked, said in the
 * log, never a failed save.
 */
import { execFile as nodeExecFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';

/** Where the file came from: its address and the school's site. */
export interface FileSource {
  readonly url: string;
  readonly siteOrigin: string;
}

/**
 * What marking needs from the system: injected by tests where the platform or its facility is
 * absent.
 */
export interface MarkDeps {
  readonly platform: NodeJS.Platform;
  readonly writeFile: (path: string, data: string) => Promise<void>;
  readonly execFile: (file: string, args: readonly string[]) => Promise<void>;
  readonly now: () => number;
  readonly uuid: () => string;
}

export type MarkKind = 'zone-identifier' | 'quarantine' | 'none';

/** The app's name as the systems show it ("downloaded by Learning Desktop"). */
const AGENT = 'Learning Desktop';
/** macOS ships it; an absolute path, so nothing on PATH stands in for it. */
const XATTR = '/usr/bin/xattr';

/**
 * An address as it is written into the mark: origin and path, without query or fragment (a CDN's
 * signed address carries its signature there, and the mark is readable by any program).
 */
export function markedAddress(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.origin}${url.pathname}`;
  } catch {
    return '';
  }
}

/**
 * The Zone.Identifier stream's text (INI, CRLF), as browsers write it: zone 3 is the Internet zone.
 */
export function zoneIdentifier(source: FileSource): string {
  const lines = ['[ZoneTransfer]', 'ZoneId=3'];
  const referrer = markedAddress(source.siteOrigin);
  const host = markedAddress(source.url);
  if (referrer !== '') lines.push(`ReferrerUrl=${referrer}`);
  if (host !== '') lines.push(`HostUrl=${host}`);
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The quarantine attribute's value: `flags;seconds since 1970 in hex;agent;event UUID`. Flags 0081:
 * downloaded (0x0001) by an app that is not quarantine-aware itself (0x0080), the value browsers
 * and download tools write.
 */
export function quarantineValue(now: number, uuid: string): string {
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0');
  return `0081;${seconds};${AGENT};${uuid.toUpperCase()}`;
}

/** Which mark this platform gets. */
export function markKindFor(platform: NodeJS.Platform): MarkKind {
  if (platform === 'win32') return 'zone-identifier';
  if (platform === 'darwin') return 'quarantine';
  return 'none';
}

export const systemMarkDeps: MarkDeps = {
  platform: process.platform,
  writeFile: (path, data) => writeFile(path, data, { encoding: 'utf8' }),
  execFile: (file, args) =>
    new Promise<void>((resolve, reject) => {
      nodeExecFile(file, [...args], { timeout: 10_000, windowsHide: true }, (error) =>
        error ? reject(error) : resolve(),
      );
    }),
  now: () => Date.now(),
  uuid: () => randomUUID(),
};

/**
 * Marks the file at `path` (complete, in place) as downloaded from the Internet. Resolves with the
 * mark written.
 */
export async function markFromInternet(
  path: string,
  source: FileSource,
  deps: MarkDeps = systemMarkDeps,
): Promise<MarkKind> {
  const kind = markKindFor(deps.platform);
  switch (kind) {
    case 'zone-identifier':
      // NTFS: `file:stream` names an alternate data stream of the file; the file's own bytes are
      // untouched.
      await deps.writeFile(`${path}:Zone.Identifier`, zoneIdentifier(source));
      return kind;
    case 'quarantine':
      // No shell: the arguments go to xattr as they are.
      await deps.execFile(XATTR, [
        '-w',
        'com.apple.quarantine',
        quarantineValue(deps.now(), deps.uuid()),
        path,
      ]);
      return kind;
    case 'none':
      return kind;
  }
}
