/**
 * The one check for an address that leaves the app for the system browser (ARCHITECTURE: "a URL leaves the app only
 * if it is https (http on loopback) on the expected origin, without credentials"). A site's data is untrusted input:
 * a course page, a join link or a download may name any address, and the system browser acts on it as the student.
 */
import { CoreError } from '../errors';

/** RFC 8252 §8.3: loopback is an IP literal (127.0.0.0/8, ::1) or `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Why an address may not leave the app, or null when it may. */
export function externalUrlProblem(raw: string, expectedOrigin?: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a web address';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) return 'not https';
  // Credentials in the address would be sent to the site by the browser and shown in its address bar (RFC 3986 §3.2.1).
  if (url.username !== '' || url.password !== '') return 'credentials in the address';
  if (expectedOrigin !== undefined && url.origin !== new URL(expectedOrigin).origin) return 'another origin';
  return null;
}

/** The address, parsed, when it may leave the app; CoreError('invalid-input') naming the reason otherwise. */
export function checkExternalUrl(raw: string, expectedOrigin?: string): URL {
  const problem = externalUrlProblem(raw, expectedOrigin);
  if (problem !== null) throw new CoreError('invalid-input', `This address cannot be opened (${problem}).`);
  return new URL(raw);
}
