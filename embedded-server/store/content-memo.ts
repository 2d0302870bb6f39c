import type { Database } from 'better-sqlite3';
import { prepared } from './statements';

/**
 * Values derived from content tables, memoised for the life of a database handle and valid while
 * those tables are unchanged. Migration 005 keeps a generation number per group of tables that
 * triggers raise on every write, by any writer, so checking a memo costs one indexed read and a
 * memo can never outlive its rows. The member API's hot paths use it for what does not depend on
 * the viewer: the sections and lectures of a course (the viewer's progress is read on every
 * request) and a member's payment and notification counts.
 */
export type MemoGroup = 'course_tree' | 'payments' | 'notifications';

/**
 * Entries kept per group at most; the oldest goes first. Bounds memory on a site with many courses
 * or members.
 */
const MEMO_LIMIT: Readonly<Record<MemoGroup, number>> = {
  course_tree: 2_000,
  payments: 10_000,
  notifications: 20_000,
};

interface GroupMemo {
  generation: number;
  readonly entries: Map<string, unknown>;
}

const memos = new WeakMap<Database, Map<MemoGroup, GroupMemo>>();

function currentGeneration(db: Database, group: MemoGroup): number {
  return prepared<[string], { n: number }>(
    db,
    'SELECT n FROM content_generations WHERE name = ?',
  ).get(group)!.n;
}

/**
 * The group's memo as it stands now: emptied first when a write has raised the group's generation
 * since it was filled. Read it once per request (a request runs synchronously on the one
 * connection, so nothing can write in between) and fill it with `remember`.
 */
export function contentMemo<T>(db: Database, group: MemoGroup): ContentMemo<T> {
  let perDb = memos.get(db);
  if (!perDb) {
    perDb = new Map();
    memos.set(db, perDb);
  }
  const generation = currentGeneration(db, group);
  let memo = perDb.get(group);
  if (!memo) {
    memo = { generation, entries: new Map() };
    perDb.set(group, memo);
  } else if (memo.generation !== generation) {
    memo.entries.clear();
    memo.generation = generation;
  }
  return new ContentMemo<T>(memo.entries as Map<string, T>, MEMO_LIMIT[group]);
}

export class ContentMemo<T> {
  constructor(
    private readonly entries: Map<string, T>,
    private readonly limit: number,
  ) {}

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  /** The value kept for `key`, or `compute()`'s, kept from now on. */
  getOrRemember(key: string, compute: () => T): T {
    const found = this.entries.get(key);
    return found !== undefined ? found : this.remember(key, compute());
  }

  remember(key: string, value: T): T {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
