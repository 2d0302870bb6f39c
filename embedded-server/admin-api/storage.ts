import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Route } from '../http/types';
import { readBody } from '../http/body';
import { PayloadTooLargeError } from '../http/errors';
import { insertUpload } from '../store/content-records';
import { adminRoute, AdminError, ok } from './handler';

/**
 * Decision (README): uploads up to 5 MiB; larger bodies are refused with 413 before they are
 * buffered whole.
 */
export const UPLOAD_LIMIT = 5 * 1024 * 1024;

const uploadQuery = z.object({
  fileName: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^/\\]+$/, 'a file name, not a path'),
});

export const storageRoutes: Route[] = [
  adminRoute({
    method: 'POST',
    path: '/storage/uploads',
    operationId: 'uploadFile',
    summary: 'Upload a file (raw body, Content-Type = the file type, at most 5 MiB)',
    tag: 'storage',
    scope: 'storage:write',
    query: uploadQuery,
    rawBody: true,
    response: z.object({
      id: z.string(),
      fileName: z.string(),
      contentType: z.string(),
      size: z.number().int(),
      createdAt: z.string(),
    }),
    run: async ({ ctx, schoolId, now, query }) => {
      const contentType = (ctx.req.headers['content-type'] ?? 'application/octet-stream')
        .split(';')[0]!
        .trim();
      let bytes: Buffer;
      try {
        bytes = await readBody(ctx.req, UPLOAD_LIMIT);
      } catch (err) {
        if (err instanceof PayloadTooLargeError)
          throw new AdminError(
            413,
            'payload_too_large',
            `uploads are limited to ${UPLOAD_LIMIT} bytes`,
          );
        throw err;
      }
      if (bytes.length === 0) throw new AdminError(400, 'invalid_request', 'the upload is empty');
      const id = `upl_${randomBytes(8).toString('hex')}`;
      insertUpload(ctx.server.db, {
        id,
        school_id: schoolId,
        file_name: query.fileName,
        content_type: contentType,
        size: bytes.length,
        bytes,
        created_at: now,
      });
      return ok(
        {
          id,
          fileName: query.fileName,
          contentType,
          size: bytes.length,
          createdAt: new Date(now).toISOString(),
        },
        201,
      );
    },
  }),
];
