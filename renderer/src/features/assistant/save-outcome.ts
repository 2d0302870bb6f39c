import type { SaveOutcome } from '../../../../electron/common/files-and-invites';

/** Electron saved it where the student chose; the browser host hands a same-origin download. */
export async function deliver(outcome: SaveOutcome): Promise<string | null> {
  if (outcome.kind === 'saved') return outcome.fileName;
  if (outcome.kind !== 'download') return null;
  const res = await fetch(outcome.url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`The file could not be read (HTTP ${res.status}).`);
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = outcome.fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return outcome.fileName;
}
