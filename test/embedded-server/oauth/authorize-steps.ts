import { expect } from 'vitest';
import { ScriptedBrowser, parseForms } from '../../helpers/scripted-browser';
import { CALLBACK, authorizeUrl, pkce } from '../helpers';
import type { EmbeddedServer } from '../../../embedded-server/index';

// Steps of the authorization flow, shared by the authorization request and the sign-in/consent page
// tests.

/**
 * Follows the authorization as the student (signed in first) and returns where the site sent the
 * browser.
 */
export async function redirectOf(
  server: EmbeddedServer,
  params: Parameters<typeof authorizeUrl>[1],
  signedIn = true,
): Promise<URL> {
  const browser = new ScriptedBrowser();
  if (signedIn) await signIn(browser, server);
  const res = await browser.request(
    authorizeUrl(server, { code_challenge: pkce().challenge, ...params }),
  );
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

export async function signIn(
  browser: ScriptedBrowser,
  server: EmbeddedServer,
  email = 'student@example.com',
  password = 'student-demo',
): Promise<void> {
  const result = await browser.navigate(`${server.url}/sign-in?return_to=/admin`);
  if (!('page' in result)) throw new Error('expected the sign-in page');
  const form = parseForms(result.page.html)[0]!;
  const res = await browser.request(`${server.url}/sign-in`, {
    method: 'POST',
    form: { ...form.fields, email, password },
  });
  expect(res.status).toBe(303);
}

export function expectRedirectError(
  location: URL,
  server: EmbeddedServer,
  error: string,
  state: string | null = 'state-123',
): void {
  expect(location.origin + location.pathname).toBe(CALLBACK);
  expect(location.searchParams.get('error')).toBe(error);
  expect(location.searchParams.get('error_description')).toBeTruthy();
  expect(location.searchParams.get('state')).toBe(state);
  expect(location.searchParams.get('iss')).toBe(server.url);
  expect(location.searchParams.get('code')).toBeNull();
}
