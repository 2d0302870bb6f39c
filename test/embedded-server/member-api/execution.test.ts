import { describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../embedded-server/store/db';
import { seedDatabase } from '../../../embedded-server/seed/index';
import { memberSchema } from '../../../embedded-server/member-api/schema';
import { createMemberContext, MemberData } from '../../../embedded-server/member-api/context';
import {
  cachedDocumentCount,
  DOCUMENT_CACHE_SIZE,
  executeMemberRequest,
  isDocumentCached,
} from '../../../embedded-server/member-api/execute';
import { costLimitsRule } from '../../../embedded-server/member-api/limits';
import { buildSchema, parse, validate } from 'graphql';
import { BASE, BOTH, data, NOW, READ, run, useDemoDb } from './in-process';

useDemoDb();

describe('Query limits and error masking (decisions, embedded-server/README.md)', () => {
  it('accepts the deepest path of the member schema (7 levels) through fragments', async () => {
    const q =
      'fragment F on Lecture { title } { viewer { enrolledCourses { edges { node { sections { lectures { ...F } } } } } } }';
    expect((await run(q)).errors).toBeUndefined();
  });

  it('refuses a query deeper than the limit with QUERY_TOO_DEEP (rule on a recursive schema)', () => {
    // The member schema has no recursive type, so its own queries stop at depth 7; the rule is
    // proven here.
    const schema = buildSchema('type Query { node: Node } type Node { id: ID child: Node }');
    const rule = costLimitsRule({
      maxDepth: 10,
      maxComplexity: 1000,
      pageSize: () => ({ default: 20, max: 100 }),
    });
    const nest = (n: number): string => (n === 0 ? 'id' : `child { ${nest(n - 1)} }`);
    expect(validate(schema, parse(`{ node { ${nest(8)} } }`), [rule])).toEqual([]);
    const errors = validate(schema, parse(`{ node { ${nest(10)} } }`), [rule]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe('Query depth 12 exceeds the limit of 10.');
    expect(errors[0]!.extensions['code']).toBe('QUERY_TOO_DEEP');
  });

  it('refuses a query whose complexity exceeds the limit with QUERY_TOO_COMPLEX', async () => {
    const heavy = `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: viewer { enrolledCourses(first: 100) { nodes { id slug title sections { id title lectures { lectureId title state duration } } } } }`).join(' ')} }`;
    const r = await run(heavy);
    expect(r.data).toBeUndefined();
    expect(r.errors![0]!.extensions['code']).toBe('QUERY_TOO_COMPLEX');
    expect(r.errors![0]!.message).toMatch(/^Query complexity \d+ exceeds the limit of 25000\.$/);
  });

  it('masks unexpected failures as "Internal server error" (INTERNAL_SERVER_ERROR) without internals', async () => {
    const broken = openDatabase();
    seedDatabase(broken, { seed: 'demo', site: 'demo', now: NOW });
    const ctx = createMemberContext(broken, {
      schoolId: 'sch_demo',
      userId: 'usr_student',
      scopes: BOTH,
      now: NOW,
      baseUrl: BASE,
    });
    broken.close(); // every statement now throws a TypeError from better-sqlite3
    const r = await executeMemberRequest(
      memberSchema(),
      { query: '{ viewer { unreadNotificationCount } }' },
      ctx,
    );
    expect(r.errors![0]!.message).toBe('Internal server error');
    expect(r.errors![0]!.extensions['code']).toBe('INTERNAL_SERVER_ERROR');
    expect(JSON.stringify(r)).not.toMatch(/database|sqlite|TypeError/i);
  });

  it('reports syntax errors with GRAPHQL_PARSE_FAILED and unknown fields with GRAPHQL_VALIDATION_FAILED', async () => {
    expect((await run('{ viewer { ')).errors![0]!.extensions['code']).toBe('GRAPHQL_PARSE_FAILED');
    expect((await run('{ viewer { nope } }')).errors![0]!.extensions['code']).toBe(
      'GRAPHQL_VALIDATION_FAILED',
    );
  });
});

describe('Parsed and validated documents are cached by query text (decision: bounded LRU)', () => {
  it("a cached document still executes with each request's own variables, scopes and viewer", async () => {
    const q = 'query($first: Int) { viewer { id payments(first: $first) { nodes { id } } } }';
    expect(data(await run(q, { first: 2 })).viewer.payments.nodes).toHaveLength(2);
    expect(data(await run(q, { first: 5 })).viewer.payments.nodes).toHaveLength(5);
    const denied = await run(q, { first: 1 }, ['account:write']);
    expect(denied.errors![0]!.extensions['code']).toBe('INSUFFICIENT_SCOPE');
    const other = await run(q, { first: 1 }, BOTH, 'usr_owner');
    expect(data(other).viewer.id).toBe('usr_owner');
  });

  it('a refused document is refused the same way every time, and the cache stays bounded and correct past its size', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await run('{ viewer { nope } }')).errors![0]!.extensions['code']).toBe(
        'GRAPHQL_VALIDATION_FAILED',
      );
      expect((await run('{ viewer { ')).errors![0]!.extensions['code']).toBe(
        'GRAPHQL_PARSE_FAILED',
      );
    }
    for (let i = 0; i < DOCUMENT_CACHE_SIZE + 20; i++) {
      const r = await run(`{ viewer { a${i}: id } }`);
      expect(data(r).viewer[`a${i}`]).toBe('usr_student');
    }
    expect(data(await run('{ viewer { id } }')).viewer.id).toBe('usr_student');
  });

  it('each query text is its own entry: texts that differ in one character never share a document', async () => {
    expect(
      data(await run('{ viewer { payments(first: 2) { nodes { id } } } }')).viewer.payments.nodes,
    ).toHaveLength(2);
    expect(
      data(await run('{ viewer { payments(first: 3) { nodes { id } } } }')).viewer.payments.nodes,
    ).toHaveLength(3);
    expect(data(await run('{ viewer { id } }')).viewer).toEqual({ id: 'usr_student' });
    expect(data(await run('{ viewer { id  } }')).viewer).toEqual({ id: 'usr_student' });
    expect(data(await run('{ viewer { name } }')).viewer).toEqual({ name: 'Demo Student' });
    // A valid text cached first does not make a longer, invalid one valid, nor the other way round.
    expect((await run('{ viewer { name nope } }')).errors![0]!.extensions['code']).toBe(
      'GRAPHQL_VALIDATION_FAILED',
    );
    expect(data(await run('{ viewer { name } }')).viewer).toEqual({ name: 'Demo Student' });
  });

  it('the cost limit and the scope guard apply on every request of a cached document', async () => {
    // A variable `first` counts as the maximum (100), so 60 aliased course pages cost about 30,000
    // whatever the variables say: the refusal is a property of the text, cached with it, and
    // answered on every request.
    const pages = Array.from(
      { length: 60 },
      (_, i) =>
        `c${i}: enrolledCourses(first: $n) { nodes { sections { lectures { lectureId title } } } }`,
    );
    const costly = `query($n: Int) { viewer { ${pages.join(' ')} } }`;
    for (const n of [1, 100]) {
      const r = await run(costly, { n });
      expect(r.errors![0]!.extensions['code']).toBe('QUERY_TOO_COMPLEX');
      expect(r.data).toBeUndefined();
    }
    const q = '{ viewer { email } }';
    expect(data(await run(q, {}, READ)).viewer.email).toBe('student@example.com');
    expect(isDocumentCached(memberSchema(), q)).toBe(true);
    const denied = await run(q, {}, ['account:write']);
    expect(denied.errors![0]!.extensions['code']).toBe('INSUFFICIENT_SCOPE');
    expect(denied.data).toBeNull();
    expect(data(await run(q, {}, READ)).viewer.email).toBe('student@example.com');
  });

  it(`holds at most ${DOCUMENT_CACHE_SIZE} documents and evicts the least recently used first`, async () => {
    const text = (i: number) => `{ viewer { bound${i}: id } }`;
    for (let i = 0; i < DOCUMENT_CACHE_SIZE; i++) await run(text(i));
    expect(cachedDocumentCount(memberSchema())).toBe(DOCUMENT_CACHE_SIZE);
    await run(text(0)); // used again: now the most recent
    await run(text(DOCUMENT_CACHE_SIZE)); // one more: the least recently used (text 1) goes
    expect(cachedDocumentCount(memberSchema())).toBe(DOCUMENT_CACHE_SIZE);
    expect(isDocumentCached(memberSchema(), text(0))).toBe(true);
    expect(isDocumentCached(memberSchema(), text(1))).toBe(false);
    expect(isDocumentCached(memberSchema(), text(2))).toBe(true);
    // An evicted text answers exactly as before: it is parsed and validated again.
    expect(data(await run(text(1))).viewer).toEqual({ bound1: 'usr_student' });
  });
});

describe('Batching (no N+1: one batch per page, whatever the page size)', () => {
  it('loads sections, lectures and progress of a page of courses in one batch, and payment details in one', async () => {
    // Spies call through to the real data access; they only count calls.
    const trees = vi.spyOn(MemberData.prototype, 'courseTrees');
    const details = vi.spyOn(MemberData.prototype, 'paymentDetails');
    try {
      const r = await run(`{ viewer {
        enrolledCourses(first: 100) { nodes { id detailProgress { percent } sections { lectures { lectureId } } } }
        payments(first: 50) { nodes { id adjustments { code } lineitems { id } } } } }`);
      expect(r.errors).toBeUndefined();
      expect(data(r).viewer.enrolledCourses.nodes).toHaveLength(8);
      expect(trees).toHaveBeenCalledTimes(1);
      expect(trees.mock.calls[0]![0]).toHaveLength(8);
      expect(details).toHaveBeenCalledTimes(1);
      expect(details.mock.calls[0]![0]).toHaveLength(15);
    } finally {
      trees.mockRestore();
      details.mockRestore();
    }
  });

  it('does not load course trees when no course field needs them', async () => {
    const trees = vi.spyOn(MemberData.prototype, 'courseTrees');
    try {
      await run('{ viewer { enrolledCourses(first: 100) { totalCount nodes { id title } } } }');
      expect(trees).not.toHaveBeenCalled();
    } finally {
      trees.mockRestore();
    }
  });
});
