import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCHEMA_DIR = fileURLToPath(new URL('./schema/', import.meta.url));

/**
 * The schema files, concatenated in name order (base.graphql first: it declares the directive and
 * roots).
 */
export function loadTypeDefs(dir: string = SCHEMA_DIR): string {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort((a, b) => (a === 'base.graphql' ? -1 : b === 'base.graphql' ? 1 : a.localeCompare(b)))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}
