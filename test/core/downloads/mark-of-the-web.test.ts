import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DownloadManager } from '../../../electron/core/downloads/manager';
import {
  markFromInternet,
  markKindFor,
  quarantineValue,
  systemMarkDeps,
  zoneIdentifier,
  type MarkDeps,
} from '../../../electron/core/downloads/mark-of-the-web';
import {
  managerFor,
  pdfLike,
  product,
  SITE,
  startFileServer,
  type FileServer,
} from '../helpers/file-server';
import { savedFilesIn } from './helpers';

/**
 * Saved product files carry the Internet's mark, as a browser's downloads do: Windows'
 * Zone.Identifier stream and macOS's com.apple.quarantine attribute. Here (Linux) the writers run
 * with an injected platform and file system, through the real download manager over real HTTP; the
 * tests at the end read the real mark back and run only on Windows (NTFS) and macOS.
 */
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Another platform's facility, recorded: the stream written, or the command run. */
function recording(
  platform: NodeJS.Platform,
): MarkDeps & { streams: Map<string, string>; commands: (readonly string[])[] } {
  const streams = new Map<string, string>();
  const commands: (readonly string[])[] = [];
  return {
    platform,
    streams,
    commands,
    writeFile: async (path, data) => void streams.set(path, data),
    execFile: async (file, args) => void commands.push([file, ...args]),
    now: () => Date.UTC(2026, 5, 1),
    uuid: () => '0d4c5c1e-8f5b-4a53-9b39-3b1f1c1a2b3c',
  };
}

describe('the mark (decision and text)', () => {
  it('Windows gets the Zone.Identifier stream, macOS the quarantine attribute, others nothing', () => {
    expect(markKindFor('win32')).toBe('zone-identifier');
    expect(markKindFor('darwin')).toBe('quarantine');
    expect(markKindFor('linux')).toBe('none');
    expect(markKindFor('freebsd')).toBe('none');
  });

  it('Zone.Identifier: the Internet zone, the school and the file, without the address query (a signed URL)', () => {
    expect(
      zoneIdentifier({
        url: 'https://cdn.example.net/f/a.pdf?sig=SECRET&exp=1#x',
        siteOrigin: 'https://school.example',
      }),
    ).toBe(
      '[ZoneTransfer]\r\nZoneId=3\r\nReferrerUrl=https://school.example/\r\nHostUrl=https://cdn.example.net/f/a.pdf\r\n',
    );
  });

  it('com.apple.quarantine: flags, the time in hex, the app, the event', () => {
    expect(quarantineValue(Date.UTC(2026, 5, 1), '0d4c5c1e-8f5b-4a53-9b39-3b1f1c1a2b3c')).toBe(
      `0081;${(Date.UTC(2026, 5, 1) / 1000).toString(16)};Learning Desktop;0D4C5C1E-8F5B-4A53-9B39-3B1F1C1A2B3C`,
    );
  });

  it('the writers: a stream beside the file on Windows, xattr (no shell) on macOS, nothing elsewhere', async () => {
    const source = { url: 'https://cdn.example.net/a.pdf', siteOrigin: 'https://school.example' };
    const win = recording('win32');
    expect(await markFromInternet('C:\\Users\\s\\a.pdf', source, win)).toBe('zone-identifier');
    expect([...win.streams.keys()]).toEqual(['C:\\Users\\s\\a.pdf:Zone.Identifier']);
    const mac = recording('darwin');
    expect(await markFromInternet('/Users/s/a.pdf', source, mac)).toBe('quarantine');
    expect(mac.commands).toEqual([
      [
        '/usr/bin/xattr',
        '-w',
        'com.apple.quarantine',
        quarantineValue(mac.now(), mac.uuid()),
        '/Users/s/a.pdf',
      ],
    ]);
    const linux = recording('linux');
    expect(await markFromInternet('/home/s/a.pdf', source, linux)).toBe('none');
    expect(linux.streams.size + linux.commands.length).toBe(0);
  });

  it.runIf(process.platform === 'linux')(
    'on this Linux computer nothing is written beside the file',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ld-motw-'));
      try {
        writeFileSync(join(dir, 'a.pdf'), '%PDF-1.4');
        expect(
          await markFromInternet(join(dir, 'a.pdf'), {
            url: 'https://x.example/a.pdf',
            siteOrigin: 'https://x.example',
          }),
        ).toBe('none');
        expect(readdirSync(dir)).toEqual(['a.pdf']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('the download manager marks what it saves', () => {
  let dir: string;
  let server: FileServer;
  const managers: DownloadManager[] = [];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-motw-'));
    server = await startFileServer();
  });
  afterEach(async () => {
    for (const m of managers.splice(0)) await m.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the complete file, in place, gets the Windows mark naming the file and the school', async () => {
    const body = pdfLike(50_000);
    server.files.set('/f/handout.pdf', { body });
    const win = recording('win32');
    const { manager } = await managerFor(
      dir,
      server.origin,
      () => [product('p1', `${server.origin}/f/handout.pdf?sig=abc`)],
      {
        markFile: (path, source) => markFromInternet(path, source, win),
      },
    );
    managers.push(manager);
    await manager.save(SITE, 'p1');
    await manager.idle();
    const [saved] = savedFilesIn(dir);
    expect(saved).toBeDefined();
    expect(sha(saved!.body)).toBe(sha(body));
    expect([...win.streams]).toEqual([
      [
        `${saved!.path}:Zone.Identifier`,
        `[ZoneTransfer]\r\nZoneId=3\r\nReferrerUrl=${server.origin}/\r\nHostUrl=${server.origin}/f/handout.pdf\r\n`,
      ],
    ]);
  });

  it('a file system that cannot hold the mark keeps the saved file (best effort)', async () => {
    server.files.set('/f/a.pdf', { body: pdfLike(1000) });
    const { manager } = await managerFor(
      dir,
      server.origin,
      () => [product('p1', `${server.origin}/f/a.pdf`)],
      {
        markFile: (path, source) =>
          markFromInternet(path, source, {
            ...recording('win32'),
            writeFile: () =>
              Promise.reject(Object.assign(new Error('no streams'), { code: 'EINVAL' })),
          }),
      },
    );
    managers.push(manager);
    await manager.save(SITE, 'p1');
    await manager.idle();
    expect(manager.list(SITE)[0]?.saved).toMatchObject({ name: 'a.pdf', size: 1000 });
  });
});

// Only where the facility exists: these read the real mark back.
describe('the real mark', () => {
  it.runIf(process.platform === 'win32')(
    'Windows (NTFS): the Zone.Identifier stream can be read back',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ld-motw-'));
      try {
        const file = join(dir, 'a.pdf');
        writeFileSync(file, '%PDF-1.4');
        await markFromInternet(
          file,
          { url: 'https://x.example/a.pdf', siteOrigin: 'https://x.example' },
          systemMarkDeps,
        );
        expect(readFileSync(`${file}:Zone.Identifier`, 'utf8')).toContain('ZoneId=3');
        expect(readFileSync(file, 'utf8')).toBe('%PDF-1.4');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.runIf(process.platform === 'darwin')(
    'macOS: the quarantine attribute can be read back',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ld-motw-'));
      try {
        const file = join(dir, 'a.pdf');
        writeFileSync(file, '%PDF-1.4');
        await markFromInternet(
          file,
          { url: 'https://x.example/a.pdf', siteOrigin: 'https://x.example' },
          systemMarkDeps,
        );
        const { stdout } = await promisify(execFile)('/usr/bin/xattr', [
          '-p',
          'com.apple.quarantine',
          file,
        ]);
        expect(stdout).toMatch(/^0081;[0-9a-f]{8};Learning Desktop;[0-9A-F-]{36}/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
