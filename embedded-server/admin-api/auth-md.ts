import type { RegistrationPolicy } from '../http/types';
import { MEMBER_CLIENT_SCOPES } from '../oauth/scopes';
import { PATHS, REGISTRATION_POLICY_KEY } from '../oauth/settings';

/**
 * The redirect the walkthrough uses: a loopback callback (RFC 8252 §7.3) the reader's browser is
 * sent to.
 */
const CALLBACK = 'http://127.0.0.1:8765/callback';

/** Scope values as sent in a URL query (RFC 6749 §3.3 space-delimited, percent-encoded). */
const SCOPE_ENCODER = `$(printf '%s' "$SCOPE" | sed 's/ /%20/g; s/:/%3A/g')`;

function registration(base: string, policy: RegistrationPolicy): string {
  return `Whether a client other than an allowlisted vendor is registered is published in the authorization-server metadata as
\`${REGISTRATION_POLICY_KEY}\` (this server: \`${policy}\`): with \`allowlist_or_loopback\`, a client whose redirect URIs are all
loopback (\`http://127.0.0.1:<port>/<path>\`) gets a new \`client_id\` whatever its name; with \`allowlist_only\`, an unknown
name is refused with \`invalid_client_metadata\` whatever its redirect URIs. An allowlisted vendor \`client_name\` returns
that platform's \`client_id\`. A fixed HTTPS callback is refused with \`invalid_redirect_uri\`. A Client ID Metadata Document
URL can serve as \`client_id\` when \`client_id_metadata_document_supported\` is true.

\`\`\`sh
curl --fail-with-body -sS -X POST ${base}${PATHS.register} -H 'Content-Type: application/json' -d '{"client_name":"My Tool","application_type":"native","redirect_uris":["${CALLBACK}"],"token_endpoint_auth_method":"none"}'
CLIENT_ID='<the client_id of the answer>'
SCOPE='openid profile email courses:read'
\`\`\``;
}

function authorize(base: string): string {
  return `Make a PKCE pair (S256), a \`state\` and a \`nonce\`, and print the address to open:

\`\`\`sh
VERIFIER=$(openssl rand -hex 32)
CHALLENGE=$(printf '%s' "$VERIFIER" | openssl dgst -sha256 -binary | openssl base64 -A | tr '+/' '-_' | tr -d '=')
STATE=$(openssl rand -hex 16)
NONCE=$(openssl rand -hex 16)
echo "${base}${PATHS.authorize}?response_type=code&client_id=$CLIENT_ID&redirect_uri=${encodeURIComponent(CALLBACK)}&scope=${SCOPE_ENCODER}&resource=${encodeURIComponent(base)}&code_challenge=$CHALLENGE&code_challenge_method=S256&state=$STATE&nonce=$NONCE"
\`\`\`

Open the printed address in a browser, sign in (a member app: any member of the site; an operator tool: an owner,
manager or admin) and allow. The browser is then sent to \`${CALLBACK}?code=...&state=...&iss=...\`; nothing listens
there, so the page does not load, but the address bar holds the answer. Check that \`state\` equals \`$STATE\` and
\`iss\` equals \`${base}\` (RFC 9207), then exchange the code within 60 seconds:

\`\`\`sh
CODE='<the code parameter of the callback address>'
curl --fail-with-body -sS -X POST ${base}${PATHS.token} -d grant_type=authorization_code -d "code=$CODE" -d redirect_uri=${CALLBACK} -d "client_id=$CLIENT_ID" -d "code_verifier=$VERIFIER" -d resource=${base}
ACCESS_TOKEN='<the access_token of the answer>'
REFRESH_TOKEN='<the refresh_token of the answer>'
\`\`\`

The answer carries \`access_token\`, \`refresh_token\`, \`school_id\`, \`school_subdomain\`, \`created_at\` and, with
\`openid\`, an \`id_token\` (ES256; verify iss, aud, exp, nonce and the \`kid\` at \`jwks_uri\`, or call UserInfo).
Store the \`resource\` you sent beside the token: the server does not echo it.`;
}

function use(base: string): string {
  return `### Call UserInfo

\`\`\`sh
curl --fail-with-body -sS ${base}${PATHS.userinfo} -H "Authorization: Bearer $ACCESS_TOKEN"
\`\`\`

### Member app: the member API

\`\`\`sh
curl --fail-with-body -sS -X POST ${base}/member/graphql -H "Authorization: Bearer $ACCESS_TOKEN" -H 'Content-Type: application/json' -d '{"query":"{ viewer { name enrolledCourses(first: 20) { nodes { title } } } }"}'
curl --fail-with-body -sS -X POST ${base}/mcp -H "Authorization: Bearer $ACCESS_TOKEN" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_my_courses","arguments":{"first":5}}}'
\`\`\`

The same token serves \`/mcp\` (its member tools answer from the same data; see "MCP assistants").

### Operator tool: the admin API

\`\`\`sh
curl --fail-with-body -sS ${base}/api/admin/v1/courses -H "Authorization: Bearer $ACCESS_TOKEN"
\`\`\`

### Refresh

Access tokens live two hours. Refresh with \`grant_type=refresh_token\` (no new sign-in); the old pair stays valid until
the new access token is first presented, then it is revoked:

\`\`\`sh
curl --fail-with-body -sS -X POST ${base}${PATHS.token} -d grant_type=refresh_token -d "refresh_token=$REFRESH_TOKEN" -d "client_id=$CLIENT_ID"
ACCESS_TOKEN='<the access_token of the new answer>'
REFRESH_TOKEN='<the refresh_token of the new answer>'
\`\`\``;
}

const ERRORS = (base: string) => `| Response | Meaning | Do |
| --- | --- | --- |
| 401 \`invalid_token\` + \`WWW-Authenticate: Bearer ... resource_metadata="${base}${PATHS.protectedResourceMetadata}"\` | missing, expired, revoked, or issued for another origin/school | refresh, or authorize again |
| 403 \`insufficient_scope\` | the token holds none of the scopes the endpoint needs | authorize with the scope |
| 200 with \`errors[].extensions.code = "INSUFFICIENT_SCOPE"\` | GraphQL field needs the other account scope | match on \`errors\`, not the status |
| 503 \`temporarily_unavailable\` (\`/mcp\`, \`Retry-After\`) | the server could not check the token | retry later |
| 400 \`invalid_request\` (admin API) | body or query failed validation; \`details\` lists each problem | fix the request |
| \`invalid_scope\` on the callback | an operator client asked for \`account:*\`, or a member app for operator scopes | use the client of the other kind |`;

/**
 * GET /auth.md: the walkthrough (spec order: discover, pick a method, register, use the credential,
 * handle errors, revoke). Every command is one line, runnable as written in a POSIX shell once each
 * `<...>` is replaced as the text says (test/embedded-server/admin-api/auth-md.test.ts runs them
 * all with curl).
 */
export function authMarkdown(base: string, policy: RegistrationPolicy): string {
  return `# Connecting to ${base}

This site is an online-learning service secured with OAuth 2.0 and OpenID Connect. Members read their own data
through GraphQL at \`${base}/member/graphql\`; operator tools use the admin REST API under \`${base}/api/admin/v1/\`
(described in \`${base}/openapi.json\`). \`${base}/mcp\` serves Model Context Protocol clients, anonymously or with a
member token. The commands below run in a POSIX shell with \`curl\` and \`openssl\`; replace each \`<...>\` as it says.

## 1. Discover

\`\`\`sh
curl --fail-with-body -sS ${base}${PATHS.protectedResourceMetadata}
curl --fail-with-body -sS ${base}${PATHS.authorizationServerMetadata}
curl --fail-with-body -sS ${base}${PATHS.openidConfiguration}
\`\`\`

The authorization-server metadata is the source of truth: endpoints, grants, scopes. The protected resource is the
origin \`${base}\`. There is no introspection endpoint.

## 2. Pick a method

- **Member app** (reads one member's courses, payments, notifications; an MCP assistant is one): a site operator
  creates its \`client_id\` under Developers > OAuth applications (after turning on the beta feature "MCP
  connections"). There is no self-serve route. Scopes: \`openid profile email account:read\` (add \`account:write\` to
  mark notifications read). Send \`resource=${base}\` at authorization and again at the token request.
- **Operator tool** (admin API): register (step 3) and ask for operator scopes such as \`courses:read students:write\`.
  \`account:read\` is refused to operator clients with \`invalid_scope\`.

Every flow is Authorization Code with PKCE (\`code_challenge_method=S256\`). Follow step 3 for one of the two.

## 3. Register (or get a client_id)

### Member app: the client_id from the operator

\`\`\`sh
CLIENT_ID='<the client_id the operator gave you>'
SCOPE='openid profile email account:read'
\`\`\`

The application's redirect URIs must include \`http://127.0.0.1/callback\` (any port, RFC 8252 §7.3), which step 4
uses. A confidential application also adds \`-d "client_secret=..."\` to every token and revocation request.

### Operator tool: register

${registration(base, policy)}

## 4. Use the credential

### Authorize and get tokens

${authorize(base)}

${use(base)}

## 5. Handle errors

${ERRORS(base)}

## 6. Revoke

\`\`\`sh
curl --fail-with-body -sS -X POST ${base}${PATHS.revoke} -d "token=$REFRESH_TOKEN" -d "client_id=$CLIENT_ID"
\`\`\`

Posting the refresh token ends the session (both tokens). Confidential clients add \`client_secret\`; without it the
answer is 403 \`unauthorized_client\`. Revoking an expired access token answers 200 and changes nothing.

## MCP assistants

An assistant is a member app: it uses the \`client_id\` an operator made for it (step 3, with the assistant's own
redirect URI) and asks for \`${MEMBER_CLIENT_SCOPES.join(' ')}\`, the scopes
\`${base}${PATHS.mcpProtectedResourceMetadata}\` lists. Without a token \`/mcp\` serves the public tools only:

\`\`\`sh
curl --fail-with-body -sS -X POST ${base}/mcp -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
\`\`\`
`;
}
