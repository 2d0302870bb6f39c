import { ipcMain, type WebContents } from 'electron';
import { CHANNELS } from '../common/ipc-contract';
import type { AppCore } from '../core/app-core';
import { dispatch } from '../core/ipc-dispatch';

/**
 * The only file that touches ipcMain. Every channel of the contract is registered here, and each
 * message's sender is checked against the windows we created (GitHub Desktop
 * trusted-ipc-sender.ts): a frame we did not load (an iframe, a navigated-away page) gets no
 * answer.
 */
export function registerIpcHandlers(
  core: AppCore,
  isTrustedSender: (sender: WebContents, frameUrl: string | undefined) => boolean,
  log: (line: string) => void,
): () => void {
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, async (event, input: unknown) => {
      if (!isTrustedSender(event.sender, event.senderFrame?.url)) {
        log(`ipc: refused ${channel} from an untrusted sender`);
        return { ok: false, error: { code: 'forbidden', message: 'Request refused.' } };
      }
      return dispatch(core.handlers, channel, input, (c, e) =>
        log(`ipc: ${c} failed unexpectedly: ${e instanceof Error ? e.name : 'error'}`),
      );
    });
  }
  return () => {
    for (const channel of CHANNELS) ipcMain.removeHandler(channel);
  };
}
