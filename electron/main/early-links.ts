import { app } from 'electron';

/**
 * macOS hands the app the invite link it was opened with through 'open-url' once it has finished
 * launching (Electron docs, app 'open-url' and 'will-finish-launching'). The main bundle is ESM,
 * whose modules load asynchronously:
 * that event can come while the rest of the app is still being read. index.ts calls holdInviteLinks
 * first, with nothing but `electron` imported, and the host takes the held links when it is ready
 * for them.
 */
const held: string[] = [];
let deliver: ((link: string) => void) | null = null;
let holding = false;

export function holdInviteLinks(): void {
  if (holding) return;
  holding = true;
  app.on('open-url', (event, url) => {
    event.preventDefault();
    if (deliver) deliver(url);
    else held.push(url);
  });
}

/** From now on `open` gets each link from 'open-url', starting with those that came before. */
export function takeInviteLinks(open: (link: string) => void): void {
  holdInviteLinks();
  deliver = open;
  for (const link of held.splice(0)) open(link);
}
