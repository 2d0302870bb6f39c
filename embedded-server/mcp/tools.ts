import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AccessTokenInfo, ServerContext } from '../http/types';
import * as courses from '../store/content-courses';
import * as catalog from '../store/content-catalog';
import * as ent from '../store/content-entitlements';
import { getRecord } from '../store/content-records';
import { createMemberContext } from '../member-api/context';
import { executeMemberRequest } from '../member-api/execute';
import { memberSchema } from '../member-api/schema';
import type {
  CourseProgress,
  LastWatchedLecture,
  Lecture,
  Section,
} from '../member-api/schema-types';
import * as out from './output-schemas';

/**
 * The /mcp tools (decision, README; spec: "The tools offered at /mcp and their payloads: not
 * shown"). Public tools read the public catalog and need no token. Member tools read the viewer's
 * own data through the member GraphQL executor, so they return exactly what /member/graphql would,
 * under the same scope rules.
 */

/**
 * The answer twice, as MCP asks of a tool with an outputSchema: structured, and as text for older
 * clients.
 */
const text = (value: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  structuredContent: value,
});
const failure = (message: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: message }],
});
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const PUBLIC_TOOLS = ['search_courses', 'get_school_info', 'list_upcoming_events'] as const;
export const MEMBER_TOOLS = [
  'list_my_courses',
  'get_course_progress',
  'list_my_payments',
  'list_notifications',
  'mark_notification_read',
] as const;

function registerPublicTools(mcp: McpServer, server: ServerContext): void {
  const schoolId = server.site.schoolId;
  mcp.registerTool(
    'search_courses',
    {
      title: 'Search courses',
      description:
        'Search the public course catalog of this school by words in the title or description.',
      inputSchema: {
        query: z
          .string()
          .max(200)
          .default('')
          .describe('Words to look for; empty lists the newest courses.'),
        limit: z.number().int().min(1).max(50).default(10),
      },
      outputSchema: out.searchCoursesOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, limit }) =>
      text({
        courses: catalog.searchPublishedCourses(server.db, schoolId, query, limit).map((c) => ({
          id: c.id,
          slug: c.slug,
          title: c.title,
          description: c.description,
          instructorName: c.instructor_name,
          price: c.price,
          currency: c.currency,
        })),
      }),
  );
  mcp.registerTool(
    'get_school_info',
    {
      title: 'School information',
      description: 'Name, subdomain and public settings of this school.',
      outputSchema: out.schoolInfoOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => {
      const settings = getRecord(server.db, schoolId, 'school', `school_${schoolId}`)?.data ?? {};
      return text({
        id: schoolId,
        name: server.site.name,
        subdomain: server.site.subdomain,
        url: server.baseUrl,
        locale: typeof settings['locale'] === 'string' ? settings['locale'] : null,
        timeZone: typeof settings['timeZone'] === 'string' ? settings['timeZone'] : null,
        publishedCourses: catalog.searchPublishedCourses(server.db, schoolId, '', 1000).length,
      });
    },
  );
  mcp.registerTool(
    'list_upcoming_events',
    {
      title: 'Upcoming events',
      description: 'Published events of this school that have not ended, soonest first.',
      inputSchema: { limit: z.number().int().min(1).max(50).default(10) },
      outputSchema: out.upcomingEventsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ limit }) =>
      text({
        events: ent
          .listUpcomingPublicEvents(server.db, schoolId, server.clock.now(), limit)
          .map((e) => ({
            id: e.id,
            title: e.title,
            startsAt: iso(e.starts_at),
            endsAt: iso(e.ends_at),
            location: e.location,
            isOnline: e.is_online === 1,
          })),
      }),
  );
}

/**
 * A member tool's context: the server, the caller's token, and the member API read as that token.
 */
interface MemberTools {
  mcp: McpServer;
  server: ServerContext;
  token: AccessTokenInfo;
  /** Each member tool checks its own scope first: a clear tool error, never a protocol error. */
  guard(scope: 'account:read' | 'account:write'): CallToolResult | null;
  /** Runs a member GraphQL document as the token's member; errors become one tool error. */
  query(document: string, variables: Record<string, unknown>): Promise<CallToolResult>;
}

function memberTools(mcp: McpServer, server: ServerContext, token: AccessTokenInfo): MemberTools {
  const guard = (scope: 'account:read' | 'account:write'): CallToolResult | null =>
    token.audience === 'member' && token.scopes.includes(scope)
      ? null
      : failure(`This tool requires a member token with the ${scope} scope.`);
  async function query(
    document: string,
    variables: Record<string, unknown>,
  ): Promise<CallToolResult> {
    const ctx = createMemberContext(server.db, {
      schoolId: server.site.schoolId,
      userId: token.userId,
      scopes: token.scopes,
      now: server.clock.now(),
      baseUrl: server.baseUrl,
    });
    const result = await executeMemberRequest(
      memberSchema(),
      { query: document, variables },
      ctx,
      server.log,
    );
    if (result.errors?.length) return failure(result.errors.map((e) => e.message).join('\n'));
    return text(result.data ?? {});
  }
  return { mcp, server, token, guard, query };
}

const page = {
  first: z.number().int().min(1).max(100).default(20),
  after: z.string().optional().describe('endCursor of the previous page'),
};

/**
 * A lecture as get_course_progress answers it: the member schema's fields, DateTime as ISO text.
 */
type ProgressLecture = Pick<Lecture, 'lectureId' | 'title' | 'state' | 'isLocked'> & {
  unlockAt: string | null;
};
type CourseProgressAnswer = Pick<
  CourseProgress,
  'totalLectures' | 'completedLectures' | 'percent'
> & {
  courseId: string;
  lastWatchedLecture: Pick<LastWatchedLecture, 'lectureId' | 'positionSeconds'> | null;
  sections: (Pick<Section, 'id' | 'title'> & { lectures: ProgressLecture[] })[];
};

/**
 * One course's sections and lectures with the member's states, as the member API's `sections`
 * reads.
 */
function courseProgress(
  server: ServerContext,
  userId: string,
  courseId: string,
  enrollment: courses.EnrollmentRow,
): CourseProgressAnswer {
  const now = server.clock.now();
  const sections = courses.sectionsForCourses(server.db, [courseId]);
  const lectures = courses.lecturesForCourses(server.db, userId, [courseId]);
  const done = lectures.filter((l) => l.state === 'completed').length;
  return {
    courseId,
    totalLectures: lectures.length,
    completedLectures: done,
    percent: lectures.length ? Math.round((done / lectures.length) * 1000) / 10 : 0,
    lastWatchedLecture: enrollment.last_lecture_id
      ? {
          lectureId: enrollment.last_lecture_id,
          positionSeconds: enrollment.last_position_seconds ?? 0,
        }
      : null,
    sections: sections.map((s) => ({
      id: s.id,
      title: s.title,
      lectures: lectures
        .filter((l) => l.section_id === s.id)
        .map((l) => ({
          lectureId: l.id,
          title: l.title,
          state: l.state,
          isLocked: l.unlock_at !== null && l.unlock_at > now,
          unlockAt: iso(l.unlock_at),
        })),
    })),
  };
}

function registerCourseTools({ mcp, server, token, guard, query }: MemberTools): void {
  mcp.registerTool(
    'list_my_courses',
    {
      title: 'My courses',
      description: 'Courses delivered to you, with access expiry and progress.',
      inputSchema: page,
      outputSchema: out.myCoursesOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ first, after }) =>
      guard('account:read') ??
      query(
        `query($first: Int, $after: String) { viewer { enrolledCourses(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor }
          nodes { id slug title expireDate hasLifetimeAccess detailProgress { totalLectures completedLectures percent } lastWatchedLecture { lectureId positionSeconds } } } } }`,
        { first, after: after ?? null },
      ),
  );
  mcp.registerTool(
    'get_course_progress',
    {
      title: 'Course progress',
      description:
        'Progress of one of your courses: every section and lecture with its state and lock.',
      inputSchema: { courseId: z.string().min(1) },
      outputSchema: out.courseProgressOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ courseId }) => {
      const denied = guard('account:read');
      if (denied) return denied;
      const enrollment = courses.findEnrollment(
        server.db,
        server.site.schoolId,
        token.userId,
        courseId,
      );
      if (!enrollment) return failure(`You are not enrolled in course ${courseId}.`);
      return text(courseProgress(server, token.userId, courseId, enrollment));
    },
  );
}

function registerPaymentTools({ mcp, guard, query }: MemberTools): void {
  mcp.registerTool(
    'list_my_payments',
    {
      title: 'My payments',
      description:
        'Your billing history, one entry per payment, newest first (payments of one order share a tradeNo).',
      inputSchema: {
        first: z.number().int().min(1).max(50).default(20),
        after: z.string().optional(),
      },
      outputSchema: out.myPaymentsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ first, after }) =>
      guard('account:read') ??
      query(
        `query($first: Int, $after: String) { viewer { payments(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor }
          nodes { id tradeNo amount currency paymentType paymentState createdAt paidAt refundingState refundedAmount bankCode bankName codeNo expiredAt lineitems { itemType title finalAmount } } } } }`,
        { first, after: after ?? null },
      ),
  );
}

function registerNotificationTools({ mcp, guard, query }: MemberTools): void {
  mcp.registerTool(
    'list_notifications',
    {
      title: 'My notifications',
      description: 'Your notification inbox, newest first.',
      inputSchema: { ...page, unreadOnly: z.boolean().default(false) },
      outputSchema: out.notificationsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ first, after, unreadOnly }) =>
      guard('account:read') ??
      query(
        `query($first: Int, $after: String, $unreadOnly: Boolean) { viewer { unreadNotificationCount notifications(first: $first, after: $after, unreadOnly: $unreadOnly) {
          totalCount pageInfo { hasNextPage endCursor } nodes { id kind title body url createdAt readAt } } } }`,
        { first, after: after ?? null, unreadOnly },
      ),
  );
  mcp.registerTool(
    'mark_notification_read',
    {
      title: 'Mark a notification read',
      description: 'Marks one of your notifications read (idempotent).',
      inputSchema: { id: z.string().min(1) },
      outputSchema: out.markReadOutput,
      annotations: {
        readOnlyHint: false,
        idempotentHint: true,
        destructiveHint: false,
        openWorldHint: false,
      },
    },
    async ({ id }) =>
      guard('account:write') ??
      query('mutation($id: ID!) { markNotificationRead(id: $id) { id readAt } }', { id }),
  );
}

/**
 * Anonymous callers get the public tools only; a token adds the member tools (each checks its
 * scope).
 */
export function registerTools(
  mcp: McpServer,
  server: ServerContext,
  token: AccessTokenInfo | null,
): void {
  registerPublicTools(mcp, server);
  if (!token) return;
  const member = memberTools(mcp, server, token);
  registerCourseTools(member);
  registerPaymentTools(member);
  registerNotificationTools(member);
}
