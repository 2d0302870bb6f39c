import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OUTPUT_FILE, renderSchemaTypes } from '../../../embedded-server/member-api/generate-types';
import { resolvers, type Complete, type Node } from '../../../embedded-server/member-api/resolvers';
import type { MemberContext } from '../../../embedded-server/member-api/context';
import type { ViewerResolvers } from '../../../embedded-server/member-api/schema-types';

// The resolvers and node builders are typed from the SDL (generate-types.ts). The `@ts-expect-error` lines
// below are the proof that a missing or mistyped field fails `npm run typecheck`: were the types
// loose again,
// the directive would be unused, and tsc reports an unused `@ts-expect-error` as an error.

type ViewerMap = Complete<ViewerResolvers<MemberContext>>;

// Declared, not built: a new schema field then needs no line here (the cases never run).
declare const course: Node<'Course'>;

declare const notice: Node<'Notification'>;

/** Type-level cases only: never called. */
export function typeCases(): unknown[] {
  const { email: _email, ...viewerWithoutEmail } = resolvers.Viewer;
  const { title: _title, ...courseWithoutTitle } = course;
  const { description: _description, ...courseWithoutDescription } = course;
  return [
    resolvers.Viewer satisfies ViewerMap,
    // @ts-expect-error a Viewer field whose resolver was deleted
    viewerWithoutEmail satisfies ViewerMap,
    // @ts-expect-error a resolver answering the wrong type (email is a String)
    { ...resolvers.Viewer, email: () => 42 } satisfies ViewerMap,
    // @ts-expect-error a node built without a required field
    courseWithoutTitle satisfies Node<'Course'>,
    // @ts-expect-error a nullable field is still a key: null, never missing
    courseWithoutDescription satisfies Node<'Course'>,
    // @ts-expect-error a field of the wrong type (DateTime is epoch milliseconds)
    { ...course, enrolledAt: '2026-01-01' } satisfies Node<'Course'>,
    // @ts-expect-error a field loaded only when selected is a function, not the value
    { ...course, sections: [] } satisfies Node<'Course'>,
    // @ts-expect-error a value outside the schema's enum
    { ...notice, kind: 'nope' } satisfies Node<'Notification'>,
  ];
}

describe('member schema types (generate-types.ts)', () => {
  it('schema-types.ts is up to date with the schema files', async () => {
    expect(readFileSync(OUTPUT_FILE, 'utf8')).toBe(await renderSchemaTypes());
  });

  it('the resolver map covers every root field of the schema', () => {
    expect(Object.keys(resolvers.Viewer).length).toBeGreaterThan(0);
    expect(typeCases).toBeTypeOf('function');
  });
});
