/**
 * The one write an assistant may ask for: marking notices read. The server cannot write the
 * database (it is a reader beside the app), so it leaves a request in `ai-requests/` in the data
 * folder; the app shows it to the student, who confirms or refuses it there (never in the
 * assistant's client), and a confirmed one goes through the app's outbox like a notice the student
 * marked read. A request waits at most a day.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const REQUESTS_DIR = 'ai-requests';
const MAX_AGE_MS = 24 * 60 * 60_000;
const MAX_WAITING = 20;

export const markReadRequestSchema = z.object({
  id: z.string().uuid(),
  at: z.string().max(40),
  client: z.string().max(100),
  siteId: z.string().min(1).max(200),
  noticeIds: z.array(z.string().min(1).max(200)).min(1).max(50),
});
export type MarkReadRequest = z.infer<typeof markReadRequestSchema>;

/** Leaves a request for the app (written whole: a temp file renamed). Answers its id. */
export function submitRequest(
  dataDir: string,
  request: Omit<MarkReadRequest, 'id' | 'at'>,
): string {
  const dir = join(dataDir, REQUESTS_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const id = randomUUID();
  const body: MarkReadRequest = { id, at: new Date().toISOString(), ...request };
  const tmp = join(dir, `.${id}.tmp`);
  writeFileSync(tmp, JSON.stringify(body), { mode: 0o600 });
  renameSync(tmp, join(dir, `${id}.json`));
  return id;
}

export interface AssistantRequestsDeps {
  readonly dataDir: string;
  readonly now?: () => number;
}

export class AssistantRequests {
  readonly #dir: string;
  readonly #now: () => number;

  constructor(deps: AssistantRequestsDeps) {
    this.#dir = join(deps.dataDir, REQUESTS_DIR);
    this.#now = deps.now ?? Date.now;
  }

  /** The requests waiting, oldest first; a damaged or expired one is dropped. */
  list(): MarkReadRequest[] {
    let names: string[];
    try {
      names = readdirSync(this.#dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    const out: MarkReadRequest[] = [];
    for (const name of names) {
      const request = this.#read(name);
      if (request && this.#now() - Date.parse(request.at) < MAX_AGE_MS) out.push(request);
      else rmSync(join(this.#dir, name), { force: true });
    }
    return out.sort((a, b) => a.at.localeCompare(b.at)).slice(0, MAX_WAITING);
  }

  /** Removes a request and answers it (null: it is gone, answered already or expired). */
  take(id: string): MarkReadRequest | null {
    const request = this.list().find((r) => r.id === id) ?? null;
    if (request) rmSync(join(this.#dir, `${id}.json`), { force: true });
    return request;
  }

  clear(): void {
    rmSync(this.#dir, { recursive: true, force: true });
  }

  #read(name: string): MarkReadRequest | null {
    try {
      const parsed = markReadRequestSchema.safeParse(
        JSON.parse(readFileSync(join(this.#dir, name), 'utf8')),
      );
      return parsed.success && `${parsed.data.id}.json` === name ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
