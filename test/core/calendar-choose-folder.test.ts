import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../electron/core/app-core';
import { createTestCore, invoke, valueOf } from '../helpers/test-core';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

async function coreWith(chooseFolder?: (current: string | null) => Promise<string | null>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ld-choose-folder-'));
  const core: AppCore = await createTestCore({
    dataDir,
    ...(chooseFolder ? { chooseFolder } : {}),
  });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  cleanups.push(() => core.close());
  return core;
}

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-chosen-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("the calendar file's folder from the system's dialog", () => {
  it('keeps the file in the folder the dialog gives, and opens the dialog at the one kept', async () => {
    const first = folder();
    const second = folder();
    const asked: (string | null)[] = [];
    const answers = [first, null, second];
    const core = await coreWith(async (current) => {
      asked.push(current);
      return answers.shift() ?? null;
    });
    expect(valueOf(await invoke(core.handlers, 'calendar:feed', undefined)).canChooseFolder).toBe(
      true,
    );
    const chosen = valueOf(await invoke(core.handlers, 'calendar:choose-folder', undefined));
    expect(chosen?.folder).toBe(first);
    ICAL.parse(readFileSync(join(first, 'learning-desktop.ics'), 'utf8'));
    // Cancelled: nothing changes.
    expect(valueOf(await invoke(core.handlers, 'calendar:choose-folder', undefined))).toBeNull();
    expect(valueOf(await invoke(core.handlers, 'calendar:feed', undefined)).folder).toBe(first);
    const moved = valueOf(await invoke(core.handlers, 'calendar:choose-folder', undefined));
    expect(moved?.file).toBe(join(second, 'learning-desktop.ics'));
    expect(existsSync(join(second, 'learning-desktop.ics'))).toBe(true);
    expect(asked).toEqual([null, first, first]);
  });

  it("checks the dialog's answer as a typed folder: a relative or missing one is refused", async () => {
    const answers = ['relative/folder', join(tmpdir(), 'ld-no-such-folder-4f0b7c52')];
    const core = await coreWith(async () => answers.shift() ?? null);
    for (let i = 0; i < 2; i++) {
      const r = await invoke(core.handlers, 'calendar:choose-folder', undefined);
      expect(r.ok).toBe(false);
    }
    expect(valueOf(await invoke(core.handlers, 'calendar:feed', undefined)).folder).toBeNull();
  });

  it('is refused without a dialog (the browser host), where the folder is typed', async () => {
    const core = await coreWith();
    const view = valueOf(await invoke(core.handlers, 'calendar:feed', undefined));
    expect(view.canChooseFolder).toBe(false);
    const r = await invoke(core.handlers, 'calendar:choose-folder', undefined);
    expect(r.ok).toBe(false);
    const typed = folder();
    const kept = valueOf(await invoke(core.handlers, 'calendar:set-feed', { folder: typed }));
    expect(kept.folder).toBe(typed);
  });
});
