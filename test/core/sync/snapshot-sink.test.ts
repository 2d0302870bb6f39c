import { getOperationAST, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { PART_NAMES, SYNCED_PARTS } from '../../../electron/core/db/parts';
import { fetchSnapshot } from '../../../electron/core/sync/fetch-snapshot';
import { FETCH_ORDER, FETCH_PHASES, PART_QUERIES } from '../../../electron/core/sync/part-queries';
import { memorySink } from '../../../electron/core/sync/snapshot-sink';
import type { ExecuteResult, Transport } from '../../../electron/core/sync/transport-contract';

describe('the sync asks for the parts of the one table of synced parts', () => {
  it('one query per part of SYNCED_PARTS, paged exactly where the table says, each started once', () => {
    expect(Object.keys(PART_QUERIES).sort()).toEqual([...PART_NAMES].sort());
    for (const part of PART_NAMES)
      expect(PART_QUERIES[part].paged, part).toBe(SYNCED_PARTS[part].paged);
    expect([...FETCH_ORDER].sort()).toEqual([...PART_NAMES].sort());
    expect(FETCH_ORDER.slice(0, 3)).toEqual(['payments', 'courses', 'notifications']);
    expect([...FETCH_PHASES].sort()).toEqual([
      'consulting',
      'courses',
      'digital-products',
      'events',
      'notifications',
      'payments',
      'profile',
    ]);
  });
});

describe('memorySink: the fetch without a sink delivers there', () => {
  it('appends pages in order, keeps whole values, and a dropped part stays out', async () => {
    const sink = memorySink();
    await sink.page('courses', [{ id: 'c1' }]);
    await sink.whole('profile', { id: 'u1' });
    await sink.page('courses', [{ id: 'c2' }, { id: 'c3' }]);
    await sink.page('payments', [{ id: 'p1' }]);
    await sink.drop('payments');
    await sink.page('payments', [{ id: 'p2' }]);
    await sink.page('notifications', []);
    expect(sink.snapshot()).toEqual({
      profile: { id: 'u1' },
      courses: [{ id: 'c1' }, { id: 'c2' }, { id: 'c3' }],
      notifications: [],
    });
    expect(Object.keys(sink.snapshot())).toEqual(['profile', 'courses', 'notifications']);
  });

  it('a part refused after an empty page is left out, not kept as an empty list', async () => {
    const empty = (field: string, after: string | null): ExecuteResult<unknown> => ({
      data: {
        viewer: {
          [field]: {
            totalCount: 0,
            pageInfo: { hasNextPage: after !== null, endCursor: after },
            nodes: [],
          },
        },
      },
      errors: [],
    });
    const execute = async (
      document: DocumentNode,
      variables: Record<string, unknown> = {},
    ): Promise<ExecuteResult<unknown>> => {
      const operation = getOperationAST(document)?.name?.value;
      if (operation === 'SyncProfile') return { data: { viewer: { id: 'u1' } }, errors: [] };
      if (operation === 'SyncNotificationSubscriptions')
        return { data: { viewer: { notificationSubscriptions: [] } }, errors: [] };
      if (operation === 'SyncPayments' && variables.after)
        return { data: null, errors: [{ message: 'This field requires the account:read scope.' }] };
      const query = Object.values(PART_QUERIES).find(
        (q) => getOperationAST(q.document)?.name?.value === operation,
      )!;
      return empty(query.path[1]!, operation === 'SyncPayments' ? 'cursor-1' : null);
    };
    const result = await fetchSnapshot({ execute } as unknown as Transport, {});
    expect(result.missingScopes).toEqual(['account:read']);
    expect('payments' in result.snapshot).toBe(false);
    expect(result.snapshot.courses).toEqual([]);
  });
});
