import { describe, expect, it } from 'vitest';
import { allowPermission } from '../../../electron/core/desktop/permissions';

/** The window's permission handlers (Electron security checklist #5), decided in plain Node. */
describe('window permissions', () => {
  it('grants the video player’s full screen and the copy buttons’ clipboard write to the app’s own page', () => {
    for (const from of [
      'app://learning-desktop/index.html',
      'app://learning-desktop',
      'app://learning-desktop/',
    ]) {
      expect(allowPermission('fullscreen', from), from).toBe(true);
      expect(allowPermission('clipboard-sanitized-write', from), from).toBe(true);
    }
  });

  it('refuses them to any other origin, and refuses everything else to everyone', () => {
    for (const from of [
      'https://school.example/',
      'app://elsewhere/index.html',
      'file:///index.html',
      'null',
      '',
      undefined,
    ]) {
      expect(allowPermission('fullscreen', from), String(from)).toBe(false);
      expect(allowPermission('clipboard-sanitized-write', from), String(from)).toBe(false);
    }
    for (const permission of [
      'clipboard-read',
      'media',
      'notifications',
      'geolocation',
      'openExternal',
      'pointerLock',
      'unknown',
    ]) {
      expect(allowPermission(permission, 'app://learning-desktop/index.html'), permission).toBe(
        false,
      );
    }
  });
});
