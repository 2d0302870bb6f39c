import { createHash } from 'node:crypto';
import type { RequestContext } from '../http/types';
import { readCookies, setCookie } from '../http/cookies';
import { constantTimeEqual, randomSecret, sha256Hex } from '../store/secrets';
import { deleteSession, getSession, insertSession } from '../store/sessions';
import { SESSION_TTL_S } from './settings';

/**
 * Cookie name carries the port: browsers share cookies across ports of one host, sites must not.
 */
export function sessionCookieName(ctx: RequestContext): string {
  return `ld_session_${new URL(ctx.server.baseUrl).port || '80'}`;
}

export interface ActiveSession {
  /** The cookie value (a secret; never stored or logged). */
  raw: string;
  idHash: string;
  userId: string | null;
  /** Per-session CSRF token, derived from the cookie secret so nothing extra is stored. */
  csrf: string;
}

function csrfFor(raw: string): string {
  return createHash('sha256').update(`csrf\0${raw}`).digest('base64url');
}

export function currentSession(ctx: RequestContext): ActiveSession | null {
  const raw = readCookies(ctx.req)[sessionCookieName(ctx)];
  if (!raw) return null;
  const idHash = sha256Hex(raw);
  const row = getSession(ctx.server.db, idHash, ctx.server.clock.now());
  return row ? { raw, idHash, userId: row.userId, csrf: csrfFor(raw) } : null;
}

/**
 * A new session (fresh random id). Used for anonymous visitors and again at sign-in (no session
 * fixation).
 */
export function startSession(ctx: RequestContext, userId: string | null): ActiveSession {
  const raw = randomSecret('', 32);
  const idHash = sha256Hex(raw);
  const now = ctx.server.clock.now();
  insertSession(ctx.server.db, {
    idHash,
    userId,
    createdAt: now,
    expiresAt: now + SESSION_TTL_S * 1000,
  });
  setCookie(ctx.res, sessionCookieName(ctx), raw, { maxAgeSeconds: SESSION_TTL_S });
  return { raw, idHash, userId, csrf: csrfFor(raw) };
}

export function ensureSession(ctx: RequestContext): ActiveSession {
  return currentSession(ctx) ?? startSession(ctx, null);
}

export function endSession(ctx: RequestContext, session: ActiveSession): void {
  deleteSession(ctx.server.db, session.idHash);
  setCookie(ctx.res, sessionCookieName(ctx), '', { maxAgeSeconds: 0 });
}

/** Constant-time check of the form's csrf field against the session's token. */
export function csrfValid(session: ActiveSession | null, presented: string | undefined): boolean {
  return (
    session !== null && typeof presented === 'string' && constantTimeEqual(presented, session.csrf)
  );
}
