/**
 * The assistant's activity: one JSON line per call in `ai-activity.jsonl` in the data folder,
 * written by the assistant's server and read by the app's "AI activity" view. A line names the
 * call, never what it returned: time, client, tool, an argument summary (ids, filters and numbers;
 * free text only by its length), rows returned, outcome and duration. Bounded: past MAX_BYTES the
 * file becomes `.1` (the one before it is dropped), so the log never holds more than about twice
 * that.
 */
import { appendFileSync, existsSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const ACTIVITY_FILE_NAME = 'ai-activity.jsonl';
export const ACTIVITY_MAX_BYTES = 256 * 1024;
/** The most lines the view reads (both files together, newest kept). */
export const ACTIVITY_MAX_LINES = 2000;

export const activityEntrySchema = z.object({
  at: z.string().max(40),
  client: z.string().max(100),
  kind: z.enum(['tool', 'resource', 'prompt']),
  name: z.string().max(100),
  args: z.record(z.string().max(40), z.union([z.string().max(120), z.number(), z.boolean()])),
  rows: z.number().int().min(0),
  outcome: z.enum(['ok', 'refused', 'error']),
  ms: z.number().min(0),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/**
 * Values of these arguments are free text a student typed or an assistant made up: counted, never
 * kept.
 */
const FREE_TEXT_ARGS = new Set(['query']);
const ID_LIKE = /^[\w.:@-]{1,120}$/;

/**
 * The argument summary of a call: ids and options as given, free text as its length, anything else
 * as its type.
 */
export function summariseArgs(args: Record<string, unknown> | undefined): ActivityEntry['args'] {
  const out: ActivityEntry['args'] = {};
  for (const [key, value] of Object.entries(args ?? {}).slice(0, 12)) {
    const k = key.slice(0, 40);
    if (FREE_TEXT_ARGS.has(key) && typeof value === 'string') out[`${k}Length`] = value.length;
    else if (typeof value === 'number' || typeof value === 'boolean') out[k] = value;
    else if (typeof value === 'string' && ID_LIKE.test(value)) out[k] = value;
    else if (Array.isArray(value)) out[`${k}Count`] = value.length;
    else out[k] = `(${typeof value})`;
  }
  return out;
}

export interface ActivityLogDeps {
  readonly dataDir: string;
  readonly maxBytes?: number;
}

export class ActivityLog {
  readonly #file: string;
  readonly #maxBytes: number;

  constructor(deps: ActivityLogDeps) {
    this.#file = join(deps.dataDir, ACTIVITY_FILE_NAME);
    this.#maxBytes = deps.maxBytes ?? ACTIVITY_MAX_BYTES;
  }

  /** Appends one line; a log that cannot be written never fails the call it records. */
  append(entry: ActivityEntry): void {
    try {
      this.#rotateIfFull();
      // One write with O_APPEND: lines from two servers at once do not interleave (POSIX write(2)
      // to a regular file appends atomically; the lines are far below any limit that matters).
      appendFileSync(this.#file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch {
      // The call goes on; the view shows what was written.
    }
  }

  /** The newest lines first, at most ACTIVITY_MAX_LINES; a damaged line is skipped. */
  read(): ActivityEntry[] {
    const lines = [`${this.#file}.1`, this.#file].flatMap((f) => readLines(f));
    const entries: ActivityEntry[] = [];
    for (const line of lines.slice(-ACTIVITY_MAX_LINES)) {
      try {
        const parsed = activityEntrySchema.safeParse(JSON.parse(line));
        if (parsed.success) entries.push(parsed.data);
      } catch {
        // Half a line (a write cut short) or a hand edit.
      }
    }
    return entries.reverse();
  }

  clear(): void {
    rmSync(this.#file, { force: true });
    rmSync(`${this.#file}.1`, { force: true });
  }

  #rotateIfFull(): void {
    let size = 0;
    try {
      size = statSync(this.#file).size;
    } catch {
      return;
    }
    if (size >= this.#maxBytes) renameSync(this.#file, `${this.#file}.1`);
  }
}

function readLines(file: string): string[] {
  if (!existsSync(file)) return [];
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}
