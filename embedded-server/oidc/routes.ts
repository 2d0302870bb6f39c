import type { RequestContext, Route } from '../http/types';
import { requireBearer } from '../http/bearer';
import { NotFoundError } from '../http/errors';
import { escapeHtml } from '../http/html';
import { sendJson, setNoStore } from '../http/respond';
import { getUserById } from '../store/identity';
import { PATHS, publishesJwks } from '../oauth/settings';
import { memberClaims } from './claims';
import { discoveryRoutes } from './discovery';
import { publishedJwks } from './keys';

/**
 * GET and POST /api/oauth/userinfo (OpenID Connect Core §5.3, §5.3.1: both methods) through the
 * shared bearer check. The token comes in the Authorization header either way
 * (bearer_methods_supported: header); a POST body is not read.
 */
function userinfo(ctx: RequestContext): void {
  const token = requireBearer(ctx);
  if (!token) return;
  // checkBearer only accepts tokens bound to this school, so schoolId is set here.
  const claims = memberClaims(ctx.server, token.userId, token.schoolId!);
  if (!claims) throw new NotFoundError('the member no longer exists');
  setNoStore(ctx.res);
  sendJson(ctx.res, 200, claims);
}

/** GET /oauth/jwks (RFC 7517): current key plus retired keys still in their publication window. */
async function jwks(ctx: RequestContext): Promise<void> {
  if (!publishesJwks(ctx.server)) throw new NotFoundError('no JWKS is published');
  ctx.res.setHeader('Cache-Control', 'public, max-age=300');
  ctx.res.setHeader('Access-Control-Allow-Origin', '*');
  sendJson(ctx.res, 200, await publishedJwks(ctx.server.db, ctx.server.clock.now()), {
    'Content-Type': 'application/jwk-set+json',
  });
}

/**
 * GET /avatars/:file: the `picture` claim of members without their own picture (a generated
 * initial).
 */
function avatar(ctx: RequestContext): void {
  const id = (ctx.params.file ?? '').replace(/\.svg$/, '');
  const user = getUserById(ctx.server.db, id);
  if (!user) throw new NotFoundError('no such avatar');
  const initial = escapeHtml((user.name.trim()[0] ?? '?').toUpperCase());
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img" aria-label="${escapeHtml(user.name)}"><rect width="96" height="96" rx="48" fill="#1d4ed8"/><text x="48" y="62" font-family="sans-serif" font-size="44" fill="#fff" text-anchor="middle">${initial}</text></svg>`;
  ctx.res.statusCode = 200;
  ctx.res.setHeader('Content-Type', 'image/svg+xml');
  ctx.res.setHeader('Cache-Control', 'public, max-age=3600');
  ctx.res.end(svg);
}

export const oidcRoutes: Route[] = [
  ...discoveryRoutes,
  { method: 'GET', path: PATHS.userinfo, handler: userinfo },
  { method: 'POST', path: PATHS.userinfo, handler: userinfo },
  { method: 'GET', path: PATHS.jwks, handler: jwks },
  { method: 'GET', path: '/avatars/:file', handler: avatar },
];
