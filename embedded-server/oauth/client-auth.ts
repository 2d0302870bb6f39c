import type { ServerContext } from '../http/types';
import { InvalidClientError, InvalidRequestError, UnauthorizedClientError } from '../http/errors';
import { clientUnused, getClient, type OAuthClient } from '../store/clients';
import { UNUSED_REGISTRATION_TTL_S } from './settings';
import { secretMatchesHash } from '../store/secrets';
import {
  ClientMetadataError,
  looksLikeMetadataClientId,
  resolveMetadataClient,
} from './client-metadata';

/**
 * Finds a client by id: a table row, or a Client ID Metadata Document for URL client_ids. Null if
 * unknown.
 */
export async function resolveClient(
  server: ServerContext,
  clientId: string,
): Promise<OAuthClient | null> {
  const row = getClient(server.db, clientId);
  if (row) {
    // A member application belongs to one school: it is unknown at any other site.
    if (row.audience === 'member' && row.schoolId !== server.site.schoolId) return null;
    // An unused loopback registration is forgotten after a day (decision 25), even before a purge
    // deletes it.
    if (
      row.origin === 'loopback-registration' &&
      row.createdAt < server.clock.now() - UNUSED_REGISTRATION_TTL_S * 1000 &&
      clientUnused(server.db, clientId)
    )
      return null;
    return row;
  }
  if (looksLikeMetadataClientId(server, clientId)) {
    try {
      return await resolveMetadataClient(server, clientId);
    } catch (err) {
      if (err instanceof ClientMetadataError) return null;
      throw err;
    }
  }
  return null;
}

/**
 * HTTP Basic (client_secret_basic) is not offered by discovery, so a request that tries it is
 * refused, whatever else it carries (a refresh without client_id included). RFC 6749 §5.2: a client
 * that tried the Authorization header gets 401 invalid_client with WWW-Authenticate for its scheme.
 */
export function refuseHttpBasic(
  server: ServerContext,
  authorizationHeader: string | undefined,
): void {
  if (!authorizationHeader || !/^basic /i.test(authorizationHeader)) return;
  const refused = new InvalidClientError(
    'client_secret_basic is not supported; send client_secret in the body (client_secret_post)',
  );
  refused.headers = { 'WWW-Authenticate': `Basic realm="${server.baseUrl}", charset="UTF-8"` };
  throw refused;
}

export type ClientAuthPolicy = 'token' | 'revocation';

/**
 * Client authentication at the token and revocation endpoints (spec Authentication 1):
 * public clients use `none` (client_id only); confidential clients use client_secret_post. A
 * confidential client without its secret: 401 invalid_client at the token endpoint (spec Errors:
 * "use of none by a confidential client"), 403 unauthorized_client at the revocation endpoint (spec
 * Errors). HTTP Basic (client_secret_basic) is not offered by discovery, so it is refused.
 */
export async function authenticateClient(
  server: ServerContext,
  form: Record<string, string>,
  authorizationHeader: string | undefined,
  policy: ClientAuthPolicy,
): Promise<OAuthClient> {
  refuseHttpBasic(server, authorizationHeader);
  const clientId = form.client_id;
  if (!clientId) throw new InvalidRequestError('client_id is required');
  const client = await resolveClient(server, clientId);
  if (!client) throw new InvalidClientError('unknown client');
  const secret = form.client_secret;
  if (client.confidential) {
    if (secret === undefined) {
      if (policy === 'revocation')
        throw new UnauthorizedClientError('a confidential client must send its client_secret', 403);
      throw new InvalidClientError(
        'this client is confidential: client_secret_post is required, none is refused',
      );
    }
    if (!client.secretHash || !secretMatchesHash(secret, client.secretHash))
      throw new InvalidClientError('client authentication failed');
  } else if (secret !== undefined) {
    // A public client has no secret; sending one means the caller has the wrong idea of the client.
    throw new InvalidClientError('this client is public and has no client_secret');
  }
  return client;
}
