import { ipcContract, isChannel, type IpcHandlers } from '../common/ipc-contract';
import { err, type Result } from '../common/result';
import { isCoreError } from './errors';
import { scrubKnownSecrets } from './log';

/**
 * The one entry point both hosts (Electron's ipcMain and the browser host's loopback HTTP) use to
 * run a channel: the channel name and the input come from an untrusted renderer, so both are
 * checked against the contract before a handler sees them, and whatever a handler throws becomes a
 * Result instead of crossing the boundary as an exception (Signal ts/sql/channels.ts).
 */
export async function dispatch(
  handlers: IpcHandlers,
  channel: unknown,
  input: unknown,
  onUnexpected: (channel: string, error: unknown) => void = () => {},
): Promise<Result<unknown>> {
  if (!isChannel(channel)) return err('invalid-input', 'Unknown request.');
  const parsed = ipcContract[channel].input.safeParse(input);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first?.path.length ? ` (${first.path.join('.')})` : '';
    return err(
      'invalid-input',
      `The request was not valid${where}: ${first?.message ?? 'bad input'}.`,
    );
  }
  try {
    const handler = handlers[channel] as (value: unknown) => Promise<Result<unknown>>;
    // The last line of defence of "secrets never reach the renderer": text that came from a site
    // (an error message, a refused change's reason) may quote a token the app holds; those values
    // are masked here.
    return scrubKnownSecrets(await handler(parsed.data));
  } catch (error) {
    if (isCoreError(error)) return scrubKnownSecrets({ ok: false, error: error.toAppError() });
    onUnexpected(channel, error);
    return err(
      'internal',
      'Something went wrong inside the app. Please try again; if it keeps happening, restart the app.',
    );
  }
}
