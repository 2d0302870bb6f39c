import { dialog, type BrowserWindow } from 'electron';
import type { ChooseFolder } from '../core/handlers/calendar-feed';

/**
 * Electron's folder dialog, for where the calendar file is kept: one folder, which the student may
 * make there (`createDirectory`, macOS; the other systems' dialogs offer it themselves).
 */
export function createFolderDialog(parent: () => BrowserWindow | null): ChooseFolder {
  return async (current) => {
    const options: Electron.OpenDialogOptions = {
      properties: ['openDirectory', 'createDirectory'],
      ...(current === null ? {} : { defaultPath: current }),
    };
    const win = parent();
    const choice = win
      ? await dialog.showOpenDialog(win, options)
      : await dialog.showOpenDialog(options);
    return choice.canceled ? null : (choice.filePaths[0] ?? null);
  };
}
