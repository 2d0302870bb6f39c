import type { RequestContext, Route } from '../http/types';
import { InvalidRequestError } from '../http/errors';
import { readForm } from '../http/body';
import { setNoStore } from '../http/respond';
import { sha256Hex } from '../store/secrets';
import { getPairByAccessHash, getPairByRefreshHash, revokeGrant } from '../store/tokens';
import { authenticateClient } from './client-auth';
import { PATHS } from './settings';

/**
 * POST /api/oauth/revoke (RFC 7009). One record holds both tokens, so revoking either revokes the
 * pair (spec "Token pair lifecycle"), except an access token past its lifetime: 200 and nothing
 * changes, so the refresh token keeps working. Unknown tokens and other clients' tokens: 200, no
 * effect (RFC 7009 §2.1/§2.2).
 */
async function revoke(ctx: RequestContext): Promise<void> {
  setNoStore(ctx.res);
  const form = await readForm(ctx.req);
  const client = await authenticateClient(
    ctx.server,
    form,
    ctx.req.headers.authorization,
    'revocation',
  );
  if (!form.token) throw new InvalidRequestError('token is required');
  const { db, clock } = ctx.server;
  const now = clock.now();
  const hash = sha256Hex(form.token);
  // token_type_hint is only a hint (RFC 7009 §2.1): both kinds are looked up whatever it says.
  const byRefresh = getPairByRefreshHash(db, hash);
  const byAccess = byRefresh ? undefined : getPairByAccessHash(db, hash);
  const pair = byRefresh ?? byAccess;
  if (pair && pair.clientId === client.clientId) {
    // Revocation ends the session this pair belongs to (its grant: the pairs refreshed from one
    // authorization), not only the one record: the pair it was refreshed from is kept live only for
    // retries until first presentation (spec lifecycle), and a sign-out right after a refresh must
    // not leave it working. Other authorizations (other devices) keep their pairs (spec
    // Authentication 10).
    if (byRefresh) revokeGrant(db, pair.grantId, now, 'revoked-by-refresh-token');
    else if (now < pair.accessExpiresAt)
      revokeGrant(db, pair.grantId, now, 'revoked-by-access-token');
    // else: expired access token; spec: 200 with no effect.
  }
  ctx.res.statusCode = 200;
  ctx.res.setHeader('Content-Length', '0');
  ctx.res.end();
}

export const revokeRoutes: Route[] = [{ method: 'POST', path: PATHS.revoke, handler: revoke }];
