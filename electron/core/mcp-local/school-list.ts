/**
 * The schools as the app keeps them (sites.json in the data folder): id, the student's name for it
 * and its address, read again only when the file changed. The server never reads the vault: no
 * token, no sign-in.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { SchoolInfo } from './context';
import { schoolLine } from './school-text';

const fileSchema = z.object({
  sites: z
    .array(z.object({ id: z.string().min(1).max(200), label: z.string(), baseUrl: z.string() }))
    .max(1000),
});

export class SchoolList {
  readonly #file: string;
  #stamp = '';
  #schools: readonly SchoolInfo[] = [];

  constructor(dataDir: string) {
    this.#file = join(dataDir, 'sites.json');
  }

  current(): readonly SchoolInfo[] {
    let stamp: string;
    try {
      const s = statSync(this.#file);
      stamp = `${s.size}:${s.mtimeMs}:${s.ino}`;
    } catch {
      stamp = 'missing';
    }
    if (stamp !== this.#stamp) {
      this.#stamp = stamp;
      this.#schools = stamp === 'missing' ? [] : this.#read();
    }
    return this.#schools;
  }

  #read(): SchoolInfo[] {
    try {
      const parsed = fileSchema.safeParse(JSON.parse(readFileSync(this.#file, 'utf8')));
      if (!parsed.success) return [];
      return parsed.data.sites.map((s) => ({
        siteId: s.id,
        name: schoolLine(s.label, 200),
        baseUrl: s.baseUrl,
      }));
    } catch {
      return [];
    }
  }
}
