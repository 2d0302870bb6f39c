import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { viewerData } from './tokens';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PAGE = `edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;

describe('PageInfo (Relay Cursor Connections: both directions, spec "Connections are Relay style")', () => {
  it('startCursor and endCursor are the first and last edge cursors; hasPreviousPage is true past the first page', async () => {
    const server = await startTestServer();
    for (const field of ['enrolledCourses', 'payments', 'notifications', 'digitalProducts']) {
      const first = (await viewerData(server, `{ viewer { ${field}(first: 2) { ${PAGE} } } }`))[
        field
      ] as Json;
      expect(first.pageInfo, field).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      expect(first.pageInfo.startCursor).toBe(first.edges[0].cursor);
      expect(first.pageInfo.endCursor).toBe(first.edges[1].cursor);
      const second = (
        await viewerData(
          server,
          `{ viewer { ${field}(first: 2, after: "${first.pageInfo.endCursor}") { ${PAGE} } } }`,
        )
      )[field] as Json;
      expect(second.pageInfo.hasPreviousPage, field).toBe(true);
      expect(second.pageInfo.startCursor).toBe(second.edges[0].cursor);
    }
  });

  it('an empty page has null cursors', async () => {
    const server = await startTestServer();
    const page = (await viewerData(server, `{ viewer { enrolledCourses(first: 0) { ${PAGE} } } }`))
      .enrolledCourses as Json;
    expect(page.pageInfo).toMatchObject({
      hasPreviousPage: false,
      startCursor: null,
      endCursor: null,
    });
  });
});
