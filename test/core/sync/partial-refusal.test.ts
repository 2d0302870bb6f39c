import { describe, expect, it } from 'vitest';
import { getOperationAST, type DocumentNode } from 'graphql';
import { CoreError } from '../../../electron/core/errors';
import { fetchSnapshot } from '../../../electron/core/sync/fetch-snapshot';
import type {
  ExecuteResult,
  GraphQLErrorLike,
  Transport,
} from '../../../electron/core/sync/transport';

/**
 * fetchSnapshot with a scripted in-memory transport (no HTTP). A part the site refuses for a
 * missing scope is HTTP 200 with `errors` naming the scope (service-spec "Protected resources"),
 * possibly beside partial data:
 * that part is left out (so commitSnapshot keeps its stored rows) and the scope reported; any other
 * error fails the whole fetch.
 */

type Answer = ExecuteResult<unknown>;
type Script = (
  operation: string,
  variables: Readonly<Record<string, unknown>>,
) => Answer | undefined;

/**
 * One page of a connection; `totalCount` is the whole connection's (payments: two pages of one).
 */
const page = (
  field: string,
  nodes: readonly unknown[],
  next: { endCursor: string } | null = null,
): Answer => ({
  data: {
    viewer: {
      [field]: {
        totalCount: field === 'payments' ? 2 : nodes.length,
        pageInfo: { hasNextPage: next !== null, endCursor: next?.endCursor ?? null },
        nodes,
      },
    },
  },
  errors: [],
});

const PROFILE = {
  id: 'usr_1',
  name: 'Student',
  email: 'student@example.com',
  avatar: null,
  schools: [],
};
const COURSE = { id: 'crs_1', title: 'Course' };
const PRODUCT = { id: 'dgp_1', title: 'Product' };
const SERVICE = { id: 'csv_1', title: 'Service' };
const REGISTRATION = { id: 'reg_1', title: 'Event' };
const PAYMENT_1 = { id: 'pay_1', tradeNo: 'T1' };
const PAYMENT_2 = { id: 'pay_2', tradeNo: 'T2' };
const NOTIFICATION = { id: 'ntf_1', title: 'Notice' };
const SUBSCRIPTION = { topic: 'payments', channel: 'push', enabled: true };

/**
 * Every part answers normally with one node (payments with two pages), by the sync's operation
 * names.
 */
const normal: Record<string, (variables: Readonly<Record<string, unknown>>) => Answer> = {
  SyncProfile: () => ({ data: { viewer: PROFILE }, errors: [] }),
  SyncCourses: () => page('enrolledCourses', [COURSE]),
  SyncDigitalProducts: () => page('digitalProducts', [PRODUCT]),
  SyncConsultingServices: () => page('consultingServices', [SERVICE]),
  SyncEventRegistrations: () => page('eventRegistrations', [REGISTRATION]),
  SyncPayments: (v) =>
    v.after
      ? page('payments', [PAYMENT_2])
      : page('payments', [PAYMENT_1], { endCursor: 'cursor-1' }),
  SyncNotifications: () => page('notifications', [NOTIFICATION]),
  SyncNotificationSubscriptions: () => ({
    data: { viewer: { notificationSubscriptions: [SUBSCRIPTION] } },
    errors: [],
  }),
};

/**
 * A Transport whose answers come from `script` first, else `normal`; records each operation it was
 * asked.
 */
function scripted(script: Script): { transport: Transport; asked: string[] } {
  const asked: string[] = [];
  const execute = async (
    document: DocumentNode,
    variables: Record<string, unknown> = {},
  ): Promise<Answer> => {
    const operation = getOperationAST(document)?.name?.value;
    if (!operation || !normal[operation])
      throw new Error(`unexpected operation ${operation ?? '(anonymous)'}`);
    asked.push(operation);
    return script(operation, variables) ?? normal[operation](variables);
  };
  return { transport: { execute } as unknown as Transport, asked };
}

/**
 * The payments part answers its first page with data (and a next page) AND an error; everything
 * else normally.
 */
const paymentsWith =
  (error: GraphQLErrorLike): Script =>
  (operation, variables) =>
    operation === 'SyncPayments' && !variables.after
      ? { ...page('payments', [PAYMENT_1], { endCursor: 'cursor-1' }), errors: [error] }
      : undefined;

describe('fetchSnapshot: a part refused for a missing scope is left out, not failed (service-spec "Protected resources")', () => {
  it.each([
    [
      'the message names the scope',
      { message: 'This field requires the account:read scope.', path: ['viewer', 'payments'] },
    ],
    [
      "the server's format: message and extensions.requiredScope",
      {
        message: 'This field requires the account:read scope.',
        path: ['viewer', 'payments'],
        extensions: { code: 'INSUFFICIENT_SCOPE', requiredScope: 'account:read' },
      },
    ],
  ] as const)(
    'payments answered with data and a scope error (%s): scope reported, payments undefined, the rest kept',
    async (_, error) => {
      const { transport, asked } = scripted(paymentsWith(error));
      const result = await fetchSnapshot(transport, {});

      expect(result.missingScopes).toEqual(['account:read']);
      // Undefined, not the page that came with the error: commitSnapshot then keeps the stored
      // payments.
      expect(result.snapshot.payments).toBeUndefined();
      expect('payments' in result.snapshot).toBe(false);
      // The refused part is not paged on past the refusal.
      expect(asked.filter((o) => o === 'SyncPayments')).toHaveLength(1);
      expect(result.snapshot).toEqual({
        profile: PROFILE,
        courses: [COURSE],
        digitalProducts: [PRODUCT],
        consultingServices: [SERVICE],
        eventRegistrations: [REGISTRATION],
        notifications: [NOTIFICATION],
        subscriptions: [SUBSCRIPTION],
      });
    },
  );

  it('control: with no error the payments are paged to the end and nothing is reported missing', async () => {
    const { transport } = scripted(() => undefined);
    const result = await fetchSnapshot(transport, {});
    expect(result.missingScopes).toEqual([]);
    expect(result.snapshot.payments).toEqual([PAYMENT_1, PAYMENT_2]);
  });

  it('an error that is not a scope refusal fails the whole fetch with server-error', async () => {
    const { transport } = scripted(
      paymentsWith({
        message: 'Unexpected error.',
        path: ['viewer', 'payments'],
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      }),
    );
    const failure = await fetchSnapshot(transport, {}).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(CoreError);
    expect((failure as CoreError).code).toBe('server-error');
    expect((failure as CoreError).detail).toEqual({ message: 'Unexpected error.' });
  });

  it('a scope refusal beside a non-scope error in the same response still fails with server-error', async () => {
    const { transport } = scripted((operation, variables) =>
      operation === 'SyncPayments' && !variables.after
        ? {
            ...page('payments', [PAYMENT_1], { endCursor: 'cursor-1' }),
            errors: [
              { message: 'This field requires the account:read scope.' },
              { message: 'Unexpected error.' },
            ],
          }
        : undefined,
    );
    await expect(fetchSnapshot(transport, {})).rejects.toMatchObject({
      name: 'CoreError',
      code: 'server-error',
    });
  });
});
