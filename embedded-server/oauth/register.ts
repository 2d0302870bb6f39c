import { z } from 'zod';
import type { RequestContext, Route } from '../http/types';
import {
  InvalidClientMetadataError,
  InvalidRedirectUriError,
  InvalidRequestError,
  TooManyRegistrationsError,
} from '../http/errors';
import { readJson } from '../http/body';
import { sendJson, setNoStore } from '../http/respond';
import {
  findAllowlistedVendor,
  getClient,
  insertClient,
  purgeUnusedLoopbackClients,
  recentLoopbackRegistrations,
} from '../store/clients';
import { randomId, randomSecret, sha256Hex } from '../store/secrets';
import { isLoopbackRedirect } from './redirect-uris';
import {
  LOOPBACK_REGISTRATIONS_PER_HOUR,
  PATHS,
  registrationPolicy,
  UNUSED_REGISTRATION_TTL_S,
} from './settings';

const RegistrationSchema = z.object({
  client_name: z.string().trim().min(1).max(200).optional(),
  application_type: z.string().max(50).optional(),
  redirect_uris: z.array(z.string().max(2000)).min(1).max(10),
  token_endpoint_auth_method: z.enum(['none', 'client_secret_post']).optional(),
});

/** RFC 8252 §7.3 loopback shape required by the spec: http://127.0.0.1:<port>/<path>. */
function isRegistrableLoopback(uri: string): boolean {
  if (!isLoopbackRedirect(uri)) return false;
  const u = new URL(uri);
  return u.hostname === '127.0.0.1' && u.port !== '' && u.pathname.length > 1;
}

function isHttps(uri: string): boolean {
  try {
    return new URL(uri).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * RFC 7591 §3.2.2: a body that is not JSON client metadata is invalid_client_metadata (decision 8),
 * like a bad field.
 */
async function readMetadata(ctx: RequestContext): Promise<unknown> {
  try {
    return await readJson(ctx.req);
  } catch (err) {
    if (err instanceof InvalidRequestError)
      throw new InvalidClientMetadataError(
        `the registration request is not JSON client metadata: ${err.description}`,
      );
    throw err;
  }
}

/**
 * The bound on open loopback registration (decision 25): unused registrations older than a day are
 * deleted, and past LOOPBACK_REGISTRATIONS_PER_HOUR in the last hour the answer is 429 with
 * Retry-After (RFC 6585 §4) until the oldest of them leaves the window.
 */
function checkQuota(ctx: RequestContext, now: number): void {
  const { db } = ctx.server;
  purgeUnusedLoopbackClients(db, now - UNUSED_REGISTRATION_TTL_S * 1000);
  const hour = 60 * 60 * 1000;
  const recent = recentLoopbackRegistrations(db, now - hour);
  if (recent.count < LOOPBACK_REGISTRATIONS_PER_HOUR) return;
  const refused = new TooManyRegistrationsError(
    `at most ${LOOPBACK_REGISTRATIONS_PER_HOUR} loopback registrations an hour; retry later`,
  );
  refused.headers = {
    'Retry-After': String(Math.max(1, Math.ceil(((recent.oldest ?? now) + hour - now) / 1000))),
  };
  throw refused;
}

/**
 * POST /api/oauth/register (spec Authentication 6). Not open RFC 7591 registration:
 * 1. client_name of an allowlisted vendor platform -> that platform's existing client_id.
 * 2. Every redirect URI a loopback http://127.0.0.1:<port>/<path> -> a new operator client,
 *    whatever the client_name, when the server's registration policy is 'allowlist_or_loopback'
 *    (the default). The spec's two statements conflict here; the metadata (the source of truth)
 *    publishes the choice as `registration_policy` (decision 8, README), and this endpoint follows
 *    it.
 * 3. Otherwise: a fixed HTTPS callback -> invalid_redirect_uri; anything else ->
 *    invalid_client_metadata.
 * All registered clients are operator-audience: member clients come only from the admin area.
 */
async function register(ctx: RequestContext): Promise<void> {
  setNoStore(ctx.res);
  const parsed = RegistrationSchema.safeParse(await readMetadata(ctx));
  if (!parsed.success) {
    throw new InvalidClientMetadataError(
      'the registration request must carry redirect_uris (array of strings) and optional client_name, application_type, token_endpoint_auth_method (none or client_secret_post)',
    );
  }
  const meta = parsed.data;
  const { db, clock } = ctx.server;
  const now = clock.now();

  const vendor = meta.client_name ? findAllowlistedVendor(db, meta.client_name) : undefined;
  if (vendor) {
    const client = getClient(db, vendor.clientId)!;
    sendJson(ctx.res, 201, {
      client_id: client.clientId,
      client_name: client.name,
      redirect_uris: client.redirectUris,
      application_type: client.applicationType,
      token_endpoint_auth_method: client.confidential ? 'client_secret_post' : 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    return;
  }

  // Only when the metadata says so (registration_policy, the source of truth for the spec's
  // conflict).
  if (
    registrationPolicy(ctx.server) === 'allowlist_or_loopback' &&
    meta.redirect_uris.every(isRegistrableLoopback)
  ) {
    checkQuota(ctx, now);
    const confidential = meta.token_endpoint_auth_method === 'client_secret_post';
    const secret = confidential ? randomSecret('cs_') : null;
    const clientId = randomId('cli_');
    const name = meta.client_name ?? 'Loopback client';
    insertClient(db, {
      clientId,
      schoolId: null,
      name,
      audience: 'operator',
      origin: 'loopback-registration',
      confidential,
      secretHash: secret ? sha256Hex(secret) : null,
      redirectUris: meta.redirect_uris,
      applicationType: meta.application_type ?? 'native',
      createdAt: now,
    });
    sendJson(ctx.res, 201, {
      client_id: clientId,
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      client_id_issued_at: Math.floor(now / 1000),
      client_name: name,
      redirect_uris: meta.redirect_uris,
      application_type: meta.application_type ?? 'native',
      token_endpoint_auth_method: confidential ? 'client_secret_post' : 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    return;
  }

  if (meta.redirect_uris.some(isHttps)) {
    throw new InvalidRedirectUriError(
      'a fixed HTTPS callback needs a registered integration; use a loopback redirect (http://127.0.0.1:<port>/<path>) or ask the site for an integration',
    );
  }
  throw new InvalidClientMetadataError(
    meta.client_name
      ? `client_name "${meta.client_name}" is not a registered vendor platform`
      : 'client_name does not match a registered vendor platform',
  );
}

export const registerRoutes: Route[] = [
  { method: 'POST', path: PATHS.register, handler: register },
];
