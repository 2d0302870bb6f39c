/**
 * Regenerates `graphql-env.ts` (the member schema's introspection, typed for gql.tada) from the
 * schema files the embedded server serves: `npx tsx electron/core/graphql/generate.ts`. A test
 * compares the committed file with a fresh run, so a schema change without regeneration fails the
 * build.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, introspectionFromSchema } from 'graphql';
import { minifyIntrospection, outputIntrospectionFile } from 'gql.tada/internal';

const here = dirname(fileURLToPath(import.meta.url));
export const SCHEMA_DIR = resolve(here, '../../../embedded-server/member-api/schema');
export const OUTPUT_FILE = join(here, 'graphql-env.ts');

/** The member schema SDL: every `.graphql` file of the schema folder, in name order. */
export function readMemberSchemaSdl(dir = SCHEMA_DIR): string {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

export function renderIntrospectionFile(sdl = readMemberSchemaSdl()): string {
  const introspection = introspectionFromSchema(buildSchema(sdl), { descriptions: false });
  return outputIntrospectionFile(minifyIntrospection(introspection), {
    fileType: '.ts',
    shouldPreprocess: false,
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(OUTPUT_FILE, renderIntrospectionFile());
  console.log(`wrote ${OUTPUT_FILE}`);
}
