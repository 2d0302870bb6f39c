import { app, BrowserWindow, dialog, type FileFilter } from 'electron';
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { SaveOutcome } from '../common/files-and-invites';
import type { ExportFile, FileDelivery } from '../core/export/service';

/**
 * Electron's way of giving the student a file: a save dialog, and the file is written only where
 * they chose. A receipt is printed to PDF first (webContents.printToPDF) in a hidden window that
 * runs no script and opens nothing.
 */
export function createSaveDialogDelivery(parent: () => BrowserWindow | null): FileDelivery {
  return async (file: ExportFile): Promise<SaveOutcome> => {
    const data = file.bytes
      ? Buffer.from(file.bytes)
      : file.kind === 'receipt'
        ? await printToPdf(file.body)
        : Buffer.from(file.body, 'utf8');
    const options = {
      defaultPath: join(app.getPath('downloads'), file.fileName),
      filters: filtersFor(file),
    };
    const win = parent();
    const choice = win
      ? await dialog.showSaveDialog(win, options)
      : await dialog.showSaveDialog(options);
    if (choice.canceled || !choice.filePath) return { kind: 'cancelled' };
    await writeFile(choice.filePath, data);
    // The page is told the name only, never the folder.
    return { kind: 'saved', fileName: basename(choice.filePath) };
  };
}

function filtersFor(file: ExportFile): FileFilter[] {
  switch (file.kind) {
    case 'csv':
      return [{ name: 'CSV', extensions: ['csv'] }];
    case 'ics':
      return [{ name: 'iCalendar', extensions: ['ics'] }];
    case 'receipt':
      return [{ name: 'PDF', extensions: ['pdf'] }];
    case 'md':
      return [{ name: 'Markdown', extensions: ['md'] }];
    case 'mcpb':
      return [{ name: 'MCP Bundle', extensions: ['mcpb'] }];
  }
}

async function printToPdf(html: string): Promise<Buffer> {
  const win = new BrowserWindow({
    show: false,
    webPreferences: {
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      javascript: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  // Electron security checklist #13, #14: the receipt window navigates nowhere and opens nothing.
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  try {
    await win.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
    return await win.webContents.printToPDF({ pageSize: 'A4', printBackground: true });
  } finally {
    win.destroy();
  }
}
