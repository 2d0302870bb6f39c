import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Each import boundary of ARCHITECTURE.md ("Import rules (enforced by lint, not by memory)") must fire.
// Sources are linted as if they lived at the given path, so the real config decides.
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImportMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const cases: { rule: string; file: string; code: string }[] = [
  { rule: 'electron/core never imports electron', file: 'electron/core/sync/x.ts', code: "import { app } from 'electron';\nexport const a = app;\n" },
  { rule: 'electron/core never imports the hosts', file: 'electron/core/auth/x.ts', code: "import { a } from '../../main/window';\nexport const b = a;\n" },
  { rule: 'electron/core reaches the embedded server only from the demo branch', file: 'electron/core/sync/x.ts', code: "import { createEmbeddedServer } from '../../../embedded-server';\nexport const c = createEmbeddedServer;\n" },
  { rule: 'the renderer never imports electron/core', file: 'renderer/src/x.ts', code: "import { a } from '../../electron/core/db/open';\nexport const b = a;\n" },
  { rule: 'the renderer never imports electron', file: 'renderer/src/x.ts', code: "import { ipcRenderer } from 'electron';\nexport const b = ipcRenderer;\n" },
  { rule: 'the renderer has no Node built-ins', file: 'renderer/src/x.ts', code: "import { readFileSync } from 'node:fs';\nexport const b = readFileSync;\n" },
  { rule: 'the renderer never imports the embedded server', file: 'renderer/src/x.ts', code: "import { x } from '../../embedded-server/index';\nexport const b = x;\n" },
  { rule: 'electron/common imports no Node built-ins', file: 'electron/common/x.ts', code: "import { join } from 'node:path';\nexport const b = join;\n" },
  { rule: 'electron/common imports nothing from the other folders', file: 'electron/common/x.ts', code: "import { a } from '../core/errors';\nexport const b = a;\n" },
  { rule: 'electron/common never imports electron', file: 'electron/common/x.ts', code: "import { app } from 'electron';\nexport const b = app;\n" },
  { rule: 'embedded-server never imports the app', file: 'embedded-server/x.ts', code: "import { a } from '../electron/common/result';\nexport const b = a;\n" },
  { rule: 'raw ipcMain only in electron/main/ipc.ts', file: 'electron/main/window.ts', code: "import { ipcMain } from 'electron';\nexport const b = ipcMain;\n" },
  { rule: 'the preload exposes only electron/common', file: 'electron/preload/x.ts', code: "import { a } from '../core/errors';\nexport const b = a;\n" },
];

describe('import boundaries (ARCHITECTURE.md "Import rules")', () => {
  for (const c of cases) {
    it(`fires: ${c.rule}`, async () => {
      const messages = await restrictedImportMessages(c.file, c.code);
      expect(messages.length).toBeGreaterThan(0);
    });
  }

  it('allows what the architecture allows', async () => {
    expect(await restrictedImportMessages('renderer/src/x.ts', "import type { AppInfo } from '../../electron/common/view-models';\nexport type A = AppInfo;\n")).toEqual([]);
    expect(await restrictedImportMessages('electron/main/ipc.ts', "import { ipcMain } from 'electron';\nexport const b = ipcMain;\n")).toEqual([]);
    expect(await restrictedImportMessages('electron/core/app-core.ts', "import { createEmbeddedServer } from '../../embedded-server/index';\nexport const c = createEmbeddedServer;\n")).toEqual([]);
    expect(await restrictedImportMessages('electron/core/sync/x.ts', "import type { Result } from '../../common/result';\nexport type R = Result<number>;\n")).toEqual([]);
  });
});
