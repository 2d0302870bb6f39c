import type { RequestContext, Route } from '../http/types';
import { readForm } from '../http/body';
import { redirect, sendHtml } from '../http/respond';
import { getUserByEmail, rolesAt } from '../store/identity';
import { hashPassword, randomSecret, verifyPassword } from '../store/secrets';
import { deleteExpiredSessions, deleteSession } from '../store/sessions';
import {
  csrfValid,
  currentSession,
  endSession,
  ensureSession,
  startSession,
} from './browser-session';
import { signInPage } from './pages';
import { PATHS } from './settings';

/** Only same-origin paths are followed after sign-in (no open redirect). */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

export function safeReturnTo(value: string | null | undefined): string {
  // Browsers drop tabs and newlines from URLs ("/\t/evil" becomes "//evil") and read "\\" as "/":
  // refuse them.
  if (
    !value ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.includes('\\') ||
    hasControlCharacter(value)
  )
    return '/admin';
  return value;
}

/** A valid scrypt hash of a random password, verified against when the email is unknown. */
let dummyHash: string | null = null;
const DUMMY_HASH = (): string => (dummyHash ??= hashPassword(randomSecret('')));

const DEMO_HINT =
  'Demo accounts: student@example.com / student-demo (member), owner@example.com / owner-demo (operator).';

function hintFor(ctx: RequestContext): string | undefined {
  return ctx.server.site.schoolId.startsWith('sch_demo') ? DEMO_HINT : undefined;
}

/** GET /sign-in */
function showSignIn(ctx: RequestContext): void {
  const session = ensureSession(ctx);
  const hint = hintFor(ctx);
  sendHtml(
    ctx.res,
    200,
    signInPage({
      siteName: ctx.server.site.name,
      csrf: session.csrf,
      returnTo: safeReturnTo(ctx.url.searchParams.get('return_to')),
      ...(hint ? { hint } : {}),
    }),
  );
}

/**
 * POST /sign-in: email + password, CSRF-checked; a new session id on success (no session fixation).
 */
async function submitSignIn(ctx: RequestContext): Promise<void> {
  const { server } = ctx;
  const form = await readForm(ctx.req);
  const session = currentSession(ctx);
  const returnTo = safeReturnTo(form.return_to);
  if (!csrfValid(session, form.csrf)) {
    const fresh = startSession(ctx, null);
    sendHtml(
      ctx.res,
      403,
      signInPage({
        siteName: server.site.name,
        csrf: fresh.csrf,
        returnTo,
        error: 'This form expired. Please sign in again.',
      }),
    );
    return;
  }
  const user = form.email ? getUserByEmail(server.db, form.email) : undefined;
  // An unknown email costs the same scrypt work as a known one, so timing does not reveal which
  // accounts exist; the message is the same in both cases.
  const ok =
    (await verifyPassword(form.password ?? '', user?.passwordHash ?? DUMMY_HASH())) &&
    user !== undefined &&
    form.password !== undefined;
  if (!ok || !user) {
    sendHtml(
      ctx.res,
      401,
      signInPage({
        siteName: server.site.name,
        csrf: session!.csrf,
        returnTo,
        email: form.email ?? '',
        error: 'Email or password is not correct.',
      }),
    );
    return;
  }
  if (rolesAt(server.db, server.site.schoolId, user.id).length === 0) {
    sendHtml(
      ctx.res,
      403,
      signInPage({
        siteName: server.site.name,
        csrf: session!.csrf,
        returnTo,
        email: form.email ?? '',
        error: `This account holds no role at ${server.site.name}.`,
      }),
    );
    return;
  }
  deleteSession(server.db, session!.idHash);
  deleteExpiredSessions(server.db, server.clock.now()); // housekeeping: sign-in is rare enough
  startSession(ctx, user.id);
  redirect(ctx.res, returnTo);
}

/**
 * POST /sign-out (optionally `return_to`: sign in again, e.g. "use another account" on the consent
 * page).
 */
async function signOut(ctx: RequestContext): Promise<void> {
  const form = await readForm(ctx.req);
  const session = currentSession(ctx);
  if (session && csrfValid(session, form.csrf)) endSession(ctx, session);
  redirect(
    ctx.res,
    form.return_to
      ? `${PATHS.signIn}?return_to=${encodeURIComponent(safeReturnTo(form.return_to))}`
      : PATHS.signIn,
  );
}

export const signInRoutes: Route[] = [
  { method: 'GET', path: PATHS.signIn, handler: showSignIn },
  { method: 'POST', path: PATHS.signIn, handler: submitSignIn },
  { method: 'POST', path: PATHS.signOut, handler: signOut },
];
