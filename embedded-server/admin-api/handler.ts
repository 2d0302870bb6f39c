import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { z, type ZodType } from 'zod';
import type { AccessTokenInfo, HttpMethod, RequestContext, Route } from '../http/types';
import { checkBearer, sendBearerError, sendInsufficientScope } from '../http/bearer';
import { readBody } from '../http/body';
import { sendJson, setNoStore } from '../http/respond';
import { PayloadTooLargeError } from '../http/errors';
import { memberOfSchool } from '../store/content-viewer';

export const ADMIN_PREFIX = '/api/admin/v1';
/**
 * Decision: JSON bodies of the admin API are small records; 256 KiB is generous. Uploads have their
 * own limit.
 */
export const ADMIN_JSON_LIMIT = 256 * 1024;

/**
 * A handled outcome: status + JSON body. Handlers return it instead of writing the response
 * themselves.
 */
export interface AdminResult {
  status: number;
  body: unknown;
}

export interface AdminInput<Q, B> {
  ctx: RequestContext;
  token: AccessTokenInfo;
  schoolId: string;
  now: number;
  params: Readonly<Record<string, string>>;
  query: Q;
  body: B;
}

export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly details?: unknown,
  ) {
    super(description);
  }
}

export const notFound = (what: string): AdminError =>
  new AdminError(404, 'not_found', `${what} not found`);
export const conflict = (description: string): AdminError =>
  new AdminError(409, 'conflict', description);

export const ok = (body: unknown, status = 200): AdminResult => ({ status, body });

/** A new record's id: its kind's prefix and 64 random bits ("evt_9f2c…"). */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(8).toString('hex')}`;

/**
 * Enrolments, deliveries and payments are for members of this school only: a user holding no role
 * here (or no user at all) is refused, the same way publishing a notification refuses a stranger
 * (notifications.ts). A `userId` in the body is bad input: 400 invalid_request naming the field; a
 * `userId` in the path names a resource that does not exist here: 404 not_found, like PATCH
 * /members/:userId.
 */
export function requireSchoolMember(
  db: Database,
  schoolId: string,
  userId: string,
  from: 'body' | 'path',
): void {
  if (memberOfSchool(db, schoolId, userId)) return;
  if (from === 'path') throw notFound('member');
  throw new AdminError(400, 'invalid_request', 'the user must be a member of the school', [
    { path: 'userId', message: `${userId} is not a member` },
  ]);
}

function zodDetails(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

function parseWith<T>(schema: ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  const r = schema.safeParse(value);
  if (!r.success)
    throw new AdminError(400, 'invalid_request', `the ${where} is invalid`, zodDetails(r.error));
  return r.data;
}

async function readJsonBody(ctx: RequestContext): Promise<unknown> {
  const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json')
    throw new AdminError(400, 'invalid_request', 'the request body must be application/json');
  let raw: Buffer;
  try {
    raw = await readBody(ctx.req, ADMIN_JSON_LIMIT);
  } catch (err) {
    if (err instanceof PayloadTooLargeError)
      throw new AdminError(
        413,
        'invalid_request',
        `the request body exceeds ${ADMIN_JSON_LIMIT} bytes`,
      );
    throw err;
  }
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new AdminError(400, 'invalid_request', 'the request body is not valid JSON');
  }
}

function send(ctx: RequestContext, status: number, body: unknown): void {
  setNoStore(ctx.res);
  if (status === 204) {
    ctx.res.statusCode = 204;
    ctx.res.end();
    return;
  }
  sendJson(ctx.res, status, body);
}

export interface AdminRouteSpec<Q, B> {
  method: HttpMethod;
  /** Relative to /api/admin/v1, Express-style (:id). */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /**
   * The one operator scope this route needs (spec "Scopes": <area>:read / <area>:write, or a single
   * scope).
   */
  scope: string;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  response?: ZodType;
  /** Raw-body routes (uploads) read the body themselves. */
  rawBody?: boolean;
  /**
   * When the route answers 409 conflict (it throws `conflict(...)`), for /openapi.json; omitted =
   * never.
   */
  conflicts?: string;
  /** Success status; default by method: POST 201, DELETE 204, others 200. */
  status?: number;
  /**
   * A second success status with the same body (a delivery renewed in place answers 200), for
   * /openapi.json.
   */
  alsoStatus?: { status: number; description: string };
  run(input: AdminInput<Q, B>): AdminResult | Promise<AdminResult>;
}

/**
 * What /openapi.json needs beyond Route.openapi, kept beside the route rather than in the shared
 * type.
 */
export interface AdminRouteExtra {
  successStatus: number;
  alsoStatus?: { status: number; description: string };
  rawBody: boolean;
  conflicts?: string;
}
const extras = new WeakMap<Route, AdminRouteExtra>();
export function adminRouteExtra(route: Route): AdminRouteExtra | undefined {
  return extras.get(route);
}

/**
 * One admin route: bearer check -> operator audience -> scope -> zod-validated query and body ->
 * handler. The same spec feeds the router and /openapi.json (Route.openapi), so the description
 * cannot drift. Member-audience tokens are valid tokens without any operator scope: 403
 * insufficient_scope (decision).
 */
export function adminRoute<Q = undefined, B = undefined>(spec: AdminRouteSpec<Q, B>): Route {
  const route = makeRoute(spec);
  extras.set(route, {
    successStatus:
      spec.status ?? (spec.method === 'POST' ? 201 : spec.method === 'DELETE' ? 204 : 200),
    rawBody: spec.rawBody === true,
    ...(spec.conflicts !== undefined ? { conflicts: spec.conflicts } : {}),
    ...(spec.alsoStatus !== undefined ? { alsoStatus: spec.alsoStatus } : {}),
  });
  return route;
}

function makeRoute<Q, B>(spec: AdminRouteSpec<Q, B>): Route {
  return {
    method: spec.method,
    path: `${ADMIN_PREFIX}${spec.path}`,
    openapi: {
      operationId: spec.operationId,
      summary: spec.summary,
      tags: [spec.tag],
      scopes: [spec.scope],
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.response ? { response: spec.response } : {}),
    },
    async handler(ctx) {
      const verdict = checkBearer(ctx);
      if (verdict.kind !== 'ok') return sendBearerError(ctx, verdict);
      const token = verdict.token;
      if (token.audience !== 'operator' || !token.scopes.includes(spec.scope)) {
        return sendInsufficientScope(
          ctx,
          [spec.scope],
          `this request needs an operator token holding ${spec.scope}`,
        );
      }
      try {
        const query = parseWith(
          spec.query,
          Object.fromEntries(ctx.url.searchParams),
          'query string',
        );
        const body =
          spec.body && !spec.rawBody
            ? parseWith(spec.body, await readJsonBody(ctx), 'request body')
            : (undefined as B);
        const result = await spec.run({
          ctx,
          token,
          schoolId: ctx.server.site.schoolId,
          now: ctx.server.clock.now(),
          params: ctx.params,
          query,
          body,
        });
        send(ctx, result.status, result.body);
      } catch (err) {
        if (!(err instanceof AdminError)) throw err;
        send(ctx, err.status, {
          error: err.error,
          error_description: err.description,
          ...(err.details !== undefined ? { details: err.details } : {}),
        });
      }
    },
  };
}

// ---- shared schemas
// ----------------------------------------------------------------------------------------

/**
 * Offset pagination with an opaque cursor: `?limit=1..100&cursor=...` -> { data, next_cursor, total
 * }.
 */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

export function pageWindow(q: PageQuery): { limit: number; offset: number } {
  let offset = 0;
  if (q.cursor !== undefined) {
    // Only a cursor this API wrote: base64url of `o:<offset>`, exactly as encoded (Node's decoder
    // skips what it cannot read, so `!!!` would otherwise decode to nothing and read as the first
    // page).
    const text = /^[A-Za-z0-9_-]+$/.test(q.cursor)
      ? Buffer.from(q.cursor, 'base64url').toString('utf8')
      : '';
    const m = /^o:(0|[1-9][0-9]{0,14})$/.exec(text);
    if (!m || Buffer.from(text, 'utf8').toString('base64url') !== q.cursor)
      throw new AdminError(400, 'invalid_request', 'the cursor is not valid', [
        { path: 'cursor', message: 'not a cursor from this API' },
      ]);
    offset = Number(m[1]);
  }
  return { limit: q.limit, offset };
}

export function pageResult<T>(
  rows: T[],
  total: number,
  w: { limit: number; offset: number },
): AdminResult {
  const next =
    w.offset + rows.length < total
      ? Buffer.from(`o:${w.offset + rows.length}`, 'utf8').toString('base64url')
      : null;
  return ok({ data: rows, next_cursor: next, total });
}

export const pageOf = (item: ZodType) =>
  z.object({ data: z.array(item), next_cursor: z.string().nullable(), total: z.number().int() });

export const iso = (ms: number | null): string | null =>
  ms === null ? null : new Date(ms).toISOString();
export const isoDate = z.iso.datetime({ offset: true });
