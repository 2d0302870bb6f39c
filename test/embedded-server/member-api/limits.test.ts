import { buildSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  costLimitsRule,
  MAX_INTROSPECTION_FIELDS,
} from '../../../embedded-server/member-api/limits';
import { startTestServer } from '../../helpers/server';
import { graphql, mintToken } from './tokens';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function ask(
  server: Awaited<ReturnType<typeof startTestServer>>,
  query: string,
): Promise<{ status: number; bytes: number; body: Json }> {
  const token = mintToken(server, { scopes: ['account:read'] }).accessToken;
  const res = await graphql(server, token, query);
  const text = await res.text();
  return { status: res.status, bytes: Buffer.byteLength(text), body: JSON.parse(text) as Json };
}

describe('introspection under the cost limits', () => {
  it('150 aliased __schema selections are refused before execution, with a small GraphQL error answer', async () => {
    const server = await startTestServer();
    const query = `{ ${Array.from({ length: 150 }, (_, i) => `a${i}: __schema { types { name fields { name type { name } } } }`).join(' ')} }`;
    const r = await ask(server, query);
    expect(r.status).toBe(200);
    expect(r.body.data).toBeUndefined();
    const codes = (r.body.errors as Json[]).map((e) => e.extensions.code);
    expect(codes).toContain('INTROSPECTION_LIMIT');
    expect(r.bytes).toBeLessThan(2_000);
  });

  it('one __schema and one __type in the same request: refused (one selection per request)', async () => {
    const server = await startTestServer();
    const r = await ask(
      server,
      '{ __schema { queryType { name } } __type(name: "Query") { name } }',
    );
    expect((r.body.errors as Json[]).map((e) => e.extensions.code)).toEqual([
      'INTROSPECTION_LIMIT',
    ]);
    expect(r.body.errors[0].extensions.maxIntrospectionSelections).toBe(1);
    // Also across fragments and operations of one document.
    const viaFragment = await ask(
      server,
      'fragment F on Query { __type(name: "Viewer") { name } } { __schema { queryType { name } } ...F }',
    );
    expect((viaFragment.body.errors as Json[]).map((e) => e.extensions.code)).toEqual([
      'INTROSPECTION_LIMIT',
    ]);
  });

  it('aliased lists inside one __schema are counted: over the introspection field budget -> QUERY_TOO_COMPLEX', async () => {
    const server = await startTestServer();
    const r = await ask(
      server,
      `{ __schema { ${Array.from({ length: 165 }, (_, i) => `a${i}: types { fields { name } }`).join(' ')} } }`,
    );
    const [error] = r.body.errors as Json[];
    expect(error!.extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      maxIntrospectionFields: MAX_INTROSPECTION_FIELDS,
    });
    expect(r.bytes).toBeLessThan(2_000);
  });

  it('the standard introspection query of graphql-js (GraphiQL, codegen) still works', async () => {
    const server = await startTestServer();
    const r = await ask(
      server,
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
      }),
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.__schema.queryType.name).toBe('Query');
  });

  it('introspection fields count toward the complexity like any other field', () => {
    const schema = buildSchema('type Query { node: Node } type Node { id: ID }');
    const rule = costLimitsRule({
      maxDepth: 10,
      maxComplexity: 2,
      pageSize: () => ({ default: 20, max: 100 }),
    });
    expect(validate(schema, parse('{ node { id } }'), [rule])).toEqual([]);
    const errors = validate(schema, parse('{ node { id __typename } }'), [rule]);
    expect(errors.map((e) => e.extensions['code'])).toEqual(['QUERY_TOO_COMPLEX']);
    expect(
      validate(schema, parse('{ __type(name: "Node") { name kind } }'), [rule]).map(
        (e) => e.extensions['code'],
      ),
    ).toEqual(['QUERY_TOO_COMPLEX']);
  });

  it('the answer is bounded: one over the server limit becomes a RESPONSE_TOO_LARGE error', async () => {
    const small = await startTestServer({ memberResponseLimitBytes: 20_000 });
    const r = await ask(small, getIntrospectionQuery());
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: null,
      errors: [
        {
          message: expect.stringContaining('20000 bytes'),
          extensions: { code: 'RESPONSE_TOO_LARGE', maxBytes: 20_000 },
        },
      ],
    });
    const big = await startTestServer({ memberResponseLimitBytes: 200_000 });
    expect((await ask(big, getIntrospectionQuery())).body.errors).toBeUndefined();
  });
});
