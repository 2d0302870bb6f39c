import { GraphQLError } from 'graphql';
import type { PageKey } from '../store/content-sql';

/**
 * Opaque Relay cursors: base64url of a tagged keyset position. The tag ties a cursor to its
 * connection, so a payments cursor handed to notifications is refused instead of silently paging
 * somewhere odd.
 */
export function encodeCursor(tag: string, key: PageKey): string {
  return Buffer.from(JSON.stringify([tag, key.t, key.id]), 'utf8').toString('base64url');
}

export function decodeCursor(tag: string, cursor: string | null | undefined): PageKey | null {
  if (cursor === null || cursor === undefined) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(v) &&
      v.length === 3 &&
      v[0] === tag &&
      typeof v[1] === 'number' &&
      typeof v[2] === 'string'
    ) {
      return { t: v[1], id: v[2] };
    }
  } catch {
    // fall through to the same error as a well-formed cursor of the wrong connection
  }
  throw new GraphQLError('The after cursor is not valid for this connection.', {
    extensions: { code: 'BAD_USER_INPUT', argumentName: 'after' },
  });
}

/**
 * Page size rules: `first` between 0 and the maximum (100), else BAD_USER_INPUT. Payments then
 * clamp to 50 (spec "Limits").
 */
export function checkFirst(
  first: number | null | undefined,
  max: number,
  fallback: number,
): number {
  const n = first ?? fallback;
  if (!Number.isInteger(n) || n < 0 || n > max) {
    throw new GraphQLError(`first must be between 0 and ${max}.`, {
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'first' },
    });
  }
  return n;
}
