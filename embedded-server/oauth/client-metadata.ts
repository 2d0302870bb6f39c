import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import type { ServerContext } from '../http/types';
import type { OAuthClient } from '../store/clients';
import { getCachedMetadataDocument, putCachedMetadataDocument } from '../store/clients';
import { oauthSettings } from './settings';
import { isLoopbackRedirect } from './redirect-uris';

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): the client_id is an
 * HTTPS URL and the document at it is the client's metadata. Fetching a URL chosen by a stranger is
 * an SSRF risk, so (decisions, README): 5 KB cap, 3 s timeout, no redirects, only public unicast
 * addresses (checked on the address actually connected to, so DNS rebinding cannot slip a private
 * address in), 5-minute cache.
 */
export const METADATA_MAX_BYTES = 5 * 1024;
export const METADATA_TIMEOUT_MS = 3000;
export const METADATA_CACHE_MS = 5 * 60 * 1000;

export class ClientMetadataError extends Error {
  constructor(readonly description: string) {
    super(description);
    this.name = 'ClientMetadataError';
  }
}

/**
 * True when the client_id has the shape of a metadata-document URL (https, or http in test mode).
 */
export function looksLikeMetadataClientId(server: ServerContext, clientId: string): boolean {
  return (
    clientId.startsWith('https://') ||
    (oauthSettings(server).clientMetadata.allowPrivateHosts && clientId.startsWith('http://'))
  );
}

function checkUrl(server: ServerContext, clientId: string): URL {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw new ClientMetadataError('client_id is not a valid URL');
  }
  const policy = oauthSettings(server).clientMetadata;
  if (url.protocol !== 'https:' && !(policy.allowPrivateHosts && url.protocol === 'http:')) {
    throw new ClientMetadataError('a metadata-document client_id must be an https URL');
  }
  // The draft: a path is required; no fragment, no credentials, no dot segments.
  if (
    url.hash ||
    url.username ||
    url.password ||
    url.pathname === '/' ||
    /\/\.\.?(\/|$)/.test(url.pathname) ||
    url.href !== clientId
  ) {
    throw new ClientMetadataError(
      'the client_id URL must be a normalized https URL with a path, no fragment and no credentials',
    );
  }
  // Spec Authentication 6: the host must be allowlisted, or any host when open registration is
  // enabled.
  if (!policy.open && !policy.allowedHosts.includes(url.hostname)) {
    throw new ClientMetadataError(
      `client metadata documents from ${url.hostname} are not accepted`,
    );
  }
  return url;
}

/**
 * Only globally routable unicast addresses (no loopback, private, link-local, unique-local,
 * reserved...).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/**
 * DNS lookup that refuses non-public addresses: used as the request's `lookup`, so the checked
 * address is the one dialled.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const list = addresses.filter((a) => allowPrivate || isPublicAddress(a.address));
      if (list.length === 0 || list.length !== addresses.length) {
        return callback(
          Object.assign(new Error('refusing a private or reserved address'), { code: 'EPRIVATE' }),
          '',
          0,
        );
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

function fetchDocument(url: URL, allowPrivate: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    // A literal IP in the URL skips DNS: check it here.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host) && !allowPrivate && !isPublicAddress(host)) {
      reject(new ClientMetadataError('the client_id host is a private or reserved address'));
      return;
    }
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      lookup: guardedLookup(allowPrivate),
      timeout: METADATA_TIMEOUT_MS,
    });
    const timer = setTimeout(
      () => req.destroy(new ClientMetadataError('timed out fetching the client metadata document')),
      METADATA_TIMEOUT_MS,
    );
    req.on('timeout', () =>
      req.destroy(new ClientMetadataError('timed out fetching the client metadata document')),
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(
        err instanceof ClientMetadataError
          ? err
          : new ClientMetadataError('the client metadata document could not be fetched'),
      );
    });
    req.on('response', (res: IncomingMessage) => {
      const fail = (msg: string) => {
        clearTimeout(timer);
        res.destroy();
        req.destroy();
        reject(new ClientMetadataError(msg));
      };
      // No redirects: the document must be served at the client_id URL itself.
      if (res.statusCode !== 200)
        return fail(`the client metadata document answered HTTP ${res.statusCode ?? 0}`);
      const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json')
        return fail('the client metadata document must be application/json');
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > METADATA_MAX_BYTES)
          return fail(`the client metadata document exceeds ${METADATA_MAX_BYTES} bytes`);
        chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        if (size <= METADATA_MAX_BYTES) resolve(Buffer.concat(chunks).toString('utf8'));
      });
      res.on('error', () => fail('the client metadata document could not be read'));
    });
    req.end();
  });
}

const DocumentSchema = z.object({
  client_id: z.string(),
  client_name: z.string().max(200).optional(),
  redirect_uris: z.array(z.string()).min(1).max(20),
  token_endpoint_auth_method: z.string().optional(),
  application_type: z.string().optional(),
  client_uri: z.string().optional(),
  logo_uri: z.string().optional(),
});
export type ClientMetadataDocument = z.infer<typeof DocumentSchema>;

/**
 * Validates a document against the URL it was fetched from (spec Authentication 6; the draft §4).
 */
export function validateDocument(url: URL, raw: unknown): ClientMetadataDocument {
  const parsed = DocumentSchema.safeParse(raw);
  if (!parsed.success) throw new ClientMetadataError('the client metadata document is malformed');
  const doc = parsed.data;
  if (doc.client_id !== url.href)
    throw new ClientMetadataError('the document client_id does not equal its URL');
  // Metadata-document clients are public: there is nowhere to keep a secret (decision, README).
  if (doc.token_endpoint_auth_method !== undefined && doc.token_endpoint_auth_method !== 'none') {
    throw new ClientMetadataError(
      'metadata-document clients must use token_endpoint_auth_method none',
    );
  }
  for (const uri of doc.redirect_uris) {
    let r: URL;
    try {
      r = new URL(uri);
    } catch {
      throw new ClientMetadataError('a redirect_uri in the document is not a URL');
    }
    // "Under the document host" (spec Authentication 6): same scheme, host and port, i.e. the
    // document's origin; another port of the same name is another server.
    const underHost = r.origin === url.origin && !r.hash;
    if (!underHost && !isLoopbackRedirect(uri))
      throw new ClientMetadataError(
        'redirect_uris must sit under the document host or be loopback addresses',
      );
  }
  return doc;
}

/**
 * Resolves a metadata-document client (cache first). Throws ClientMetadataError when it cannot be
 * trusted.
 */
export async function resolveMetadataClient(
  server: ServerContext,
  clientId: string,
): Promise<OAuthClient> {
  const url = checkUrl(server, clientId);
  const now = server.clock.now();
  let doc = getCachedMetadataDocument(server.db, clientId, now) as
    ClientMetadataDocument | undefined;
  if (!doc) {
    const text = await fetchDocument(url, oauthSettings(server).clientMetadata.allowPrivateHosts);
    let raw: unknown;
    try {
      raw = JSON.parse(text) as unknown;
    } catch {
      throw new ClientMetadataError('the client metadata document is not JSON');
    }
    doc = validateDocument(url, raw);
    putCachedMetadataDocument(server.db, clientId, doc, now, METADATA_CACHE_MS);
  }
  return {
    clientId,
    schoolId: null,
    name: doc.client_name ?? url.hostname,
    audience: 'operator',
    origin: 'metadata-document',
    confidential: false,
    secretHash: null,
    redirectUris: doc.redirect_uris,
    applicationType: doc.application_type ?? 'web',
    createdAt: now,
  };
}
