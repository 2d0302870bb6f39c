import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../../electron/core/errors';
import {
  createLogger,
  createRotatingFileSink,
  redact,
  redactString,
} from '../../electron/core/log';

const SECRET = 'sEcReT-VaLuE-1234567890';

function capture() {
  const lines: string[] = [];
  return { lines, logger: createLogger((l) => lines.push(l)) };
}

describe('logger redaction (never log a secret)', () => {
  it('redacts the known secret keys in objects, at any depth and in any case', () => {
    const { lines, logger } = capture();
    logger.info('tokens', {
      access_token: SECRET,
      nested: { Refresh_Token: SECRET, list: [{ id_token: SECRET }, { code_verifier: SECRET }] },
      client_secret: SECRET,
      password: SECRET,
      Authorization: SECRET,
      token: SECRET,
      code: SECRET,
      accessToken: SECRET,
      clientSecret: SECRET,
      keep: 'visible',
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(SECRET);
    expect(lines[0]).toContain('visible');
    expect(lines[0]).toContain('[redacted]');
  });

  it('keeps stable error codes under the key "code" but hides anything else there', () => {
    expect(redact({ code: 'sign-in-needed' })).toEqual({ code: 'sign-in-needed' });
    expect(redact({ code: 'ac_abcdef' })).toEqual({ code: '[redacted]' });
  });

  it('redacts Bearer credentials inside free text (RFC 6750 §2.1)', () => {
    expect(redactString(`Authorization: Bearer ${SECRET}`)).toBe(
      'Authorization: Bearer [redacted]',
    );
    const { lines, logger } = capture();
    logger.warn(`sent header Bearer ${SECRET}.x/y+z= to the site`);
    expect(lines[0]).not.toContain(SECRET);
  });

  it('redacts secret query and form parameters in URLs and bodies', () => {
    const url = `http://127.0.0.1:1/callback?code=${SECRET}&state=abc&iss=x`;
    expect(redactString(url)).toBe('http://127.0.0.1:1/callback?code=[redacted]&state=abc&iss=x');
    expect(
      redactString(`grant_type=refresh_token&refresh_token=${SECRET}&client_secret=${SECRET}`),
    ).not.toContain(SECRET);
    expect(redactString(`https://x/#access_token=${SECRET}`)).not.toContain(SECRET);
    const { lines, logger } = capture();
    logger.info('url', { where: new URL(url) });
    expect(lines[0]).not.toContain(SECRET);
  });

  it('redacts JSON pairs quoted inside a message and errors with causes', () => {
    const { lines, logger } = capture();
    const error = new CoreError(
      'server-error',
      `bad body {"access_token":"${SECRET}"}`,
      undefined,
      { cause: new Error(`refresh_token=${SECRET}`) },
    );
    logger.error('failed', { error });
    expect(lines[0]).not.toContain(SECRET);
    expect(lines[0]).toContain('server-error');
  });

  it('handles cycles, Headers and URLSearchParams', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    const { lines, logger } = capture();
    logger.info('misc', {
      a,
      headers: new Headers({ authorization: `Bearer ${SECRET}` }),
      form: new URLSearchParams({ code: SECRET, state: 's' }),
    });
    expect(lines[0]).toContain('[circular]');
    expect(lines[0]).not.toContain(SECRET);
  });

  it('child loggers carry their scope and honour the level', () => {
    const lines: string[] = [];
    const logger = createLogger((l) => lines.push(l), { level: 'info', scope: 'core' });
    logger.child('auth').debug('hidden');
    logger.child('auth').info('shown');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      scope: 'core.auth',
      level: 'info',
      message: 'shown',
    });
  });
});

describe('the rotating log file', () => {
  it('rolls over past its size, keeps a bounded number of old files, and holds only redacted lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-log-'));
    try {
      const file = join(dir, 'logs', 'main.log');
      const logger = createLogger(createRotatingFileSink(file, { maxBytes: 2_000, keep: 2 }), {
        clock: { now: () => 0 },
      });
      for (let i = 0; i < 100; i++)
        logger.info(`line ${i}`, { access_token: 'at-secret-value', attempt: i });
      expect(existsSync(`${file}.1`)).toBe(true);
      expect(existsSync(`${file}.2`)).toBe(true);
      expect(existsSync(`${file}.3`)).toBe(false);
      const all = [file, `${file}.1`, `${file}.2`].map((f) => readFileSync(f, 'utf8'));
      for (const text of all) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2_000);
      expect(all[0]).toContain('line 99');
      expect(all.join('')).not.toContain('at-secret-value');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never throws, even where the file cannot be written', () => {
    const sink = createRotatingFileSink(join('/dev/null', 'not-a-folder', 'main.log'));
    expect(() => sink('a line')).not.toThrow();
  });
});
