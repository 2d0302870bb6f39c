import type {
  Channel,
  ChannelInput,
  ChannelOutput,
  EventName,
  IpcEvents,
  LearningDesktopApi,
} from '../../electron/common/ipc-contract';
import { API_GLOBAL } from '../../electron/common/ipc-names';
import type { AppError } from '../../electron/common/result';

/**
 * The one way the renderer reaches the app: the object the preload (or the browser host bridge)
 * defines.
 */
export function getApi(): LearningDesktopApi {
  const api = (window as unknown as Record<string, LearningDesktopApi | undefined>)[API_GLOBAL];
  if (!api) throw new Error('The app bridge is missing: open this page through Learning Desktop.');
  return api;
}

/**
 * A failed channel call, thrown so react-query can keep it as the query's error. Carries the
 * AppError as is.
 */
export class ChannelError extends Error {
  readonly appError: AppError;
  constructor(appError: AppError) {
    super(appError.message);
    this.name = 'ChannelError';
    this.appError = appError;
  }
}

/** Turns anything thrown into an AppError the error views can explain. */
export function toAppError(error: unknown): AppError {
  if (error instanceof ChannelError) return error.appError;
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as AppError).code === 'string' &&
    typeof (error as AppError).message === 'string'
  ) {
    return error as AppError;
  }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

type InputArgs<C extends Channel> = ChannelInput<C> extends undefined ? [] : [ChannelInput<C>];

/**
 * Invokes a channel and unwraps its Result: resolves with the value, rejects with a ChannelError.
 */
export async function call<C extends Channel>(
  channel: C,
  ...input: InputArgs<C>
): Promise<ChannelOutput<C>> {
  const result = await getApi().invoke(channel, ...input);
  if (!result.ok) throw new ChannelError(result.error);
  return result.value;
}

export function onEvent<E extends EventName>(
  event: E,
  listener: (payload: IpcEvents[E]) => void,
): () => void {
  return getApi().on(event, listener);
}
