/**
 * A ZIP of a few small files in memory (a Claude Desktop bundle), written by yazl: deflated entries
 * with UTF-8 names and one fixed time, so the same files make the same bytes.
 */
import { ZipFile } from 'yazl';

export interface ZipEntry {
  /** Forward slashes, relative (APPNOTE 4.4.17). */
  readonly name: string;
  readonly data: Uint8Array;
}

/** The entries carry no time of their own: the start of the MS-DOS epoch, 1980-01-01 00:00. */
const FIXED_TIME = new Date(1980, 0, 1, 0, 0, 0);

export function zip(entries: readonly ZipEntry[]): Promise<Buffer> {
  const file = new ZipFile();
  for (const entry of entries) {
    if (entry.name.startsWith('/') || entry.name.includes('\\') || entry.name.includes('..'))
      throw new Error(`zip: "${entry.name}" is not a relative path`);
    file.addBuffer(Buffer.from(entry.data), entry.name, {
      mtime: FIXED_TIME,
      compress: true,
      forceDosTimestamp: true,
    });
  }
  file.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    file.outputStream.on('data', (c: Buffer) => chunks.push(c));
    file.outputStream.on('error', reject);
    file.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
