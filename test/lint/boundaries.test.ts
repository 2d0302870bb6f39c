import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Each import boundary of ARCHITECTURE.md ("Import rules (enforced by lint, not by memory)") must
// fire. Sources are linted as if they lived at the given path, so the real config decides.
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImportMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

const cases: { rule: string; file: string; code: string }[] = [
  {
    rule: 'electron/core never imports electron',
    file: 'electron/core/sync/x.ts',
    code: "import { app } from 'electron';\nexport const a = app;\n",
  },
  {
    rule: 'electron/core never imports the hosts',
    file: 'electron/core/auth/x.ts',
    code: "import { a } from '../../main/window';\nexport const b = a;\n",
  },
  {
    rule: 'electron/core reaches the embedded server only from the demo branch',
    file: 'electron/core/sync/x.ts',
    code: "import { createEmbeddedServer } from '../../../embedded-server';\nexport const c = createEmbeddedServer;\n",
  },
  {
    rule: 'the renderer never imports electron/core',
    file: 'renderer/src/x.ts',
    code: "import { a } from '../../electron/core/db/open';\nexport const b = a;\n",
  },
  {
    rule: 'the renderer never imports electron',
    file: 'renderer/src/x.ts',
    code: "import { ipcRenderer } from 'electron';\nexport const b = ipcRenderer;\n",
  },
  {
    rule: 'the renderer has no Node built-ins',
    file: 'renderer/src/x.ts',
    code: "import { readFileSync } from 'node:fs';\nexport const b = readFileSync;\n",
  },
  {
    rule: 'the renderer never imports the embedded server',
    file: 'renderer/src/x.ts',
    code: "import { x } from '../../embedded-server/index';\nexport const b = x;\n",
  },
  {
    rule: 'electron/common imports no Node built-ins',
    file: 'electron/common/x.ts',
    code: "import { join } from 'node:path';\nexport const b = join;\n",
  },
  {
    rule: 'electron/common imports nothing from the other folders',
    file: 'electron/common/x.ts',
    code: "import { a } from '../core/errors';\nexport const b = a;\n",
  },
  {
    rule: 'electron/common never imports electron',
    file: 'electron/common/x.ts',
    code: "import { app } from 'electron';\nexport const b = app;\n",
  },
  {
    rule: 'embedded-server never imports the app',
    file: 'embedded-server/x.ts',
    code: "import { a } from '../electron/common/result';\nexport const b = a;\n",
  },
  {
    rule: 'raw ipcMain only in electron/main/ipc.ts',
    file: 'electron/main/window.ts',
    code: "import { ipcMain } from 'electron';\nexport const b = ipcMain;\n",
  },
  {
    rule: 'a test calls channels through the typed invoke, not dispatch',
    file: 'test/core/x.test.ts',
    code: "import { dispatch } from '../../electron/core/ipc-dispatch';\nexport const a = dispatch;\n",
  },
  {
    rule: 'the preload exposes only electron/common',
    file: 'electron/preload/x.ts',
    code: "import { a } from '../core/errors';\nexport const b = a;\n",
  },
];

async function layerMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'local/layers').map((m) => m.message);
}

// ARCHITECTURE.md "Layers inside electron/core": each folder imports only the layers below its own.
const layerCases: { rule: string; file: string; code: string }[] = [
  {
    rule: 'db may not import the worker that writes it',
    file: 'electron/core/db/x.ts',
    code: "import { startWriterWorker } from '../worker/writer';\nexport const a = startWriterWorker;\n",
  },
  {
    rule: 'db does no HTTP',
    file: 'electron/core/db/x.ts',
    code: "import { postGraphQL } from '../net/graphql-post';\nexport const a = postGraphQL;\n",
  },
  {
    rule: 'db builds no CSV (export is above db)',
    file: 'electron/core/db/x.ts',
    code: "import { purchaseHistoryCsv } from '../export/csv';\nexport const a = purchaseHistoryCsv;\n",
  },
  {
    rule: 'outside db, a table module is reached only through db/index.ts',
    file: 'electron/core/sync/x.ts',
    code: "import { pendingEntries } from '../db/outbox';\nexport const a = pendingEntries;\n",
  },
  {
    rule: 'outside db, a nested db folder is db inside too',
    file: 'electron/core/worker/x.ts',
    code: "import { indexShortTerms } from '../db/search/index';\nexport const a = indexShortTerms;\n",
  },
  {
    rule: 'a type-only import goes through db/index.ts too',
    file: 'electron/core/export/x.ts',
    code: "import type { OutboxEntry } from '../db/outbox';\nexport type A = OutboxEntry;\n",
  },
  {
    rule: 'fs is below the vault',
    file: 'electron/core/fs/x.ts',
    code: "import { createVault } from '../vault/vault';\nexport const a = createVault;\n",
  },
  {
    rule: 'the vault is below auth',
    file: 'electron/core/vault/x.ts',
    code: "import type { TokenSet } from '../auth/token-client';\nexport type A = TokenSet;\n",
  },
  {
    rule: 'sync and sites are neighbours, not dependants',
    file: 'electron/core/sync/x.ts',
    code: "import { a } from '../sites/site-manager';\nexport const b = a;\n",
  },
  {
    rule: 'a nested folder is checked as its top folder',
    file: 'electron/core/sync/graphql/x.ts',
    code: "import { a } from '../../desktop/notifier';\nexport const b = a;\n",
  },
  {
    rule: 'nothing below the composition root imports it',
    file: 'electron/core/desktop/x.ts',
    code: "import { createAppCore } from '../app-core';\nexport const a = createAppCore;\n",
  },
  {
    rule: 'errors and log import no folder',
    file: 'electron/core/log.ts',
    code: "import { a } from './fs/atomic-file';\nexport const b = a;\n",
  },
  {
    rule: 'a new folder must be given a layer',
    file: 'electron/core/newthing/x.ts',
    code: "import { a } from '../errors';\nexport const b = a;\n",
  },
  {
    rule: 'renderer features never import the shell (app/)',
    file: 'renderer/src/features/x/X.tsx',
    code: "import { Shell } from '../../app/Shell';\nexport const b = Shell;\n",
  },
  {
    rule: "a renderer feature never imports another feature's internals",
    file: 'renderer/src/features/today/X.tsx',
    code: "import { nextStepLine } from '../course/NextStep';\nexport const b = nextStepLine;\n",
  },
  {
    rule: 'the shell enters a feature through its index.ts too',
    file: 'renderer/src/app/X.tsx',
    code: "import { StatusBar } from '../features/sync/StatusBar';\nexport const b = StatusBar;\n",
  },
  {
    rule: 'renderer shared state never imports a feature',
    file: 'renderer/src/state/x.ts',
    code: "import { a } from '../features/sites/validate';\nexport const b = a;\n",
  },
];

describe('layers (ARCHITECTURE.md "Layers inside electron/core", the renderer\'s app/ over features/)', () => {
  for (const c of layerCases) {
    it(`fires: ${c.rule}`, async () => {
      expect((await layerMessages(c.file, c.code)).length).toBeGreaterThan(0);
    });
  }

  it('allows imports down the layers', async () => {
    expect(
      await layerMessages(
        'electron/core/worker/x.ts',
        "import { a } from '../db/index';\nimport { b } from '../net/graphql-post';\nimport { c } from '../export/csv';\nexport const d = [a, b, c];\n",
      ),
    ).toEqual([]);
    expect(
      await layerMessages(
        'electron/core/sync/x.ts',
        "import { a } from '../worker/writer';\nimport { b } from '../auth/token-manager';\nexport const c = [a, b];\n",
      ),
    ).toEqual([]);
    expect(
      await layerMessages(
        'electron/core/worker/x.ts',
        "import { a } from '../db/index';\nimport type { B } from '../db';\nexport const c: B = a;\n",
      ),
    ).toEqual([]);
    expect(
      await layerMessages(
        'electron/core/db/search/x.ts',
        "import { a } from '../outbox';\nimport { b } from './grams';\nexport const c = [a, b];\n",
      ),
    ).toEqual([]);
    expect(
      await layerMessages(
        'electron/core/vault/x.ts',
        "import { a } from '../fs/atomic-file';\nimport { b } from '../errors';\nexport const c = [a, b];\n",
      ),
    ).toEqual([]);
    expect(
      await layerMessages(
        'electron/core/app-core.ts',
        "import { a } from './sites/site-manager';\nexport const b = a;\n",
      ),
    ).toEqual([]);
    expect(
      await layerMessages(
        'renderer/src/features/today/X.tsx',
        "import { a } from '../course/index';\nimport { b } from './today-part';\nimport { c } from '../../state/sync-status';\nexport const d = [a, b, c];\n",
      ),
    ).toEqual([]);
    expect(
      await layerMessages(
        'renderer/src/features/course/x/Y.tsx',
        "import { a } from '../NextStep';\nexport const b = a;\n",
      ),
    ).toEqual([]);
    expect(
      await layerMessages(
        'renderer/src/app/x.tsx',
        "import { a } from '../features/sites/index';\nimport { b } from '../state/context';\nexport const c = [a, b];\n",
      ),
    ).toEqual([]);
  });
});

describe('import boundaries (ARCHITECTURE.md "Import rules")', () => {
  for (const c of cases) {
    it(`fires: ${c.rule}`, async () => {
      const messages = await restrictedImportMessages(c.file, c.code);
      expect(messages.length).toBeGreaterThan(0);
    });
  }

  it('allows what the architecture allows', async () => {
    expect(
      await restrictedImportMessages(
        'renderer/src/x.ts',
        "import type { AppInfo } from '../../electron/common/view-models';\nexport type A = AppInfo;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImportMessages(
        'test/core/ipc-dispatch.test.ts',
        "import { dispatch } from '../../electron/core/ipc-dispatch';\nexport const a = dispatch;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImportMessages(
        'electron/main/ipc.ts',
        "import { ipcMain } from 'electron';\nexport const b = ipcMain;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImportMessages(
        'electron/core/app-core.ts',
        "import { createEmbeddedServer } from '../../embedded-server/index';\nexport const c = createEmbeddedServer;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImportMessages(
        'electron/core/sync/x.ts',
        "import type { Result } from '../../common/result';\nexport type R = Result<number>;\n",
      ),
    ).toEqual([]);
  });
});
