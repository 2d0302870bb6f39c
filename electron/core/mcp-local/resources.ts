/**
 * Resources: Today, and a course's outline by its address. Each is the same JSON as the tool that
 * reads it (get_today, get_course), under the same consent.
 */
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { allowedSchools } from './consent';
import { ToolRefusal, type ToolContext } from './context';
import { LOCAL_TOOLS } from './tools';

const TODAY_URI = 'learning-desktop://today';
const COURSE_PREFIX = 'learning-desktop://course/';

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: `${COURSE_PREFIX}{siteId}/{courseId}`,
    name: 'course-outline',
    title: 'Course outline',
    description: "A course's sections and lectures with their state (as get_course).",
    mimeType: 'application/json',
  },
];

const tool = (name: string) => LOCAL_TOOLS.find((t) => t.name === name)!;

/**
 * Today, and the twenty courses watched most recently, when the student allows courses somewhere.
 */
export function listResources(ctx: ToolContext | null): Resource[] {
  if (ctx === null || allowedSchools(ctx.consent, 'courses').length === 0) return [];
  const today: Resource = {
    uri: TODAY_URI,
    name: 'today',
    title: 'Today',
    description: 'What to continue and what needs attention (as get_today).',
    mimeType: 'application/json',
  };
  const listed = tool('list_courses').run(ctx, tool('list_courses').input.parse({ limit: 20 }));
  if (listed instanceof Promise) return [today];
  const courses = (listed.value['courses'] as { siteId: string; courseId: string; title: string }[])
    .slice(0, 20)
    .map((c): Resource => ({
      uri: `${COURSE_PREFIX}${encodeURIComponent(c.siteId)}/${encodeURIComponent(c.courseId)}`,
      name: `course-${c.courseId}`,
      title: c.title,
      mimeType: 'application/json',
    }));
  return [today, ...courses];
}

export interface ReadResult {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly rows: number;
  readonly contents: { uri: string; mimeType: string; text: string }[];
}

export function readResource(ctx: ToolContext, uri: string): ReadResult {
  let name: string;
  let args: Record<string, unknown>;
  if (uri === TODAY_URI) {
    name = 'get_today';
    args = {};
  } else if (uri.startsWith(COURSE_PREFIX)) {
    const parts = uri.slice(COURSE_PREFIX.length).split('/');
    if (parts.length !== 2) throw new McpError(ErrorCode.InvalidParams, 'Unknown resource.');
    name = 'get_course';
    args = { siteId: decodeURIComponent(parts[0]!), courseId: decodeURIComponent(parts[1]!) };
  } else {
    throw new McpError(ErrorCode.InvalidParams, 'Unknown resource.');
  }
  const t = tool(name);
  if (t.category !== null && allowedSchools(ctx.consent, t.category).length === 0)
    throw new ToolRefusal('"Courses and progress" is off for every school.');
  const answer = t.run(ctx, t.input.parse(args));
  if (answer instanceof Promise) throw new McpError(ErrorCode.InternalError, 'Unexpected.');
  return {
    name: uri === TODAY_URI ? 'today' : 'course-outline',
    args,
    rows: answer.rows,
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(answer.value) }],
  };
}
