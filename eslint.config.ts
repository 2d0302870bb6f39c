import js from '@eslint/js';
import globals from 'globals';
import type { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { docAttachedRule } from './scripts/lint/doc-attached-rule';
import { layersRule } from './scripts/lint/layers-rule';
import { trackerRefsRule } from './scripts/lint/tracker-refs-rule';

/**
 * Lint config. Besides the usual recommended rules it enforces the import boundaries and the
 * conventions of docs/ARCHITECTURE.md ("enforced by lint and tests, not by memory");
 * test/lint/boundaries.test.ts and test/lint/conventions.test.ts prove each rule fires.
 */

const NODE_BUILTINS = [
  'node:*',
  'fs',
  'path',
  'os',
  'crypto',
  'http',
  'https',
  'net',
  'child_process',
  'url',
  'stream',
  'events',
  'util',
  'worker_threads',
];
const otherFolders = (...names: string[]) => names.flatMap((n) => [`**/${n}`, `**/${n}/**`]);

/**
 * Layers inside electron/core, lowest first (ARCHITECTURE.md "Layers inside electron/core"): a
 * folder imports its own files and the layers below, never a layer above nor a neighbour in its own
 * layer (`local/layers`).
 */
const CORE_LAYERS = [
  // graphql: the member schema's typed documents, which the sync sends and the stored records are
  // derived from.
  ['errors', 'log', 'graphql'],
  ['fs', 'net'],
  ['vault', 'db'],
  ['auth', 'export'],
  // The database worker: the writer's thread, composed of db, net (page fetches) and export (the
  // purchase CSV).
  ['worker'],
  // The sync hands its writes to the worker.
  ['sync', 'sites'],
  // mcp-local: the student's own MCP server over the offline copy (db read-only; never vault, sync
  // or net I/O).
  ['desktop', 'doctor', 'demo', 'settings', 'invite', 'downloads', 'mcp-local'],
  // Composition: the IPC dispatcher, the data folder's lock, the sync scheduler (online state,
  // probing, auto-sync); then the per-area handler modules; then app-parts.ts, the parts
  // app-core.ts builds the core from, in order.
  ['ipc-dispatch', 'data-dir-lock', 'sync-scheduler'],
  ['handlers'],
  ['app-parts'],
  ['app-handlers'],
  ['app-core'],
];
/** db keeps tables, migrations and views: no HTTP (net). */
const CORE_FORBID = { db: ['net'] };
/**
 * Folders entered only through their index.ts: db/index.ts is the one way into the offline store.
 */
const CORE_ENTRIES = ['db'];

/**
 * The renderer's layers: shared state below the features, the shell (app/) above them, never back.
 */
const RENDERER_LAYERS = [
  ['i18n', 'styles', 'query-refresh'],
  ['api'],
  ['query'],
  ['ui'],
  ['state'],
  ['features'],
  ['app'],
  ['App'],
  ['main'],
];

/**
 * Each feature folder is entered only through its index.ts: another feature, the shell and App.tsx
 * use what the index exports, never a file inside it. No cycle between feature folders:
 * test/lint/cycles.test.ts.
 */
const RENDERER_ENTRIES = ['features/*'];

const local = {
  rules: {
    layers: layersRule,
    'no-tracker-refs': trackerRefsRule,
    'doc-attached': docAttachedRule,
  },
};

/** Shared shape of the restricted-import rule so each folder lists only its own bans. */
function restrict(
  patterns: {
    group: string[];
    message: string;
    importNames?: string[];
    allowTypeImports?: boolean;
  }[],
  paths: { name: string; message: string; importNames?: string[] }[] = [],
): Linter.RuleEntry {
  return ['error', { patterns, paths }];
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      'release/**',
      'test-results/**',
      'playwright-report/**',
      '.data/**',
      '**/*.d.ts',
      '**/graphql-env.d.ts',
      '**/graphql-env.ts',
      'embedded-server/member-api/schema-types.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'separate-type-imports' },
      ],
      'no-console': 'off',
    },
  },
  // Conventions of docs/ARCHITECTURE.md, everywhere: comments and test names say why in words (no
  // tracker references), and a doc comment stays right above its entry.
  {
    files: ['**/*.{ts,tsx,mjs,cjs,js}'],
    plugins: { local },
    rules: { 'local/no-tracker-refs': 'error', 'local/doc-attached': 'error' },
  },
  // House style: no function over 80 lines (blank lines and comments not counted); a longer one has
  // more than
  // one job. Seed data is exempted by name where it is written (eslint-disable-next-line, with its reason).
  // docs/ARCHITECTURE.md "Formatting": Prettier keeps code at 100 and npm run format wraps comments
  // at 100; no line, comment or code, passes 120 (a string or a URL may: neither can be broken).
  {
    files: ['**/*.{ts,tsx,mjs,cjs,js}'],
    rules: {
      'max-len': [
        'error',
        {
          code: 120,
          comments: 120,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignoreUrls: true,
          ignorePattern: 'eslint-disable|@ts-expect-error',
        },
      ],
    },
  },
  {
    files: ['electron/**/*.ts', 'embedded-server/**/*.ts', 'scripts/**/*.{ts,mjs}'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // electron/common: pure TypeScript shared by every process. No electron, no node:, nothing from
  // other folders.
  {
    files: ['electron/common/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [
          {
            group: NODE_BUILTINS,
            message: 'electron/common is shared with the renderer: no Node built-ins.',
          },
          {
            group: otherFolders(
              'core',
              'main',
              'preload',
              'browser-host',
              'renderer',
              'embedded-server',
            ),
            message: 'electron/common imports nothing from the other folders.',
          },
        ],
        [{ name: 'electron', message: 'electron/common must not import electron.' }],
      ),
    },
  },
  // electron/core: everything the main process does, in plain Node. Never electron; never the hosts
  // or the UI. The embedded server is reached over HTTP only; the composition root's demo branch is
  // the one place that starts it.
  {
    files: ['electron/core/**/*.ts'],
    ignores: ['electron/core/app-core.ts', 'electron/core/demo/**'],
    rules: {
      'no-restricted-imports': restrict(
        [
          {
            group: ['electron', 'electron/*'],
            message: 'electron/core runs in plain Node: it never imports electron.',
          },
          {
            group: otherFolders('main', 'preload', 'browser-host', 'renderer'),
            message: 'electron/core must not import the hosts or the renderer.',
          },
          {
            group: otherFolders('embedded-server'),
            message:
              'The app reaches the embedded server over HTTP; only the demo branch of the composition root starts it.',
          },
        ],
        [
          {
            name: 'electron',
            message: 'electron/core runs in plain Node: it never imports electron.',
          },
        ],
      ),
    },
  },
  {
    files: ['electron/core/app-core.ts', 'electron/core/demo/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [
          {
            group: otherFolders('main', 'preload', 'browser-host', 'renderer'),
            message: 'electron/core must not import the hosts or the renderer.',
          },
        ],
        [
          {
            name: 'electron',
            message: 'electron/core runs in plain Node: it never imports electron.',
          },
        ],
      ),
    },
  },
  {
    files: ['electron/core/**/*.ts'],
    plugins: { local },
    rules: {
      'local/layers': [
        'error',
        { root: 'electron/core', layers: CORE_LAYERS, forbid: CORE_FORBID, entries: CORE_ENTRIES },
      ],
    },
  },
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    plugins: { local },
    rules: {
      'local/layers': [
        'error',
        { root: 'renderer/src', layers: RENDERER_LAYERS, entries: RENDERER_ENTRIES },
      ],
    },
  },
  // The renderer reads data only through the typed api object: electron/common (types) and its own
  // files.
  {
    files: ['renderer/**/*.{ts,tsx}'],
    // The renderer's build config runs in Node, not in the page.
    ignores: ['renderer/vite.config.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [
          { group: NODE_BUILTINS, message: 'The renderer has no Node access.' },
          {
            group: otherFolders('core', 'main', 'preload', 'browser-host', 'embedded-server'),
            message: 'The renderer imports only electron/common (types) and its own files.',
          },
          {
            group: ['better-sqlite3', 'jose', 'graphql-request'],
            message: 'The renderer reads data only through the typed api object.',
          },
          {
            // The contract's values are its zod schemas (~90 kB in the window's first load); its
            // runtime names live in ipc-names.ts.
            group: ['**/electron/common/ipc-contract', 'zod', 'zod/*'],
            allowTypeImports: true,
            message:
              'Only types from the contract in the renderer: its values (zod schemas) would load with the window; see ipc-names.ts.',
          },
        ],
        [
          {
            name: 'electron',
            message: 'The renderer must not import electron: use window.learningDesktop.',
          },
        ],
      ),
    },
  },
  // The embedded server is a separate service: it never imports the app.
  {
    files: ['embedded-server/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [
          {
            group: otherFolders('electron', 'renderer'),
            message: 'embedded-server never imports from electron/ or renderer/.',
          },
        ],
        [{ name: 'electron', message: 'embedded-server never imports electron.' }],
      ),
    },
  },
  // Tests call channels typed from the contract (test/helpers/test-core.ts invoke/caller), so an
  // answer needs no cast. The files listed send what the contract refuses (unknown channels, wrong
  // values) or every channel through one untyped loop (the secret-masking tests), which is what
  // dispatch itself is for.
  {
    files: ['test/**/*.ts'],
    ignores: [
      'test/helpers/test-core.ts',
      'test/core/ipc-dispatch.test.ts',
      'test/core/app-core-first-screen.test.ts',
      'test/core/app-core-site-pages.test.ts',
      'test/core/doctor/app-core-doctor.test.ts',
      'test/e2e/hostile-property.spec.ts',
      'test/interop/helpers/world.ts',
      'test/security/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/electron/core/ipc-dispatch'],
          importNames: ['dispatch'],
          message:
            'Call channels with invoke or caller (test/helpers/test-core.ts), typed from the contract; dispatch is for input the contract refuses.',
        },
      ]),
    },
  },
  // Raw ipcMain / ipcRenderer are imported in exactly one file each (GitHub Desktop ipc-shared
  // pattern).
  {
    files: ['electron/main/**/*.ts'],
    ignores: ['electron/main/ipc.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [],
        [
          {
            name: 'electron',
            importNames: ['ipcMain'],
            message: 'Register IPC handlers through electron/main/ipc.ts only.',
          },
        ],
      ),
    },
  },
  {
    files: ['electron/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: otherFolders('core', 'main', 'browser-host', 'renderer', 'embedded-server'),
          message: 'The preload exposes the contract from electron/common only.',
        },
      ]),
    },
  },
);
