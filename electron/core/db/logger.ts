/**
 * The little the store and the sync need from a logger. Callers pass the app's redacting logger.
 */
export interface Logger {
  info(message: string, detail?: Readonly<Record<string, unknown>>): void;
  warn(message: string, detail?: Readonly<Record<string, unknown>>): void;
  error(message: string, detail?: Readonly<Record<string, unknown>>): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
