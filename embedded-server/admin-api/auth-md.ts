import type { RegistrationPolicy } from '../http/types';
import { PATHS, REGISTRATION_POLICY_KEY } from '../oauth/settings';

/** GET /auth.md: the walkthrough (spec order: discover, pick a method, register, use the credential, handle errors, revoke). */
export function authMarkdown(base: string, registration: RegistrationPolicy): string {
  return `# Connecting to ${base}

This site is an online-learning service secured with OAuth 2.0 and OpenID Connect. Members read their own data
through GraphQL at \`${base}/member/graphql\`; operator tools use the admin REST API under \`${base}/api/admin/v1/\`
(described in \`${base}/openapi.json\`). \`${base}/mcp\` serves Model Context Protocol clients, anonymously or with a member token.

## 1. Discover

\`\`\`sh
curl ${base}${PATHS.protectedResourceMetadata}
curl ${base}${PATHS.authorizationServerMetadata}   # the source of truth: endpoints, grants, scopes
curl ${base}${PATHS.openidConfiguration}
\`\`\`

The protected resource is the origin \`${base}\`. There is no introspection endpoint.

## 2. Pick a method

- **Member app** (reads one member's courses, payments, notifications): use the \`client_id\` a site operator created
  under Developers → OAuth applications. Scopes: \`openid profile email account:read\` (add \`account:write\` to mark
  notifications read). Send \`resource=${base}\` at authorization and again at the token request.
- **Operator tool** (admin API): register (step 3) and request operator scopes such as \`courses:read students:write\`.
  \`account:read\` is refused to operator clients with \`invalid_scope\`.

Every flow is Authorization Code with PKCE (\`code_challenge_method=S256\`).

## 3. Register (operator clients)

\`\`\`sh
curl -X POST ${base}${PATHS.register} -H 'Content-Type: application/json' \\
  -d '{"client_name":"My Tool","application_type":"native","redirect_uris":["http://127.0.0.1:8765/callback"],"token_endpoint_auth_method":"none"}'
\`\`\`

An allowlisted vendor \`client_name\` returns that platform's \`client_id\`. Whether any other client is registered
is published in the authorization-server metadata as \`${REGISTRATION_POLICY_KEY}\` (this server: \`${registration}\`):
with \`allowlist_or_loopback\`, a client whose redirect URIs are all loopback (\`http://127.0.0.1:<port>/<path>\`) gets a
new \`client_id\` whatever its name; with \`allowlist_only\`, an unknown name is refused with
\`invalid_client_metadata\` whatever its redirect URIs. A fixed HTTPS callback is refused with \`invalid_redirect_uri\`.
A Client ID Metadata Document URL can serve as \`client_id\` when \`client_id_metadata_document_supported\` is true.

## 4. Use the credential

Open the browser at:

\`\`\`
${base}${PATHS.authorize}?response_type=code&client_id=CLIENT_ID&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback
  &scope=openid%20profile%20email%20account%3Aread&resource=${encodeURIComponent(base)}
  &code_challenge=CHALLENGE&code_challenge_method=S256&state=STATE&nonce=NONCE
\`\`\`

Check \`state\` and \`iss\` on the callback, then exchange the code:

\`\`\`sh
curl -X POST ${base}${PATHS.token} -H 'Content-Type: application/x-www-form-urlencoded' \\
  -d grant_type=authorization_code -d code=CODE -d redirect_uri=http://127.0.0.1:8765/callback \\
  -d client_id=CLIENT_ID -d code_verifier=VERIFIER -d resource=${base}
\`\`\`

The response carries \`access_token\`, \`refresh_token\`, \`school_id\`, \`school_subdomain\`, \`created_at\` and, with
\`openid\`, an \`id_token\` (ES256; verify iss, aud, exp, nonce and the \`kid\` at \`jwks_uri\`, or call UserInfo).
Store the \`resource\` you sent beside the token: the server does not echo it.

\`\`\`sh
curl -X POST ${base}/member/graphql -H 'Authorization: Bearer ACCESS_TOKEN' -H 'Content-Type: application/json' \\
  -d '{"query":"{ viewer { name enrolledCourses(first: 20) { nodes { title } } } }"}'
curl ${base}/api/admin/v1/courses -H 'Authorization: Bearer OPERATOR_ACCESS_TOKEN'
\`\`\`

Member access tokens live two hours. Refresh with \`grant_type=refresh_token\`; the old pair stays valid until the new
access token is first presented, then it is revoked.

## 5. Handle errors

| Response | Meaning | Do |
| --- | --- | --- |
| 401 \`invalid_token\` + \`WWW-Authenticate: Bearer ... resource_metadata="${base}${PATHS.protectedResourceMetadata}"\` | missing, expired, revoked, or issued for another origin/school | refresh, or authorize again |
| 403 \`insufficient_scope\` | the token holds none of the scopes the endpoint needs | authorize with the scope |
| 200 with \`errors[].extensions.code = "INSUFFICIENT_SCOPE"\` | GraphQL field needs the other account scope | match on \`errors\`, not the status |
| 503 \`temporarily_unavailable\` (\`/mcp\`, \`Retry-After\`) | the server could not check the token | retry later |
| 400 \`invalid_request\` (admin API) | body or query failed validation; \`details\` lists each problem | fix the request |

## 6. Revoke

\`\`\`sh
curl -X POST ${base}${PATHS.revoke} -H 'Content-Type: application/x-www-form-urlencoded' \\
  -d token=REFRESH_TOKEN -d client_id=CLIENT_ID
\`\`\`

Posting the refresh token ends the session (both tokens). Confidential clients add \`client_secret\`; without it the
answer is 403 \`unauthorized_client\`. Revoking an expired access token answers 200 and changes nothing.
`;
}
