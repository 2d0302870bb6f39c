import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { insertTokenPair } from '../../../embedded-server/store/tokens';
import { sha256Hex } from '../../../embedded-server/store/secrets';

export interface MintOptions {
  scopes: string[];
  userId?: string;
  audience?: 'member' | 'operator';
  /** Default: the server's school; null = a token without school_id. */
  schoolId?: string | null;
  /** Default: the server's origin (RFC 8707 resource). */
  resource?: string | null;
  clientId?: string;
  expiresInSeconds?: number;
}

/**
 * Puts a token pair straight into the real token store, as the token endpoint would, so the
 * status-rule tests can cover every kind of token (other school, no school_id, other origin,
 * operator audience) without a browser flow each time. The bearer check that reads them is the real
 * one.
 */
export function mintToken(
  server: EmbeddedServer,
  o: MintOptions,
): { accessToken: string; refreshToken: string; id: string } {
  const accessToken = `at_${randomBytes(24).toString('base64url')}`;
  const refreshToken = `rt_${randomBytes(24).toString('base64url')}`;
  const now = server.clock.now();
  const id = `tok_test_${randomBytes(6).toString('hex')}`;
  insertTokenPair(server.db, {
    id,
    grantId: `grant_${id}`,
    parentId: null,
    accessHash: sha256Hex(accessToken),
    refreshHash: sha256Hex(refreshToken),
    clientId: o.clientId ?? (o.audience === 'operator' ? 'demo-vendor' : 'demo-desktop'),
    userId: o.userId ?? (o.audience === 'operator' ? 'usr_owner' : 'usr_student'),
    schoolId: o.schoolId === undefined ? server.site.schoolId : o.schoolId,
    scope: o.scopes.join(' '),
    resource: o.resource === undefined ? server.url : o.resource,
    audience: o.audience ?? 'member',
    createdAt: now,
    accessExpiresAt: now + (o.expiresInSeconds ?? 7200) * 1000,
    refreshExpiresAt: now + 30 * 86_400_000,
  });
  return { accessToken, refreshToken, id };
}

export async function graphql(
  server: EmbeddedServer,
  token: string | null,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Response> {
  return fetch(`${server.url}/member/graphql`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * `viewer` of a member query answered with HTTP 200 and no GraphQL errors (an account:read token
 * unless told).
 */
export async function viewerData(
  server: EmbeddedServer,
  query: string,
  variables?: Record<string, unknown>,
  scopes: string[] = ['account:read'],
): Promise<Json> {
  const res = await graphql(server, mintToken(server, { scopes }).accessToken, query, variables);
  expect(res.status).toBe(200);
  const body = (await res.json()) as Json;
  expect(body.errors).toBeUndefined();
  return body.data.viewer as Json;
}

/** Calls the admin REST API (/api/admin/v1) with an operator token holding `scopes`. */
export function operatorCall(
  server: EmbeddedServer,
  scopes: string[],
): (method: string, path: string, body?: unknown) => Promise<Response> {
  const { accessToken } = mintToken(server, { audience: 'operator', scopes });
  return (method, path, body) =>
    fetch(`${server.url}/api/admin/v1${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${accessToken}`,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
}
