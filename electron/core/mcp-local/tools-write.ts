/**
 * The one tool that asks for a change: marking notices read, confirmed by the student in the app.
 */
import { z } from 'zod';
import { prepared } from '../db/index';
import { freshness, schoolsFor, ToolRefusal } from './context';
import { envelope, framed } from './output-schemas';
import { submitRequest } from './requests';
import { defineTool } from './tool-types';

export const askToMarkRead = defineTool({
  name: 'ask_to_mark_notices_read',
  title: 'Ask to mark notices read',
  description:
    'Asks the student, in Learning Desktop, to mark these notices read. Nothing changes until the student ' +
    'confirms there; the answer only says the request is waiting.',
  category: 'notifications',
  needs: 'allowMarkRead',
  input: z.object({
    siteId: z.string().min(1).max(100),
    noticeIds: z.array(z.string().min(1).max(200)).min(1).max(50),
  }),
  output: envelope({
    requestId: z.string(),
    status: z.literal('waiting-for-student'),
    notices: z.number(),
  }),
  readOnly: false,
  run(ctx, { siteId, noticeIds }) {
    const [school] = schoolsFor(ctx, 'notifications', siteId);
    const ids = [...new Set(noticeIds)];
    const known = prepared<{ siteId: string; ids: string }, { id: string }>(
      ctx.db,
      `SELECT id FROM notifications WHERE site_id = @siteId AND read_at IS NULL
         AND id IN (SELECT value FROM json_each(@ids))`,
    )
      .all({ siteId, ids: JSON.stringify(ids) })
      .map((r) => r.id);
    if (known.length === 0)
      throw new ToolRefusal(
        'None of these notices is unread in this school. Call list_notifications.',
        'error',
      );
    const requestId = submitRequest(ctx.dataDir, { client: ctx.client, siteId, noticeIds: known });
    const value = {
      ...framed([freshness(ctx, school!)], []),
      requestId,
      status: 'waiting-for-student' as const,
      notices: known.length,
    };
    return { value, rows: known.length };
  },
});
