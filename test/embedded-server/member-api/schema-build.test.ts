import { describe, expect, it } from 'vitest';
import { attachResolvers } from '../../../embedded-server/member-api/schema';
import { applyScopeGuard } from '../../../embedded-server/member-api/scope-guard';
import { createMemberContext } from '../../../embedded-server/member-api/context';
import { executeMemberRequest } from '../../../embedded-server/member-api/execute';
import { buildSchema } from 'graphql';
import { BASE, BOTH, data, db, NOW, READ, run, useDemoDb } from './in-process';

useDemoDb();

describe('Scope guard (service-spec "Protected resources": one scope, field of the other -> 200 + errors)', () => {
  it('a read-only token gets an INSUFFICIENT_SCOPE error naming account:write for a mutation', async () => {
    const r = await run('mutation { markAllNotificationsRead { updatedCount } }', {}, READ);
    expect(r.errors).toHaveLength(1);
    expect(r.errors![0]!.message).toBe('This field requires the account:write scope.');
    expect(r.errors![0]!.extensions['code']).toBe('INSUFFICIENT_SCOPE');
  });

  it('a write-only token gets an error naming account:read for viewer, and its mutation still works', async () => {
    const q = await run('{ viewer { id } }', {}, ['account:write']);
    expect(q.data).toBeNull();
    expect(q.errors![0]!.message).toBe('This field requires the account:read scope.');
    const m = await run(
      'mutation($id: ID!) { markNotificationRead(id: $id) { id } }',
      { id: 'ntf_demo_01' },
      ['account:write'],
    );
    expect(m.errors).toBeUndefined();
    expect(data(m).markNotificationRead.id).toBe('ntf_demo_01');
  });
});

describe('Schema build without helper packages (attachResolvers + applyScopeGuard from the SDL)', () => {
  const SDL = `directive @requiresScope(scope: String!) on FIELD_DEFINITION | OBJECT
    type Query { open: String secret: Secret @requiresScope(scope: "account:read") }
    type Secret @requiresScope(scope: "account:write") { plain: String computed: String }`;
  const build = () =>
    applyScopeGuard(
      attachResolvers(buildSchema(SDL), {
        Query: { open: () => 'o', secret: () => ({ plain: 'p', computed: () => 'c' }) },
      }),
    );

  it("guards fields marked on the field and on their type, and unguarded fields keep graphql's default resolver", async () => {
    const schema = build();
    const ctx = (scopes: string[]) =>
      createMemberContext(db, {
        schoolId: 'sch_demo',
        userId: 'usr_student',
        scopes,
        now: NOW,
        baseUrl: BASE,
      });
    const all = await executeMemberRequest(
      schema,
      { query: '{ open secret { plain computed } }' },
      ctx(BOTH),
    );
    expect(all).toEqual({ data: { open: 'o', secret: { plain: 'p', computed: 'c' } } });
    const readOnly = await executeMemberRequest(
      schema,
      { query: '{ open secret { plain } }' },
      ctx(['account:read']),
    );
    expect(readOnly.errors![0]!.extensions).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      requiredScope: 'account:write',
    });
    const none = await executeMemberRequest(
      schema,
      { query: '{ open secret { plain } }' },
      ctx([]),
    );
    expect(none.data).toEqual({ open: 'o', secret: null });
    expect(none.errors![0]!.extensions).toMatchObject({ requiredScope: 'account:read' });
  });

  it('a resolver for a type or field the schema does not have is an error at build time', () => {
    expect(() => attachResolvers(buildSchema(SDL), { Query: { nope: () => 1 } })).toThrow(
      /Query\.nope/,
    );
    expect(() => attachResolvers(buildSchema(SDL), { Missing: { x: () => 1 } })).toThrow(/Missing/);
  });
});
