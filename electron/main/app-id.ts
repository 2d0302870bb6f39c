/**
 * The app's identity on Windows (AppUserModelID): build/electron-builder.yml's appId, which the
 * NSIS installer gives the Start menu shortcut. Windows ties notifications to it
 * (test/build/packaging.test.ts keeps the two equal).
 */
export const APP_USER_MODEL_ID = 'app.learningdesktop.desktop';
