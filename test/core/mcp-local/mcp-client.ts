/**
 * The SDK's own client over stdio against the real entry point (`npm run mcp`'s cli.ts under tsx),
 * as an assistant's client starts it: a child process, JSON-RPC on its stdin and stdout.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(
  new URL('../../../electron/core/mcp-local/cli.ts', import.meta.url),
);

export interface McpSession {
  readonly client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Errors the client's transport met (a line on stdout that is not JSON-RPC is one). */
  readonly transportErrors: Error[];
  close(): Promise<void>;
}

export async function connectMcp(
  dataDir: string,
  options: { readonly name?: string; readonly env?: Record<string, string> } = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', CLI, '--data-dir', dataDir],
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...options.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const transportErrors: Error[] = [];
  const client = new Client(
    { name: options.name ?? 'vitest-client', version: '1.0.0' },
    { capabilities: {} },
  );
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    transportErrors,
    close: () => client.close(),
  };
}

/**
 * The entry point without the SDK: the messages written to stdin one per line, every stdout line
 * read until one answer per request has come (or 20 s). What comes back is every line stdout
 * carried.
 */
export async function rawExchange(dataDir: string, messages: readonly object[]): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--data-dir', dataDir], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const expected = messages.filter((m) => 'id' in m).length;
  const lines: string[] = [];
  let buffer = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`stdout: ${lines.join('\n')}`)), 20_000);
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        const parts = buffer.split('\n');
        buffer = parts.pop()!;
        lines.push(...parts.filter((p) => p !== ''));
        if (lines.length >= expected) {
          clearTimeout(timer);
          resolve();
        }
      });
      for (const m of messages) child.stdin.write(`${JSON.stringify(m)}\n`);
    });
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
  }
  return lines;
}
