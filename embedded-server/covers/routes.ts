import type { RequestContext, Route } from '../http/types';
import { NotFoundError } from '../http/errors';
import { getCourseBySlug } from '../store/content-catalog';
import { renderCoverSvg } from './svg';

/**
 * GET/HEAD /covers/<slug>.svg: the generated cover of a course of the school this site serves
 * (README, decision "Course covers"). Public, like the catalog the covers illustrate. Unpublished
 * courses answer exactly like unknown slugs, so a draft's title is not published through its cover.
 */
function cover(ctx: RequestContext): void {
  const file = ctx.params.file ?? '';
  if (!file.endsWith('.svg')) throw new NotFoundError('no such cover');
  const course = getCourseBySlug(
    ctx.server.db,
    ctx.server.site.schoolId,
    file.slice(0, -'.svg'.length),
  );
  if (!course || course.is_published !== 1) throw new NotFoundError('no such cover');
  const svg = renderCoverSvg(course.slug, course.title);
  const res = ctx.res;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(svg));
  res.setHeader('Cache-Control', 'public, max-age=86400');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Opened on its own (not as an <img>), an SVG is a document that could run script: this one never
  // can.
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
  // HEAD (RFC 9110 §9.3.2): the same headers, no content.
  res.end(ctx.req.method === 'HEAD' ? undefined : svg);
}

export const coverRoutes: Route[] = [
  { method: 'GET', path: '/covers/:file', handler: cover },
  { method: 'HEAD', path: '/covers/:file', handler: cover },
];
