/**
 * The writer's call for "Since you last looked" (db/change-record.ts): Today showed the changes up
 * to an id.
 */
import type { Database } from 'better-sqlite3';
import { markChangesSeen } from '../db/index';

export interface ChangeWriterCalls {
  'changes:mark-seen': (input: {
    readonly siteIds: readonly string[];
    readonly upTo: number;
    readonly now: string;
  }) => number;
}

export function changeWriterHandlers(db: Database): {
  readonly [K in keyof ChangeWriterCalls]: (
    input: Parameters<ChangeWriterCalls[K]>[0],
  ) => ReturnType<ChangeWriterCalls[K]>;
} {
  return {
    'changes:mark-seen': ({ siteIds, upTo, now }) => markChangesSeen(db, siteIds, upTo, now),
  };
}

/** No memoised view reads the record. */
export const CHANGE_CALL_VIEWS: { readonly [K in keyof ChangeWriterCalls]: readonly [] } = {
  'changes:mark-seen': [],
};
