import type { Route, RequestContext } from '../http/types';
import { checkBearer, sendBearerError, sendInsufficientScope } from '../http/bearer';
import { readJson } from '../http/body';
import { sendJson, sendJsonBytes, setNoStore } from '../http/respond';
import { InvalidRequestError, PayloadTooLargeError } from '../http/errors';
import { createMemberContext } from './context';
import { executeMemberRequest, type GraphQLRequest } from './execute';
import { MAX_RESPONSE_BYTES } from './limits';
import { memberSchema } from './schema';

export const ACCOUNT_SCOPES = ['account:read', 'account:write'] as const;
/**
 * Decision: 64 KiB is far above any real member query (the app's sync query is ~3 KiB); larger
 * bodies get 413.
 */
export const MEMBER_BODY_LIMIT = 64 * 1024;

/** GraphQL-shaped refusal for requests that never reach the executor (bad JSON, wrong shape). */
function sendRequestError(
  ctx: RequestContext,
  status: number,
  message: string,
  code: string,
): void {
  setNoStore(ctx.res);
  sendJson(ctx.res, status, { errors: [{ message, extensions: { code } }] });
}

function toGraphQLRequest(body: unknown): GraphQLRequest | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return 'The request body must be a JSON object.';
  const b = body as Record<string, unknown>;
  if (typeof b['query'] !== 'string' || b['query'].length === 0)
    return 'The request body must carry a string field "query".';
  const variables = b['variables'];
  if (
    variables !== undefined &&
    variables !== null &&
    (typeof variables !== 'object' || Array.isArray(variables))
  )
    return '"variables" must be an object.';
  const op = b['operationName'];
  if (op !== undefined && op !== null && typeof op !== 'string')
    return '"operationName" must be a string.';
  return {
    query: b['query'],
    variables: (variables ?? null) as Record<string, unknown> | null,
    operationName: (op ?? null) as string | null,
  };
}

/**
 * POST /member/graphql. Pipeline (service-spec "Protected resources"):
 * 1. bearer check (checkBearer: 401 invalid_token + WWW-Authenticate for
 *    no/invalid/other-origin/no-school tokens, 503 when no verdict; it also revokes the parent pair
 *    on a refreshed token's first presentation);
 * 2. the token must hold account:read or account:write, else 403 insufficient_scope +
 *    WWW-Authenticate (operator-audience tokens never hold them: they end here too, decision in
 *    README);
 * 3. JSON body -> GraphQL request (400 on bad JSON or shape, 413 over the limit);
 * 4. execute: field-level scope errors come back as HTTP 200 with `errors`, no WWW-Authenticate.
 * There is no anonymous mode and no GET (the router answers 405).
 */
async function handleGraphQL(ctx: RequestContext): Promise<void> {
  // Fault switch (README "Fault injection"): the API is down for maintenance while the rest of the
  // site answers.
  if (ctx.server.faults.memberApiUnavailable) {
    setNoStore(ctx.res);
    sendJson(
      ctx.res,
      503,
      {
        error: 'temporarily_unavailable',
        error_description: 'the member API is temporarily unavailable; retry later',
      },
      { 'Retry-After': '5' },
    );
    return;
  }
  const verdict = checkBearer(ctx);
  if (verdict.kind !== 'ok') return sendBearerError(ctx, verdict);
  const token = verdict.token;
  if (token.audience !== 'member' || !ACCOUNT_SCOPES.some((s) => token.scopes.includes(s))) {
    return sendInsufficientScope(
      ctx,
      ACCOUNT_SCOPES,
      'this API needs a member token holding account:read or account:write',
    );
  }
  let body: unknown;
  try {
    body = await readJson(ctx.req, MEMBER_BODY_LIMIT);
  } catch (err) {
    if (err instanceof PayloadTooLargeError)
      return sendRequestError(
        ctx,
        413,
        `The request body exceeds ${MEMBER_BODY_LIMIT} bytes.`,
        'PAYLOAD_TOO_LARGE',
      );
    if (err instanceof InvalidRequestError)
      return sendRequestError(ctx, 400, err.description, 'BAD_REQUEST');
    throw err;
  }
  const request = toGraphQLRequest(body);
  if (typeof request === 'string') return sendRequestError(ctx, 400, request, 'BAD_REQUEST');
  const memberCtx = createMemberContext(ctx.server.db, {
    schoolId: ctx.server.site.schoolId,
    userId: token.userId,
    scopes: token.scopes,
    now: ctx.server.clock.now(),
    baseUrl: ctx.server.baseUrl,
  });
  const result = await executeMemberRequest(memberSchema(), request, memberCtx, ctx.server.log);
  setNoStore(ctx.res);
  // The answer is bounded whatever the query: one larger than the limit is replaced by a
  // GraphQL error (HTTP 200 with `errors`, like every other GraphQL failure in the spec).
  const limit = ctx.server.memberResponseLimitBytes ?? MAX_RESPONSE_BYTES;
  // Encoded once: measured here, written as it is (sendJsonBytes).
  const payload = Buffer.from(JSON.stringify(result), 'utf8');
  if (payload.length > limit) {
    ctx.server.log?.(`member-api: answer over ${limit} bytes refused`);
    return sendJson(ctx.res, 200, {
      data: null,
      errors: [
        {
          message: `The answer would exceed ${limit} bytes. Ask for fewer fields or smaller pages.`,
          extensions: { code: 'RESPONSE_TOO_LARGE', maxBytes: limit },
        },
      ],
    });
  }
  sendJsonBytes(ctx.res, 200, payload);
}

export const memberApiRoutes: Route[] = [
  { method: 'POST', path: '/member/graphql', handler: handleGraphQL },
];
