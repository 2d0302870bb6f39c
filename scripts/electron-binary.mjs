import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Path of the Electron binary when it is installed, else null (the package resolves to a path
 * string).
 */
export function electronBinary() {
  try {
    const path = createRequire(import.meta.url)('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}
