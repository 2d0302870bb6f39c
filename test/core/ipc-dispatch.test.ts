import { describe, expect, it } from 'vitest';
import type { IpcHandlers } from '../../electron/common/ipc-contract';
import { ok } from '../../electron/common/result';
import type { SearchHit } from '../../electron/common/view-models';
import { dispatch } from '../../electron/core/ipc-dispatch';
import { CoreError } from '../../electron/core/errors';

const hit: SearchHit = {
  kind: 'course',
  id: 'c1',
  siteId: 's1',
  courseId: null,
  title: 't',
  snippet: 's',
  context: {
    course: null,
    section: null,
    lectureState: null,
    percent: null,
    person: null,
    courseCount: null,
    tradeNo: null,
    amount: null,
    orderState: null,
    paymentState: null,
    at: null,
  },
};

// Only the handlers a case calls are real; the dispatcher must never reach the others.
function handlers(partial: Partial<IpcHandlers>): IpcHandlers {
  return new Proxy(partial, {
    get: (target, key) =>
      (target as Record<string | symbol, unknown>)[key] ??
      (() => Promise.reject(new Error(`unexpected call ${String(key)}`))),
  }) as IpcHandlers;
}

describe('IPC dispatch (one contract, untrusted input)', () => {
  it('runs a known channel with validated input', async () => {
    const result = await dispatch(
      handlers({ 'search:query': async (input) => ok([{ ...hit, id: input.query }]) }),
      'search:query',
      {
        siteId: 's1',
        query: 'data',
      },
    );
    expect(result).toEqual({ ok: true, value: [{ ...hit, id: 'data' }] });
  });

  it('refuses an unknown channel', async () => {
    const result = await dispatch(handlers({}), 'fs:read-file', { path: '/etc/passwd' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('refuses input that does not match the channel schema, naming the field', async () => {
    const result = await dispatch(handlers({}), 'course:get', { siteId: 's1', courseId: 42 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('invalid-input');
      expect(result.error.message).toContain('courseId');
    }
  });

  it('refuses unexpected extra fields (strict schemas)', async () => {
    const result = await dispatch(handlers({}), 'sync:now', { siteId: 's1', token: 'x' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('turns a CoreError into its code and message', async () => {
    const result = await dispatch(
      handlers({
        'sync:now': async () => {
          throw new CoreError('sign-in-needed', 'Sign in again to keep this site up to date.');
        },
      }),
      'sync:now',
      { siteId: 's1' },
    );
    expect(result).toEqual({
      ok: false,
      error: { code: 'sign-in-needed', message: 'Sign in again to keep this site up to date.' },
    });
  });

  it('masks an unexpected exception and reports it once, without its text reaching the renderer', async () => {
    const seen: string[] = [];
    const result = await dispatch(
      handlers({
        'sync:now': async () => {
          throw new Error('SQLITE_CORRUPT at /home/u/secret-path refresh_token=abc');
        },
      }),
      'sync:now',
      { siteId: 's1' },
      (channel) => seen.push(channel),
    );
    expect(seen).toEqual(['sync:now']);
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain('abc');
    expect(JSON.stringify(result)).not.toContain('secret-path');
  });
});
