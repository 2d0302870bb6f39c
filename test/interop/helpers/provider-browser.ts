/**
 * The interop world's stand-ins for what a real deployment has around the provider: its signing
 * keys and a browser.
 */
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import type { JSONWebKeySet, JWK } from 'jose';

/**
 * One signing key per algorithm the matrix asks for (RS256, ES256, EdDSA), private for the
 * provider, public for the resource server.
 */
export function signingKeys(): { privateJwks: JWK[]; publicJwks: JSONWebKeySet } {
  const out: { priv: JWK; alg: string }[] = [];
  const add = (alg: string, pair: { privateKey: KeyObject }) => {
    out.push({
      priv: {
        ...(pair.privateKey.export({ format: 'jwk' }) as JWK),
        kid: randomBytes(4).toString('hex'),
        use: 'sig',
      },
      alg,
    });
  };
  add('RS256', generateKeyPairSync('rsa', { modulusLength: 2048 }));
  add('ES256', generateKeyPairSync('ec', { namedCurve: 'P-256' }));
  add('EdDSA', generateKeyPairSync('ed25519'));
  const publicOf = (k: JWK): JWK => {
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = k;
    return pub;
  };
  return {
    privateJwks: out.map((k) => k.priv),
    publicJwks: { keys: out.map((k) => publicOf(k.priv)) },
  };
}

/**
 * A browser for the provider's development login and consent pages: fills any login, then approves
 * or cancels.
 */
export async function providerBrowser(
  start: string,
  issuerOrigin: string,
  decision: 'approve' | 'cancel',
): Promise<string> {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0] as string;
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  };
  let url = start;
  let res = await send(url);
  for (let i = 0; i < 20; i++) {
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location') as string, url);
      await res.body?.cancel();
      // The redirect back to the app: the tab shows the app's loopback page.
      if (next.origin !== issuerOrigin) return (await fetch(next)).text();
      url = next.href;
      res = await send(url);
      continue;
    }
    const html = await res.text();
    const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
    const action = form ? /action="([^"]*)"/.exec(form[1] as string)?.[1] : undefined;
    if (!form || !action) throw new Error(`stuck at ${url} (${res.status}): ${html.slice(0, 300)}`);
    const isConsent = !/name="login"/.test(form[2] as string);
    if (isConsent && decision === 'cancel') {
      const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
      if (!abort) throw new Error('no cancel link on the consent page');
      url = new URL(abort.replace(/&amp;/g, '&'), url).href;
      res = await send(url);
      continue;
    }
    const body = new URLSearchParams();
    for (const input of (form[2] as string).matchAll(/<input\b[^>]*>/gi)) {
      const name = /name="([^"]*)"/.exec(input[0])?.[1];
      if (!name) continue;
      const value = /value="([^"]*)"/.exec(input[0])?.[1];
      body.set(name, value ?? (name === 'login' ? 'student-interop' : 'any-password'));
    }
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    res = await send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }
  throw new Error('too many steps');
}
