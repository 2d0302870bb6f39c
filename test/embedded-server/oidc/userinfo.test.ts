import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { obtainTokens, userinfo } from '../helpers';

describe('UserInfo (OpenID Connect Core §5.3)', () => {
  it('§5.3.1: answers POST like GET, with the token in the Authorization header', async () => {
    const server = await startTestServer();
    const tokens = await obtainTokens(server);
    const viaGet = await userinfo(server, tokens.access_token);
    const res = await fetch(`${server.url}/api/oauth/userinfo`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${tokens.access_token}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: '',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual(viaGet.body);
  });

  it('a POST without a token is 401 invalid_token with WWW-Authenticate, like GET', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/api/oauth/userinfo`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('invalid_token');
  });
});
