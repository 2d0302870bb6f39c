/**
 * Child of archive-atomic.test.ts: writes a large archive into argv[2] and tells the parent when
 * half of it is on disk, so the parent can kill it (SIGKILL) in the middle of the write.
 */
import { writeArchiveFolder } from '../../../electron/core/export/archive-write';

const parent = process.argv[2]!;
const files = Array.from({ length: 4000 }, (_, i) => ({
  path: i === 3999 ? 'index.html' : `notes/n${i}.md`,
  body: `note ${i} `.repeat(500),
}));
await writeArchiveFolder(parent, 'school-archive', files, (written) => {
  if (written === 200) process.send?.('half');
});
process.send?.('done');
