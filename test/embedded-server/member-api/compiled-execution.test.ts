import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { execute, parse, print } from 'graphql';
import { openDatabase } from '../../../embedded-server/store/db';
import { seedDatabase } from '../../../embedded-server/seed/index';
import { memberSchema } from '../../../embedded-server/member-api/schema';
import { createMemberContext } from '../../../embedded-server/member-api/context';
import {
  executeMemberRequest,
  executorAnswers,
  isDocumentCompiled,
} from '../../../embedded-server/member-api/execute';
import { APP_DOCUMENTS, QUERY_VARIABLES } from './app-documents';

// graphql-jit runs a query from its second time (member-api/execute.ts): its answers must be
// graphql-js's, byte for byte, and anything with an error must come back exactly as graphql-js
// gives it.
const QUERIES = APP_DOCUMENTS.filter(([, doc]) =>
  doc.definitions.some((d) => d.kind === 'OperationDefinition' && d.operation === 'query'),
);
const VARIABLES = QUERY_VARIABLES;

describe.each(['demo', 'large'] as const)(
  'Compiled execution answers as graphql-js does (%s seed)',
  (seed) => {
    let db: Database;
    const now = Date.now();
    const ctx = (scopes: string[] = ['openid', 'account:read', 'account:write']) =>
      createMemberContext(db, {
        schoolId: 'sch_demo',
        userId: 'usr_student',
        scopes,
        now,
        baseUrl: 'http://127.0.0.1:4100',
      });
    beforeAll(() => {
      db = openDatabase();
      seedDatabase(db, {
        seed,
        site: 'demo',
        now,
        options: {
          large: { courses: 60, lecturesPerCourse: 60, payments: 300, notifications: 300 },
        },
      });
    });
    afterAll(() => db.close());

    it.each(QUERIES)(
      '%s: the same JSON from graphql-js and, on later runs, graphql-jit',
      async (name, doc) => {
        const query = print(doc);
        const variables = VARIABLES[name] ?? {};
        const reference = JSON.stringify(
          await execute({
            schema: memberSchema(),
            document: parse(query),
            variableValues: variables,
            contextValue: ctx(),
          }),
        );
        const before = executorAnswers.compiled;
        for (let run = 0; run < 3; run++) {
          expect(
            JSON.stringify(await executeMemberRequest(memberSchema(), { query, variables }, ctx())),
          ).toBe(reference);
        }
        expect(isDocumentCompiled(memberSchema(), query)).toBe(true);
        // Runs 2 and 3 at least (all three for the second seed: the document cache is per schema)
        // were graphql-jit's own answers; had it erred, graphql-js would have answered instead.
        expect(executorAnswers.compiled - before).toBeGreaterThanOrEqual(2);
      },
    );

    it.each([
      [
        'a field of the other scope',
        '{ viewer { id notifications(first: 2) { totalCount } } }',
        {},
        ['openid', 'account:write'],
      ],
      [
        'a variable of the wrong type',
        'query($first: Int!) { viewer { payments(first: $first) { totalCount } } }',
        { first: 'many' },
        undefined,
      ],
      [
        'a missing variable',
        'query($first: Int!) { viewer { payments(first: $first) { totalCount } } }',
        {},
        undefined,
      ],
      [
        'a page size over the maximum',
        'query($first: Int!) { viewer { payments(first: $first) { totalCount } } }',
        { first: 100_000 },
        undefined,
      ],
    ] as const)(
      "%s: every run gives graphql-js's error answer",
      async (_label, query, variables, scopes) => {
        const answers: string[] = [];
        for (let run = 0; run < 3; run++)
          answers.push(
            JSON.stringify(
              await executeMemberRequest(
                memberSchema(),
                { query, variables },
                ctx(scopes ? [...scopes] : undefined),
              ),
            ),
          );
        expect(answers[0]).toContain('"errors"');
        expect(new Set(answers).size).toBe(1);
      },
    );

    it('leaves mutations and introspection to graphql-js', async () => {
      const introspection = '{ __schema { queryType { name } } }';
      const mutation = 'mutation { markAllNotificationsRead { updatedCount } }';
      for (let run = 0; run < 2; run++) {
        await executeMemberRequest(memberSchema(), { query: introspection }, ctx());
        await executeMemberRequest(memberSchema(), { query: mutation }, ctx());
      }
      expect(isDocumentCompiled(memberSchema(), introspection)).toBe(false);
      expect(isDocumentCompiled(memberSchema(), mutation)).toBe(false);
    });
  },
);
