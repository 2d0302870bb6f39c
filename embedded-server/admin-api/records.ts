import { z } from 'zod';
import type { Route } from '../http/types';
import * as rec from '../store/content-records';
import {
  adminRoute,
  iso,
  newId,
  notFound,
  ok,
  pageOf,
  pageQuery,
  pageResult,
  pageWindow,
} from './handler';

/**
 * The thin operator areas: real rows in admin_records, one JSON document each, with
 * list/get/create/update/ delete under `<area>:read` / `<area>:write`. school and appearance are
 * singletons (GET/PUT); comments and forms are read-only (their scopes have no write counterpart).
 */

const recordOut = z.object({
  id: z.string(),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const toOut = (r: rec.AdminRecord): z.infer<typeof recordOut> => ({
  id: r.id,
  data: r.data,
  createdAt: iso(r.createdAt)!,
  updatedAt: iso(r.updatedAt)!,
});

/** Per-area document shapes: enough structure to refuse nonsense, loose enough to stay thin. */
const SHAPES = {
  membership_plans: z.object({
    title: z.string().min(1).max(200),
    price: z.number().min(0),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .default('TWD'),
    interval: z.enum(['month', 'year']),
  }),
  coupons: z.object({
    code: z.string().regex(/^[A-Z0-9_-]{3,40}$/),
    amountOff: z.number().positive().optional(),
    percentOff: z.number().min(1).max(100).optional(),
    currency: z.string().optional(),
    maxRedemptions: z.number().int().positive().optional(),
  }),
  posts: z.object({
    title: z.string().min(1).max(200),
    body: z.string().max(20_000),
    published: z.boolean().default(false),
  }),
  subscriptions: z.object({
    userId: z.string().min(1),
    planId: z.string().min(1),
    state: z.enum(['active', 'past_due', 'canceled']),
  }),
  lecturers: z.object({ name: z.string().min(1).max(200), bio: z.string().max(5000).optional() }),
  pages: z.object({
    slug: z.string().regex(/^[a-z0-9-]+$/),
    title: z.string().min(1).max(200),
    body: z.string().max(50_000),
  }),
} as const;
type CrudArea = keyof typeof SHAPES;

/**
 * The body of a PATCH: every field optional and none defaulted, so a field the request does not
 * name keeps its stored value (RFC 5789: a PATCH changes what it names). `.partial()` alone would
 * keep the defaults, and a PATCH without `published` would set it back to false.
 */
function patchShape(shape: z.ZodObject): z.ZodObject {
  const fields = Object.entries(shape.shape).map(
    ([key, field]) =>
      [key, (field instanceof z.ZodDefault ? field.unwrap() : field).optional()] as const,
  );
  return z.object(Object.fromEntries(fields));
}

const SINGLETONS = {
  school: z.object({
    name: z.string().min(1).max(200),
    locale: z.string().max(20).optional(),
    timeZone: z.string().max(60).optional(),
  }),
  appearance: z.object({
    primaryColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .optional(),
    logoUrl: z.url().nullable().optional(),
  }),
} as const;

const PREFIX: Record<CrudArea, string> = {
  membership_plans: 'mpl',
  coupons: 'cpn',
  posts: 'pst',
  subscriptions: 'sub',
  lecturers: 'lct',
  pages: 'pag',
};

/** The PascalCase of an area for operation ids: `membership_plans` -> `MembershipPlans`. */
const opName = (area: CrudArea): string =>
  area.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());

function crudReadRoutes(area: CrudArea): Route[] {
  const idParam = `/${area}/:recordId`;
  const op = opName(area);
  return [
    adminRoute({
      method: 'GET',
      path: `/${area}`,
      operationId: `list${op}`,
      summary: `List ${area}`,
      tag: area,
      scope: `${area}:read`,
      query: pageQuery,
      response: pageOf(recordOut),
      run: ({ ctx, schoolId, query }) => {
        const w = pageWindow(query);
        const { rows, total } = rec.listRecords(ctx.server.db, schoolId, area, w.limit, w.offset);
        return pageResult(rows.map(toOut), total, w);
      },
    }),
    adminRoute({
      method: 'GET',
      path: idParam,
      operationId: `get${op}`,
      summary: `Get one of ${area}`,
      tag: area,
      scope: `${area}:read`,
      response: recordOut,
      run: ({ ctx, schoolId, params }) => {
        const r = rec.getRecord(ctx.server.db, schoolId, area, params.recordId!);
        if (!r) throw notFound(area);
        return ok(toOut(r));
      },
    }),
  ];
}

function crudWriteRoutes(area: CrudArea): Route[] {
  // Widened to one document type: the union of per-area schemas would not unify in the generic
  // route spec.
  const shape = SHAPES[area] as unknown as z.ZodObject<Record<string, z.ZodType>>;
  const idParam = `/${area}/:recordId`;
  const op = opName(area);
  return [
    adminRoute({
      method: 'POST',
      path: `/${area}`,
      operationId: `create${op}`,
      summary: `Create one of ${area}`,
      tag: area,
      scope: `${area}:write`,
      body: shape,
      response: recordOut,
      run: ({ ctx, schoolId, now, body }) =>
        ok(
          toOut(
            rec.putRecord(
              ctx.server.db,
              schoolId,
              area,
              newId(PREFIX[area]),
              body as Record<string, unknown>,
              now,
            ),
          ),
          201,
        ),
    }),
    adminRoute({
      method: 'PATCH',
      path: idParam,
      operationId: `update${op}`,
      summary: `Update one of ${area}`,
      tag: area,
      scope: `${area}:write`,
      body: patchShape(shape),
      response: recordOut,
      run: ({ ctx, schoolId, now, params, body }) => {
        const current = rec.getRecord(ctx.server.db, schoolId, area, params.recordId!);
        if (!current) throw notFound(area);
        return ok(
          toOut(
            rec.putRecord(
              ctx.server.db,
              schoolId,
              area,
              current.id,
              { ...current.data, ...(body as Record<string, unknown>) },
              now,
            ),
          ),
        );
      },
    }),
    adminRoute({
      method: 'DELETE',
      path: idParam,
      operationId: `delete${op}`,
      summary: `Delete one of ${area}`,
      tag: area,
      scope: `${area}:write`,
      run: ({ ctx, schoolId, params }) => {
        if (!rec.deleteRecord(ctx.server.db, schoolId, area, params.recordId!))
          throw notFound(area);
        return ok(null, 204);
      },
    }),
  ];
}

/** List, get, create, update and delete, in that order (the OpenAPI document lists them so). */
function crudRoutes(area: CrudArea): Route[] {
  return [...crudReadRoutes(area), ...crudWriteRoutes(area)];
}

function singletonRoutes(area: keyof typeof SINGLETONS): Route[] {
  const op = area[0]!.toUpperCase() + area.slice(1);
  const id = (schoolId: string) => `${area}_${schoolId}`;
  return [
    adminRoute({
      method: 'GET',
      path: `/${area}`,
      operationId: `get${op}`,
      summary: `Read the ${area} settings`,
      tag: area,
      scope: `${area}:read`,
      response: recordOut,
      run: ({ ctx, schoolId }) => {
        const r = rec.getRecord(ctx.server.db, schoolId, area, id(schoolId));
        if (!r) throw notFound(`${area} settings`);
        return ok(toOut(r));
      },
    }),
    adminRoute({
      method: 'PUT',
      path: `/${area}`,
      operationId: `put${op}`,
      summary: `Replace the ${area} settings`,
      tag: area,
      scope: `${area}:write`,
      body: SINGLETONS[area] as unknown as z.ZodType<Record<string, unknown>>,
      response: recordOut,
      run: ({ ctx, schoolId, now, body }) =>
        ok(
          toOut(
            rec.putRecord(
              ctx.server.db,
              schoolId,
              area,
              id(schoolId),
              body as Record<string, unknown>,
              now,
            ),
          ),
        ),
    }),
  ];
}

function readOnlyRoutes(area: 'comments' | 'forms'): Route[] {
  const op = area[0]!.toUpperCase() + area.slice(1);
  return [
    adminRoute({
      method: 'GET',
      path: `/${area}`,
      operationId: `list${op}`,
      summary: `List ${area} (read-only)`,
      tag: area,
      scope: `${area}:read`,
      query: pageQuery,
      response: pageOf(recordOut),
      run: ({ ctx, schoolId, query }) => {
        const w = pageWindow(query);
        const { rows, total } = rec.listRecords(ctx.server.db, schoolId, area, w.limit, w.offset);
        return pageResult(rows.map(toOut), total, w);
      },
    }),
  ];
}

export const recordRoutes: Route[] = [
  ...(Object.keys(SHAPES) as CrudArea[]).flatMap(crudRoutes),
  ...singletonRoutes('school'),
  ...singletonRoutes('appearance'),
  ...readOnlyRoutes('comments'),
  ...readOnlyRoutes('forms'),
];
