import { readFileSync } from 'node:fs';
import { FuseV1Options } from '@electron/fuses';
import type { Configuration } from 'app-builder-lib';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { describe, expect, it } from 'vitest';
import { APP_USER_MODEL_ID } from '../../electron/main/app-id';

/**
 * The packaged app's hardening, read the way electron-builder reads it: its own config loader and
 * its own schema check (an unknown or misspelt key fails here, not on a release machine).
 */
const CONFIG = 'build/electron-builder.yml';

async function loadPackagingConfig(): Promise<Configuration> {
  const config = await getConfig(process.cwd(), CONFIG, null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

/**
 * Electron fuses the app ships with (Electron docs "Electron Fuses"; electron-builder
 * `electronFuses`).
 */
const REQUIRED_FUSES = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  enableCookieEncryption: true,
  grantFileProtocolExtraPrivileges: false,
} as const;

describe('packaging config (build/electron-builder.yml)', () => {
  it("passes electron-builder's own schema check", async () => {
    await expect(loadPackagingConfig()).resolves.toMatchObject({
      appId: 'app.learningdesktop.desktop',
    });
  });

  it.each(Object.entries(REQUIRED_FUSES))('sets the fuse %s to %s', async (fuse, value) => {
    const { electronFuses } = await loadPackagingConfig();
    expect(electronFuses, 'electronFuses is missing').toBeTruthy();
    // Strictly the boolean: electron-builder skips a fuse whose value is null or undefined, leaving
    // Electron's default.
    expect((electronFuses as Record<string, unknown>)[fuse]).toBe(value);
    // A fuse that the @electron/fuses shipped with electron-builder does not know would silently do
    // nothing.
    expect(Object.keys(FuseV1Options)).toContain(fuse[0]!.toUpperCase() + fuse.slice(1));
  });

  it('packs the app into an asar (the integrity and only-from-asar fuses need one) and keeps only the native addon out', async () => {
    const config = await loadPackagingConfig();
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(['**/node_modules/better-sqlite3/**', '**/*.node']);
  });

  it('signs macOS builds with the hardened runtime and the trimmed entitlements, for the app and its helpers', async () => {
    const { mac } = await loadPackagingConfig();
    expect(mac?.hardenedRuntime).toBe(true);
    expect(mac?.entitlements).toBe('build/entitlements.mac.plist');
    expect(mac?.entitlementsInherit).toBe('build/entitlements.mac.plist');
  });

  it("asks the hardened runtime for no exception but V8's JIT", () => {
    const plist = readFileSync('build/entitlements.mac.plist', 'utf8').replace(
      /<!--[\s\S]*?-->/g,
      '',
    );
    const granted = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((m) => m[1]);
    expect(granted).toEqual(['com.apple.security.cs.allow-jit']);
    expect(plist).not.toMatch(/<false\/>|<string>/);
  });

  it('signs every macOS build: ad hoc after the fuses are flipped (or Apple silicon refuses to launch it), notarized for a release', async () => {
    const { electronFuses, mac } = await loadPackagingConfig();
    expect(
      (electronFuses as { resetAdHocDarwinSignature?: boolean }).resetAdHocDarwinSignature,
    ).toBe(true);
    expect(mac?.notarize).toBe(true);
    // No identity pinned: a release finds its Developer ID from CSC_LINK, and nothing turns signing
    // off.
    expect(mac?.identity).toBeUndefined();
  });

  it('builds macOS for Intel and Apple silicon, with the zip the updater needs', async () => {
    const { mac } = await loadPackagingConfig();
    expect(mac?.target).toEqual([
      { target: 'dmg', arch: ['x64', 'arm64'] },
      { target: 'zip', arch: ['x64', 'arm64'] },
    ]);
  });

  it('makes the deb for Linux (no AppImage), whose .desktop file is the one the invite scheme is registered for', async () => {
    const { linux } = await loadPackagingConfig();
    expect(linux?.target).toEqual(['deb']);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      desktopName?: string;
      homepage?: string;
    };
    // Electron registers learning-desktop: with xdg for package.json's desktopName; the deb names
    // its file after executableName.
    expect(pkg.desktopName).toBe(`${linux?.executableName}.desktop`);
    // No invented domain in the deb's Homepage: electron-builder takes the repository's own page
    // from the origin.
    expect(pkg.homepage).toBeUndefined();
  });

  it('publishes to GitHub Releases as a draft the release job makes public, so every package carries its feed', async () => {
    const { publish } = await loadPackagingConfig();
    expect(publish).toEqual({ provider: 'github', releaseType: 'draft' });
  });

  it('gives the deb what Chromium needs besides electron-builder’s defaults (sound, the GPU process)', async () => {
    const { deb } = await loadPackagingConfig();
    expect(deb?.depends).toEqual(
      expect.arrayContaining(['libasound2 | libasound2t64', 'libgbm1', 'libnss3', 'libsecret-1-0']),
    );
  });

  it('registers the invite scheme from the Windows installer and removes it on uninstall, but not on an update', async () => {
    const { nsis } = await loadPackagingConfig();
    expect(nsis?.include).toBe('build/installer.nsh');
    const script = readFileSync('build/installer.nsh', 'utf8').replace(/^\s*;.*$/gm, '');
    expect(script).toMatch(
      /!macro customInstall[\s\S]*WriteRegStr SHCTX "Software\\Classes\\learning-desktop" "URL Protocol" ""[\s\S]*!macroend/,
    );
    expect(script).toContain('"$INSTDIR\\${APP_EXECUTABLE_FILENAME}" "%1"');
    expect(script).toMatch(
      /!macro customUnInstall\s+\$\{ifNot\} \$\{isUpdated\}\s+DeleteRegKey SHCTX "Software\\Classes\\learning-desktop"/,
    );
  });

  it('gives Windows the appId as the AppUserModelID, the one the installer puts on the Start menu shortcut', async () => {
    expect(APP_USER_MODEL_ID).toBe((await loadPackagingConfig()).appId);
  });
});
