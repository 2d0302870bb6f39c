import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import {
  getNamedType,
  isEnumType,
  isObjectType,
  isNonNullType,
  type GraphQLNamedType,
  type GraphQLObjectType,
} from 'graphql';
import { openDatabase } from '../../../embedded-server/store/db';
import { seedDatabase } from '../../../embedded-server/seed/index';
import { memberSchema } from '../../../embedded-server/member-api/schema';
import { requiredScopes } from '../../../embedded-server/member-api/scope-guard';
import { createMemberContext } from '../../../embedded-server/member-api/context';
import { executeMemberRequest } from '../../../embedded-server/member-api/execute';
import { insertPayment, type PaymentRow } from '../../../embedded-server/store/content-payments';
import { startTestServer } from '../../helpers/server';
import { paymentRow } from '../helpers';
import { graphql, mintToken } from './tokens';

/**
 * Spec conformance of the member API, one test per rule, each named after the rule and citing its
 * section of the service's spec (docs/SERVICE.md restates it). Each test fails if its rule breaks
 * (on purpose: they assert the rule, not the current output).
 */

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);
const READ = ['openid', 'account:read'];
type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let demo: Database;
/** Demo set plus 120 bulk payments: more than two pages of 50. */
let many: Database;

beforeAll(() => {
  demo = openDatabase();
  seedDatabase(demo, { seed: 'demo', site: 'demo', now: NOW });
  many = openDatabase();
  seedDatabase(many, {
    seed: 'large',
    site: 'demo',
    now: NOW,
    options: { large: { courses: 3, lecturesPerCourse: 4, payments: 120, notifications: 5 } },
  });
});
afterAll(() => {
  demo.close();
  many.close();
});

async function run(
  db: Database,
  query: string,
  variables: Record<string, unknown> = {},
  scopes: string[] = READ,
) {
  const ctx = createMemberContext(db, {
    schoolId: 'sch_demo',
    userId: 'usr_student',
    scopes,
    now: NOW,
    baseUrl: 'http://127.0.0.1:4100',
  });
  return executeMemberRequest(memberSchema(), { query, variables }, ctx);
}

const objectType = (name: string): GraphQLObjectType => {
  const t = memberSchema().getType(name);
  if (!isObjectType(t)) throw new Error(`${name} is not an object type`);
  return t;
};
const fieldNames = (name: string) => Object.keys(objectType(name).getFields()).sort();

/**
 * Every object type reachable from `root` through fields (the whole shape a client can select below
 * it).
 */
function reachable(root: string): GraphQLObjectType[] {
  const seen = new Map<string, GraphQLObjectType>();
  const visit = (t: GraphQLNamedType) => {
    if (!isObjectType(t) || seen.has(t.name)) return;
    seen.set(t.name, t);
    for (const f of Object.values(t.getFields())) visit(getNamedType(f.type));
  };
  visit(objectType(root));
  return [...seen.values()];
}

const PAYMENTS = `query($first: Int, $after: String) { viewer { payments(first: $first, after: $after) {
  totalCount pageInfo { hasNextPage endCursor } nodes { id tradeNo createdAt paymentType paymentState } } } }`;

describe('service-spec "Limits" and "Member GraphQL operations": viewer.payments pages', () => {
  it('returns at most 50 nodes per page even when first: 100 is asked', async () => {
    const r = await run(many, PAYMENTS, { first: 100 });
    expect(r.errors).toBeUndefined();
    const c = (r.data as Data).viewer.payments;
    expect(c.totalCount).toBe(135);
    expect(c.nodes).toHaveLength(50);
    expect(c.pageInfo.hasNextPage).toBe(true);
    const literal = await run(many, '{ viewer { payments(first: 100) { nodes { id } } } }');
    expect((literal.data as Data).viewer.payments.nodes).toHaveLength(50);
  });

  it('without first, a page is 50 nodes', async () => {
    const r = await run(many, PAYMENTS);
    expect((r.data as Data).viewer.payments.nodes).toHaveLength(50);
  });

  it('lists newest first across every page, each payment exactly once', async () => {
    const all: Data[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const r = await run(many, PAYMENTS, { first: 50, after });
      expect(r.errors).toBeUndefined();
      const c: Data = (r.data as Data).viewer.payments;
      expect(c.nodes.length).toBeLessThanOrEqual(50);
      all.push(...c.nodes);
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(all).toHaveLength(135);
    expect(new Set(all.map((n) => n.id)).size).toBe(135);
    for (let i = 1; i < all.length; i++)
      expect(Date.parse(all[i]!.createdAt)).toBeLessThanOrEqual(Date.parse(all[i - 1]!.createdAt));
  });
});

describe('service-spec "Payment node"', () => {
  const Q =
    '{ viewer { payments { nodes { id paymentType paymentState bankCode bankName codeNo expiredAt } } } }';

  it('the list includes unpaid and expired rows, with their payment instructions (bank, code, expiry)', async () => {
    const r = await run(demo, Q);
    const byId = new Map<string, Data>(
      (r.data as Data).viewer.payments.nodes.map((n: Data) => [n.id, n]),
    );
    const atm = byId.get('pay_demo_05')!;
    expect(atm).toMatchObject({
      paymentType: 'atm',
      paymentState: 'not_paid',
      bankCode: '822',
      codeNo: '82219900012345',
    });
    expect(atm.bankName).toBeTruthy();
    expect(Date.parse(atm.expiredAt)).toBeGreaterThan(NOW);
    const cvs = byId.get('pay_demo_06')!;
    expect(cvs).toMatchObject({ paymentType: 'cvs', paymentState: 'not_paid' });
    expect(cvs.codeNo).toBeTruthy();
    expect(cvs.expiredAt).toBeTruthy();
    const expired = byId.get('pay_demo_07')!;
    expect(expired.paymentState).toBe('expired');
    expect(expired.codeNo).toBeTruthy();
    expect(Date.parse(expired.expiredAt)).toBeLessThan(NOW);
  });

  it('a checkout abandoned before any payment method was chosen never appears (it cannot be stored as a payment)', async () => {
    // The API type says every node has a method, and the store refuses a payment row without one.
    const paymentType = objectType('Payment').getFields()['paymentType']!;
    expect(isNonNullType(paymentType.type)).toBe(true);
    const abandoned = paymentRow({
      id: 'pay_abandoned',
      school_id: 'sch_demo',
      user_id: 'usr_student',
      trade_no: 'T_ABANDONED',
      created_at: NOW,
      payment_type: null as unknown as PaymentRow['payment_type'],
    });
    expect(() => insertPayment(demo, abandoned)).toThrow(/NOT NULL/);
    const r = await run(demo, '{ viewer { payments { nodes { tradeNo paymentType } } } }');
    expect(r.errors).toBeUndefined();
    const nodes: Data[] = (r.data as Data).viewer.payments.nodes;
    expect(nodes.every((n) => typeof n.paymentType === 'string' && n.paymentType.length > 0)).toBe(
      true,
    );
    expect(nodes.some((n) => n.tradeNo === 'T_ABANDONED')).toBe(false);
  });

  it('one node is one payment: two payments of one purchase are two nodes sharing a tradeNo', async () => {
    const r = await run(demo, '{ viewer { payments { nodes { id tradeNo } } } }');
    const shared = (r.data as Data).viewer.payments.nodes.filter(
      (n: Data) => n.tradeNo === 'T202611000003',
    );
    expect(shared).toHaveLength(2);
    expect(shared[0].id).not.toBe(shared[1].id);
  });

  it('carries every field the spec names', () => {
    const spec = [
      'tradeNo',
      'amount',
      'currency',
      'paymentType',
      'paidAt',
      'paymentState',
      'adjustments',
      'invoice',
      'lineitems',
      'installment',
      'refundingState',
      'refundedAmount',
      'refundedAt',
      'refundRequestedAt',
      'bankCode',
      'bankName',
      'codeNo',
      'expiredAt',
    ];
    expect(fieldNames('Payment')).toEqual(expect.arrayContaining(spec));
  });
});

describe('service-spec "Member API: viewer": the four entitlement connections are not order records', () => {
  const ORDER_FIELD =
    /trade|order|coupon|refund|invoice|payment|adjustment|lineitem|installment|receipt/i;
  it.each(['Course', 'DigitalProduct', 'ConsultingService', 'EventRegistration'])(
    '%s (and everything below it) has no order number, coupon, refund status or invoice',
    (root) => {
      for (const t of reachable(root)) {
        for (const name of Object.keys(t.getFields()))
          expect(`${t.name}.${name}`).not.toMatch(ORDER_FIELD);
      }
    },
  );

  it('their data carries no order facts either (no trade number, coupon code or invoice number in any answer)', async () => {
    const r = await run(
      demo,
      `{ viewer {
      enrolledCourses(first: 100) { nodes { id slug title description enrolledAt expireDate hasLifetimeAccess } }
      digitalProducts(first: 100) { nodes { id title description format deliveredAt expireDate downloadUrl } }
      consultingServices(first: 100) { nodes { id title description courseId } }
      eventRegistrations(first: 100) { nodes { id eventId title ticketName registeredAt } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const text = JSON.stringify(r.data);
    expect(text).not.toMatch(/T2026\d{7}|WELCOME200|pay_demo/);
  });
});

describe('service-spec "Consulting service": meetings', () => {
  it('a meeting carries no field saying whose it is', () => {
    expect(fieldNames('ConsultingMeeting')).toEqual(['endsAt', 'id', 'startsAt']);
    for (const t of reachable('ConsultingMeeting')) {
      for (const name of Object.keys(t.getFields()))
        expect(name).not.toMatch(
          /user|owner|member|viewer|mine|booked|attendee|student|email|name/i,
        );
    }
  });

  it("meetings are everyone's: another member's booking is listed, indistinguishable from the viewer's", async () => {
    const owners = demo
      .prepare(
        "SELECT DISTINCT user_id FROM consulting_meetings WHERE service_id = 'csv_data_mentoring'",
      )
      .all() as {
      user_id: string;
    }[];
    expect(owners.length).toBeGreaterThan(1);
    const r = await run(
      demo,
      '{ viewer { consultingServices { nodes { id meetings { id startsAt endsAt } } } } }',
    );
    const mentoring = (r.data as Data).viewer.consultingServices.nodes.find(
      (n: Data) => n.id === 'csv_data_mentoring',
    );
    const count = demo
      .prepare(
        "SELECT count(*) AS n FROM consulting_meetings WHERE service_id = 'csv_data_mentoring'",
      )
      .get() as { n: number };
    expect(mentoring.meetings).toHaveLength(count.n);
  });
});

describe('service-spec "Scopes" and "Member GraphQL operations"', () => {
  it('account:write grants exactly three mutations: markNotificationRead, markAllNotificationsRead, updateNotificationSubscription', () => {
    expect(fieldNames('Mutation')).toEqual([
      'markAllNotificationsRead',
      'markNotificationRead',
      'updateNotificationSubscription',
    ]);
    const scopes = requiredScopes(memberSchema());
    for (const m of fieldNames('Mutation'))
      expect(scopes.get(`Mutation.${m}`)).toBe('account:write');
    expect(scopes.get('Query.viewer')).toBe('account:read');
  });

  it.each([
    'notifications { totalCount }',
    'unreadNotificationCount',
    'notificationSubscriptions { topic }',
  ])(
    'the query %s needs account:read: a write-only token gets INSUFFICIENT_SCOPE naming account:read',
    async (field) => {
      const r = await run(demo, `{ viewer { ${field} } }`, {}, ['account:write']);
      expect(r.data).toBeNull();
      expect(r.errors).toHaveLength(1);
      expect(r.errors![0]!.extensions).toMatchObject({
        code: 'INSUFFICIENT_SCOPE',
        requiredScope: 'account:read',
      });
    },
  );

  it('every mutation needs account:write: a read-only token gets INSUFFICIENT_SCOPE naming account:write and nothing changes', async () => {
    const before = demo.prepare("SELECT read_at FROM notifications WHERE id = 'ntf_demo_02'").get();
    for (const m of [
      'mutation { markNotificationRead(id: "ntf_demo_02") { id } }',
      'mutation { markAllNotificationsRead { updatedCount } }',
      'mutation { updateNotificationSubscription(input: { topic: marketing, channel: email, enabled: true }) { enabled } }',
    ]) {
      const r = await run(demo, m, {}, READ);
      expect(r.errors![0]!.extensions).toMatchObject({
        code: 'INSUFFICIENT_SCOPE',
        requiredScope: 'account:write',
      });
    }
    expect(
      demo.prepare("SELECT read_at FROM notifications WHERE id = 'ntf_demo_02'").get(),
    ).toEqual(before);
    expect(
      demo
        .prepare(
          "SELECT count(*) AS n FROM notification_subscriptions WHERE topic = 'marketing' AND enabled = 1",
        )
        .get(),
    ).toEqual({ n: 0 });
  });
});

describe('service-spec "Member API: viewer", "Course node", "Lecture": the fields the spec names exist', () => {
  it('viewer', () => {
    expect(fieldNames('Viewer')).toEqual(
      expect.arrayContaining([
        'id',
        'name',
        'email',
        'avatar',
        'schools',
        'enrolledCourses',
        'digitalProducts',
        'consultingServices',
        'eventRegistrations',
        'payments',
        'notifications',
        'unreadNotificationCount',
        'notificationSubscriptions',
      ]),
    );
    const viewerFields = objectType('Viewer').getFields();
    const args = viewerFields['enrolledCourses']!.args.map((a) => a.name);
    expect(args).toContain('first');
  });

  it('course, last-watched lecture, section and lecture; lecture state is one of unread, read, completed', () => {
    expect(fieldNames('Course')).toEqual(
      expect.arrayContaining([
        'slug',
        'expireDate',
        'hasLifetimeAccess',
        'detailProgress',
        'lastWatchedLecture',
        'sections',
      ]),
    );
    expect(fieldNames('LastWatchedLecture')).toEqual(
      expect.arrayContaining(['lectureId', 'positionSeconds']),
    );
    expect(fieldNames('Section')).toContain('lectures');
    expect(fieldNames('Lecture')).toEqual(
      expect.arrayContaining(['lectureId', 'title', 'state', 'isLocked', 'unlockAt', 'duration']),
    );
    const state = getNamedType(objectType('Lecture').getFields()['state']!.type);
    expect(
      isEnumType(state) &&
        state
          .getValues()
          .map((v) => v.name)
          .sort(),
    ).toEqual(['completed', 'read', 'unread']);
  });

  it('Relay connections: nodes, edges with cursors and pageInfo on every connection', () => {
    for (const c of [
      'CourseConnection',
      'DigitalProductConnection',
      'ConsultingServiceConnection',
      'EventRegistrationConnection',
      'PaymentConnection',
      'NotificationConnection',
    ]) {
      expect(fieldNames(c)).toEqual(expect.arrayContaining(['nodes', 'edges', 'pageInfo']));
    }
  });
});

describe('service-spec "Protected resources" at /member/graphql (HTTP)', () => {
  it('a token holding one account scope asking for a field of the other: HTTP 200, errors naming the scope, no WWW-Authenticate (both directions)', async () => {
    const server = await startTestServer();
    const read = mintToken(server, { scopes: ['account:read'] }).accessToken;
    const m = await graphql(server, read, 'mutation { markAllNotificationsRead { updatedCount } }');
    expect(m.status).toBe(200);
    expect(m.headers.get('www-authenticate')).toBeNull();
    expect(((await m.json()) as Data).errors[0].message).toContain('account:write');
    const write = mintToken(server, { scopes: ['account:write'] }).accessToken;
    const q = await graphql(server, write, '{ viewer { unreadNotificationCount } }');
    expect(q.status).toBe(200);
    expect(q.headers.get('www-authenticate')).toBeNull();
    expect(((await q.json()) as Data).errors[0].message).toContain('account:read');
  });

  it('a token holding neither account:read nor account:write: 403 insufficient_scope with WWW-Authenticate', async () => {
    const server = await startTestServer();
    const res = await graphql(
      server,
      mintToken(server, { scopes: ['openid', 'profile', 'email'] }).accessToken,
      '{ viewer { id } }',
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as Data).error).toBe('insufficient_scope');
    const www = res.headers.get('www-authenticate') ?? '';
    expect(www).toMatch(/^Bearer /);
    expect(www).toContain('error="insufficient_scope"');
    expect(www).toContain(`resource_metadata="${server.url}/.well-known/oauth-protected-resource"`);
  });

  it('a token issued for another origin, or lacking school_id: 401 invalid_token with a resource_metadata pointer', async () => {
    const server = await startTestServer();
    for (const token of [
      mintToken(server, { scopes: ['account:read'], resource: 'https://elsewhere.example' })
        .accessToken,
      mintToken(server, { scopes: ['account:read'], schoolId: null }).accessToken,
    ]) {
      const res = await graphql(server, token, '{ viewer { id } }');
      expect(res.status).toBe(401);
      expect(((await res.json()) as Data).error).toBe('invalid_token');
      expect(res.headers.get('www-authenticate')).toContain(
        `resource_metadata="${server.url}/.well-known/oauth-protected-resource"`,
      );
    }
  });

  it('no anonymous mode: no token is 401 invalid_token with WWW-Authenticate (Authentication 11)', async () => {
    const server = await startTestServer();
    const res = await graphql(server, null, '{ viewer { id } }');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});
