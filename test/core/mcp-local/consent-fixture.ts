import { ConsentStore, type ConsentPatch } from '../../../electron/core/mcp-local/consent-store';

/** Sets the consent as the settings screen would: through the app's own store. */
export async function allow(
  dataDir: string,
  siteIds: readonly string[],
  ...patches: ConsentPatch[]
): Promise<void> {
  const store = new ConsentStore({ dataDir, siteIds: () => siteIds });
  await store.update({ cloudAcknowledged: true });
  await store.update({ enabled: true });
  for (const patch of patches) await store.update(patch);
}
