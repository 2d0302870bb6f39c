import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  ACTIVITY_FILE_NAME,
  ActivityLog,
  summariseArgs,
  type ActivityEntry,
} from '../../../electron/core/mcp-local/activity-log';
import { ConsentReader, consentFile, isActive } from '../../../electron/core/mcp-local/consent';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'ld-mcp-log-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entry = (i: number): ActivityEntry => ({
  at: new Date(i * 1000).toISOString(),
  client: 'c',
  kind: 'tool',
  name: `tool_${i}`,
  args: {},
  rows: i,
  outcome: 'ok',
  ms: 1,
});

test('the log is bounded: past its size it moves aside once, and reads newest first', () => {
  const log = new ActivityLog({ dataDir: dir, maxBytes: 2_000 });
  for (let i = 0; i < 100; i++) log.append(entry(i));
  const file = join(dir, ACTIVITY_FILE_NAME);
  const both = readFileSync(file).length + readFileSync(`${file}.1`).length;
  expect(both).toBeLessThan(2 * 2_000 + 200);
  const read = log.read();
  expect(read[0]!.name).toBe('tool_99');
  expect(read.length).toBeLessThan(100);
  log.clear();
  expect(log.read()).toEqual([]);
});

test('a damaged line is skipped, the others read', () => {
  const log = new ActivityLog({ dataDir: dir });
  log.append(entry(1));
  appendFileSync(join(dir, ACTIVITY_FILE_NAME), '{"at": "half a li\n');
  log.append(entry(2));
  expect(log.read().map((e) => e.name)).toEqual(['tool_2', 'tool_1']);
});

test('arguments keep ids and numbers; free text and odd values only by their shape', () => {
  expect(
    summariseArgs({
      siteId: 'site-1',
      limit: 5,
      query: 'my private question',
      kinds: ['course', 'lecture'],
      courseId: 'has spaces and "quotes"',
    }),
  ).toEqual({
    siteId: 'site-1',
    limit: 5,
    queryLength: 19,
    kindsCount: 2,
    courseId: '(string)',
  });
});

test('a consent file that cannot be read is no consent', () => {
  writeFileSync(consentFile(dir), '{"enabled": true, "cloudAcknowledged": tru');
  expect(isActive(new ConsentReader(dir).current())).toBe(false);
  writeFileSync(
    consentFile(dir),
    JSON.stringify({ enabled: true, cloudAcknowledged: true, surface: 'tools-0' }),
  );
  // Agreed to an older surface: asked again.
  expect(isActive(new ConsentReader(dir).current())).toBe(false);
});
