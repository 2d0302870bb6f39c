/**
 * Whether a pair signed in without an RFC 8707 resource opens the member API at all. A site that
 * refuses the resource indicator (invalid_target, RFC 8707 §2) may still issue a pair, bound to its
 * own sign-in service only (node-oidc-provider's default: a token for UserInfo); the member API
 * then refuses it, and keeping it would only turn into "sign in again" at the first sync, for ever.
 * So the pair is tried once before it is kept.
 */
import { CoreError } from '../errors';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import type { FetchLike } from '../net/http';
import { request } from '../net/http';

/** The smallest member API question: who the token belongs to. */
const PROBE = JSON.stringify({ query: 'query MemberAccess { viewer { id } }' });

/**
 * Throws CoreError('sign-in-failed', hint 'access') when the member API at `resource` refuses the
 * access token (401, 403: RFC 6750 §3.1). Any other answer, or none, keeps the pair: only a refusal
 * proves it unusable, and a site that is briefly down must not cost the student a sign-in.
 */
export async function requireMemberAccess(
  resource: string,
  accessToken: string,
  options: { readonly fetch: FetchLike; readonly signal?: AbortSignal; readonly logger?: Logger },
): Promise<void> {
  const log = (options.logger ?? silentLogger).child('member-access');
  let status: number;
  try {
    const res = await request(
      `${resource}/member/graphql`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          accept: 'application/json',
          'content-type': 'application/json',
        },
        body: PROBE,
      },
      {
        fetch: options.fetch,
        ...(options.signal ? { signal: options.signal } : {}),
        timeoutMs: 15_000,
      },
    );
    status = res.status;
    await res.body?.cancel().catch(() => undefined);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    log.info('member API not reached; keeping the pair', { error });
    return;
  }
  if (status !== 401 && status !== 403) return;
  log.warn('the member API refuses a sign-in made without the resource indicator', { status });
  throw new CoreError(
    'sign-in-failed',
    `The site's sign-in does not give this app access to your member data: it refused the app's request for ${resource} (RFC 8707), and the member data then refused the sign-in it gave (HTTP ${status}). Nothing was kept. Tell your school.`,
    { hint: 'access', oauthError: 'invalid_target', at: 'member-api', status },
  );
}
