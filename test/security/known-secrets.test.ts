/**
 * The logger and the IPC boundary mask the secret values the app holds, whatever the text around
 * them (electron/core/log.ts rememberSecrets / scrubKnownSecrets): a site echoing a token in free
 * text is caught although no pattern (`Bearer x`, `code=x`) matches.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../electron/common/result';
import type { IpcHandlers } from '../../electron/common/ipc-contract';
import { dispatch } from '../../electron/core/ipc-dispatch';
import { redact, redactString, rememberSecrets, scrubKnownSecrets } from '../../electron/core/log';
import { captureLogger } from './helpers/canary';

const fresh = () => `tok_${randomBytes(24).toString('base64url')}`;

describe('remembered secrets are masked in free text', () => {
  it('a remembered value is masked in log messages, data, error messages and causes; others are not', () => {
    const token = fresh();
    const other = fresh();
    const { logger, text } = captureLogger();
    logger.info(`before remembering ${token}`);
    expect(text()).toContain(token);
    rememberSecrets(token);
    logger.warn(`site said: invalid ${token}`, {
      note: `echo ${token}`,
      error: new Error(`x ${token}`, { cause: new Error(`y ${token}`) }),
      other,
    });
    const after = text().split('\n').slice(1).join('\n');
    expect(after).not.toContain(token);
    expect(after).toContain('[redacted]');
    expect(after).toContain(other);
    expect(redactString(`a${token}b`)).toBe('a[redacted]b');
    expect(JSON.stringify(redact({ list: [encodeURIComponent(`${token}/`)] }))).not.toContain(
      token,
    );
  });

  it('ignores short values (they would match ordinary words)', () => {
    rememberSecrets('abc', '', null, undefined);
    expect(redactString('abc')).toBe('abc');
  });

  it('scrubKnownSecrets returns the same object when nothing is found, a masked copy otherwise', () => {
    const token = fresh();
    rememberSecrets(token);
    const clean = { a: [{ b: 'text' }], n: 1, t: true, z: null };
    expect(scrubKnownSecrets(clean)).toBe(clean);
    const dirty = { a: [{ b: `x ${token}` }], keep: clean };
    const out = scrubKnownSecrets(dirty);
    expect(out).not.toBe(dirty);
    expect(JSON.stringify(out)).not.toContain(token);
    expect(out.keep).toBe(clean);
    expect(dirty.a[0]!.b).toContain(token);
  });

  it('dispatch masks remembered values in ok and error Results', async () => {
    const token = fresh();
    rememberSecrets(token);
    const handlers = {
      'settings:get': async () => ok({ theme: `dark ${token}` }),
      'sites:list': async () => err('server-error', `The site said ${token}.`),
    } as unknown as IpcHandlers;
    for (const channel of ['settings:get', 'sites:list']) {
      const r = await dispatch(handlers, channel, undefined);
      expect(JSON.stringify(r)).not.toContain(token);
      expect(JSON.stringify(r)).toContain('[redacted]');
    }
  });

  it('keeps a bounded set: the oldest values are dropped first', () => {
    const first = fresh();
    rememberSecrets(first);
    expect(redactString(first)).toBe('[redacted]');
    for (let i = 0; i < 300; i++) rememberSecrets(fresh());
    expect(redactString(first)).toBe(first);
  });
});
