import type { Route } from '../http/types';
import { courseRoutes } from './courses';
import { orderRoutes } from './orders';
import { notificationRoutes } from './notifications';
import { catalogRoutes } from './catalog';
import { recordRoutes } from './records';
import { storageRoutes } from './storage';
import { buildOpenApi } from './openapi';
import { authMarkdown } from './auth-md';
import { registrationPolicy } from '../oauth/settings';

/** The one admin route table: the router serves it and /openapi.json is generated from it. */
export const adminRoutes: Route[] = [
  ...courseRoutes,
  ...orderRoutes,
  ...notificationRoutes,
  ...catalogRoutes,
  ...recordRoutes,
  ...storageRoutes,
];

/** /openapi.json and /auth.md carry the real base URL of the running server. */
export const docsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/openapi.json',
    handler(ctx) {
      const body = JSON.stringify(buildOpenApi(ctx.server.baseUrl, adminRoutes), null, 2);
      ctx.res.statusCode = 200;
      ctx.res.setHeader('Content-Type', 'application/json; charset=utf-8');
      ctx.res.setHeader('Cache-Control', 'no-cache');
      ctx.res.end(body);
    },
  },
  {
    method: 'GET',
    path: '/auth.md',
    handler(ctx) {
      const body = authMarkdown(ctx.server.baseUrl, registrationPolicy(ctx.server));
      ctx.res.statusCode = 200;
      ctx.res.setHeader('Content-Type', 'text/markdown; charset=utf-8');
      ctx.res.setHeader('Cache-Control', 'no-cache');
      ctx.res.end(body);
    },
  },
];
