import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getOperationAST, parse } from 'graphql';
import type { SyncRunSummary } from '../../../electron/common/view-models';
import { openTestStore } from '../../helpers/db';
import { createSyncService } from '../../../electron/core/sync';
import { PAGE_SIZE } from '../../../electron/core/graphql/documents';
import type { SiteClient } from '../../../electron/core/sync/transport';
import { createEmbeddedServer, type EmbeddedServer } from '../../../embedded-server/index';
import { STUDENT } from '../../../embedded-server/seed/content-demo';
import { listDeliveredCourseIds } from '../../../embedded-server/store/content-courses';
import * as ent from '../../../embedded-server/store/content-entitlements';
import { getMemberToken, queryServer, siteClient } from './helpers/member-token';

/**
 * Every connection the sync reads is paged to its end (issue: payments are served 50 per page, spec
 * "Limits"). The server holds more than one page of every connection, so a sync that stops after
 * the first page of any of them stores fewer rows than the server's totalCount.
 */

type Connection = keyof typeof PAGE_SIZE;

/**
 * The sync's operation for each connection, the server field that answers it, and the offline table
 * it fills.
 */
const CONNECTIONS: Record<Connection, { operation: string; field: string; table: string }> = {
  courses: { operation: 'SyncCourses', field: 'enrolledCourses', table: 'courses' },
  digitalProducts: {
    operation: 'SyncDigitalProducts',
    field: 'digitalProducts',
    table: 'digital_products',
  },
  consultingServices: {
    operation: 'SyncConsultingServices',
    field: 'consultingServices',
    table: 'consulting_services',
  },
  eventRegistrations: {
    operation: 'SyncEventRegistrations',
    field: 'eventRegistrations',
    table: 'event_registrations',
  },
  payments: { operation: 'SyncPayments', field: 'payments', table: 'payments' },
  notifications: { operation: 'SyncNotifications', field: 'notifications', table: 'notifications' },
};
const NAMES = Object.keys(CONNECTIONS) as Connection[];

/** Our own document for the server's totals (independent of the sync's documents). */
const TOTALS = /* GraphQL */ `
  query Totals {
    viewer {
      ${NAMES.map((c) => `${CONNECTIONS[c].field}(first: 1) { totalCount }`).join('\n      ')}
    }
  }
`;

/**
 * Rows the 'large' seed options cannot add: more than 100 each of delivered products, registrations
 * and services.
 */
const EXTRA_ROWS = 110;

function addEntitlementRows(server: EmbeddedServer): void {
  const db = server.db;
  const school = server.site.schoolId;
  const now = server.clock.now();
  const delivered = listDeliveredCourseIds(db, school, STUDENT, now);
  if (delivered.length === 0)
    throw new Error('fixture: the student has no delivered course to hang services on');
  db.transaction(() => {
    for (let i = 0; i < EXTRA_ROWS; i++) {
      const n = String(i + 1).padStart(4, '0');
      const at = now - (i + 1) * 60_000;
      ent.insertDigitalProduct(db, {
        id: `dgp_paging_${n}`,
        school_id: school,
        title: `Paging product ${n}`,
        description: null,
        format: 'ebook',
        download_url: null,
        price: 100,
        currency: 'TWD',
        created_at: at,
      });
      ent.insertDelivery(db, {
        id: `dlv_paging_${n}`,
        school_id: school,
        user_id: STUDENT,
        product_id: `dgp_paging_${n}`,
        delivered_at: at,
        expire_at: null,
      });
      ent.insertEvent(db, {
        id: `evt_paging_${n}`,
        school_id: school,
        title: `Paging event ${n}`,
        description: null,
        starts_at: now + (i + 1) * 3_600_000,
        ends_at: now + (i + 2) * 3_600_000,
        location: null,
        is_online: 1,
        join_url: null,
        is_published: 1,
        created_at: at,
      });
      ent.insertEventRegistration(db, {
        id: `reg_paging_${n}`,
        school_id: school,
        user_id: STUDENT,
        event_id: `evt_paging_${n}`,
        ticket_name: 'General',
        registered_at: at,
      });
      ent.insertConsultingService(db, {
        id: `csv_paging_${n}`,
        school_id: school,
        course_id: delivered[i % delivered.length]!,
        title: `Paging service ${n}`,
        description: null,
        duration_minutes: 30,
        consultant_name: 'Paging Consultant',
        created_at: at,
      });
    }
  })();
}

interface GraphQLRequest {
  readonly operation: string;
  readonly first: unknown;
  readonly after: unknown;
}

/**
 * Wraps the client's fetch to record each GraphQL request's operation and its `first` / `after`
 * variables.
 */
function recording(client: SiteClient, requests: GraphQLRequest[]): SiteClient {
  return {
    endpoint: client.endpoint,
    fetch: (input, init) => {
      if (typeof init?.body !== 'string') throw new Error('expected a JSON request body');
      const body = JSON.parse(init.body) as {
        query: string;
        operationName?: string;
        variables?: Record<string, unknown>;
      };
      const operation =
        body.operationName ?? getOperationAST(parse(body.query))?.name?.value ?? '?';
      requests.push({ operation, first: body.variables?.first, after: body.variables?.after });
      return client.fetch(input, init);
    },
  };
}

let server: EmbeddedServer;
let accessToken: string;
let dir: string;
let opened: ReturnType<typeof openTestStore>;
let summary: SyncRunSummary;
const requests: GraphQLRequest[] = [];
let totals: Record<Connection, number>;

beforeAll(async () => {
  server = await createEmbeddedServer({
    port: 0,
    seed: 'large',
    site: 'demo',
    // Demo set plus: 30 courses (> 25 a page), 120 payments (> two pages of 50), 130 notifications
    // (> 100).
    seedOptions: {
      large: { courses: 30, lecturesPerCourse: 3, payments: 120, notifications: 130 },
    },
  });
  addEntitlementRows(server);
  ({ accessToken } = await getMemberToken(server));
  const data = await queryServer<{ viewer: Record<string, { totalCount: number }> }>(
    server.url,
    accessToken,
    TOTALS,
  );
  totals = Object.fromEntries(
    NAMES.map((c) => [c, data.viewer[CONNECTIONS[c].field]!.totalCount]),
  ) as Record<Connection, number>;

  dir = mkdtempSync(join(tmpdir(), 'ld-paging-'));
  opened = openTestStore(join(dir, 'offline.db'));
  const sync = createSyncService({
    db: opened.db,
    clientFor: () => recording(siteClient(server.url, accessToken), requests),
  });
  summary = await sync.syncNow('demo');
  await sync.close();
});

afterAll(async () => {
  if (opened?.db.open) opened.db.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await server?.close();
});

const pagesOf = (c: Connection) => requests.filter((r) => r.operation === CONNECTIONS[c].operation);

describe('sync pages every connection to the end (issue: payments 50 per page)', () => {
  it('the fixture holds more than one page of every connection', () => {
    for (const c of NAMES) expect(totals[c], c).toBeGreaterThan(PAGE_SIZE[c]);
  });

  it('stores exactly totalCount rows of every connection, and the run summary reports the same counts', () => {
    expect(summary).toMatchObject({ outcome: 'completed', error: null, missingScopes: [] });
    for (const c of NAMES) {
      const stored = opened.db
        .prepare(`SELECT count(*) AS n FROM ${CONNECTIONS[c].table} WHERE site_id = ?`)
        .get('demo') as { n: number };
      expect(stored.n, `${c} rows stored`).toBe(totals[c]);
      expect(summary.counts[c], `${c} in the run summary`).toBe(totals[c]);
    }
  });

  it('requests payments 50 at a time, page after page on distinct cursors', () => {
    const pages = pagesOf('payments');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.length).toBe(Math.ceil(totals.payments / 50));
    for (const p of pages) expect(p.first).toBe(50);
    // The first page starts at the beginning; each later one continues from a cursor not used
    // before.
    expect(pages[0]!.after ?? null).toBeNull();
    const cursors = pages.slice(1).map((p) => p.after);
    for (const cursor of cursors)
      expect(typeof cursor === 'string' && cursor.length > 0, `cursor ${String(cursor)}`).toBe(
        true,
      );
    expect(new Set(pages.map((p) => p.after ?? null)).size).toBe(pages.length);
  });

  it('fetches every other connection in pages of its page size, more than one page each, each cursor once', () => {
    expect(pagesOf('courses').length).toBeGreaterThan(1);
    expect(pagesOf('notifications').length).toBeGreaterThan(1);
    for (const c of NAMES) {
      const pages = pagesOf(c);
      expect(pages.length, `${c} pages`).toBe(Math.ceil(totals[c] / PAGE_SIZE[c]));
      for (const p of pages) expect(p.first, `${c} first`).toBe(PAGE_SIZE[c]);
      expect(pages[0]!.after ?? null, `${c} first page`).toBeNull();
      expect(new Set(pages.map((p) => p.after ?? null)).size, `${c} distinct cursors`).toBe(
        pages.length,
      );
    }
  });
});
