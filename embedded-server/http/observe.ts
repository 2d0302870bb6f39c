import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * One answer as the client received it (method, path without the query, status, headers, body
 * bytes).
 */
export interface ObservedResponse {
  method: string;
  path: string;
  status: number;
  headers: Readonly<Record<string, string | string[] | number | undefined>>;
  body: Buffer;
}

/**
 * Hands every finished answer to `observe` (tests check each against /openapi.json). The body is
 * copied as it is written; only servers started with the option pay for it.
 */
export function observeResponse(
  req: IncomingMessage,
  res: ServerResponse,
  observe: (r: ObservedResponse) => void,
): void {
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding?: unknown): void => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(
            chunk as string,
            typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
          ),
    );
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return write(...args);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return end(...args);
  }) as ServerResponse['end'];
  res.on('finish', () =>
    observe({
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0]!,
      status: res.statusCode,
      headers: res.getHeaders(),
      body: Buffer.concat(chunks),
    }),
  );
}
