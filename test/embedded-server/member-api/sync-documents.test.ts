import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { print } from 'graphql';
import { openDatabase } from '../../../embedded-server/store/db';
import { seedDatabase } from '../../../embedded-server/seed/index';
import { memberSchema } from '../../../embedded-server/member-api/schema';
import { createMemberContext } from '../../../embedded-server/member-api/context';
import { executeMemberRequest } from '../../../embedded-server/member-api/execute';
import { APP_DOCUMENTS, QUERY_VARIABLES } from './app-documents';

// Contract between the app's sync engine and this server: every document the app sends runs here
// without errors and within the depth/complexity limits, on both the demo and the large seed.
const DOCS = APP_DOCUMENTS;

const VARIABLES: Record<string, Record<string, unknown>> = {
  ...QUERY_VARIABLES,
  MarkNotificationReadMutation: { id: 'ntf_demo_01' },
  UpdateNotificationSubscriptionMutation: {
    input: { topic: 'events', channel: 'email', enabled: false },
  },
};

describe.each(['demo', 'large'] as const)(
  "The app's sync documents against the member API (%s seed)",
  (seed) => {
    let db: Database;
    beforeAll(() => {
      db = openDatabase();
      seedDatabase(db, {
        seed,
        site: 'demo',
        now: Date.now(),
        options: {
          large: { courses: 60, lecturesPerCourse: 60, payments: 300, notifications: 300 },
        },
      });
    });
    afterAll(() => db.close());

    it('finds the documents', () => {
      expect(DOCS.length).toBeGreaterThanOrEqual(10);
    });

    it.each(DOCS)('%s runs without errors', async (name, doc) => {
      const ctx = createMemberContext(db, {
        schoolId: 'sch_demo',
        userId: 'usr_student',
        scopes: ['openid', 'account:read', 'account:write'],
        now: Date.now(),
        baseUrl: 'http://127.0.0.1:4100',
      });
      const result = await executeMemberRequest(
        memberSchema(),
        { query: print(doc), variables: VARIABLES[name] ?? {} },
        ctx,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data).toBeTruthy();
    });
  },
);
