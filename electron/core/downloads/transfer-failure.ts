import { CoreError, isCoreError } from '../errors';
import { NeedsConfirmation, TransientError } from './transfer';
import type { WireFailure } from './transfer-protocol';

/** A failure of either thread as plain data (transfer-protocol.ts). */
export function toWireFailure(error: unknown, aborted = false): WireFailure {
  if (aborted) return { kind: 'stopped' };
  if (error instanceof NeedsConfirmation) return { kind: 'confirm', size: error.size };
  if (error instanceof TransientError) {
    const reason = (error.detail as { reason?: unknown } | undefined)?.reason;
    return {
      kind: 'transient',
      message: error.message,
      restart: error.restart,
      reason:
        reason === 'cut' || reason === 'checksum' || reason === 'server-busy' ? reason : 'network',
    };
  }
  if (isCoreError(error)) return { kind: 'core', error: error.toAppError() };
  return {
    kind: 'core',
    error: { code: 'internal', message: 'The download failed unexpectedly.' },
  };
}

/**
 * The same failure, as the error the thread that sees it would have thrown. `stopped` is the
 * caller's own reason.
 */
export function fromWireFailure(failure: WireFailure, stopped: () => unknown): unknown {
  switch (failure.kind) {
    case 'stopped':
      return stopped();
    case 'confirm':
      return new NeedsConfirmation(failure.size);
    case 'transient':
      return new TransientError(failure.message, failure.restart, undefined, failure.reason);
    case 'core':
      return new CoreError(failure.error.code, failure.error.message, failure.error.detail);
  }
}
