import { readFileSync } from 'node:fs';
import { buildSchema, parse, print, validate, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import * as documents from '../../../electron/core/graphql/documents';
import {
  OUTPUT_FILE,
  readMemberSchemaSdl,
  renderIntrospectionFile,
} from '../../../electron/core/graphql/generate';

// gql.tada types results from the schema, but the TypeScript compiler alone does not reject a field
// the schema lacks (that is the editor plugin's job). This test is the gate: every document the
// sync sends must validate against the member schema files the embedded server serves (service-spec
// "Member GraphQL operations").
const schema = buildSchema(readMemberSchemaSdl());
const sent = Object.entries(documents).filter(
  (e): e is [string, DocumentNode] => typeof e[1] === 'object' && e[1] !== null && 'kind' in e[1],
);

describe('sync GraphQL documents against the member schema', () => {
  it('finds every document', () => {
    expect(sent.map(([name]) => name).sort()).toEqual(
      [
        'ConsultingServicesQuery',
        'CoursesQuery',
        'DigitalProductsQuery',
        'EventRegistrationsQuery',
        'MarkAllNotificationsReadMutation',
        'MarkNotificationReadMutation',
        'NotificationSubscriptionsQuery',
        'NotificationsQuery',
        'PaymentsQuery',
        'ProbeQuery',
        'ProfileQuery',
        'UpdateNotificationSubscriptionMutation',
      ].sort(),
    );
  });

  it.each(sent)('%s validates', (_name, document) => {
    expect(validate(schema, parse(print(document))).map((e) => e.message)).toEqual([]);
  });

  it('the check catches a field the schema lacks', () => {
    expect(
      validate(schema, parse('query { viewer { id nonexistentField } }')).length,
    ).toBeGreaterThan(0);
  });

  it('graphql-env.ts (the typed introspection) is up to date with the schema files', () => {
    expect(readFileSync(OUTPUT_FILE, 'utf8')).toBe(renderIntrospectionFile());
  });

  it('pages stay within the schema and spec limits (payments 50, others 100)', () => {
    expect(documents.PAGE_SIZE.payments).toBeLessThanOrEqual(50);
    for (const size of Object.values(documents.PAGE_SIZE)) expect(size).toBeLessThanOrEqual(100);
  });
});
