/**
 * The server on stdin/stdout (MCP "Transports", stdio): only protocol messages on stdout; what the
 * server has to say goes to stderr. Ends when stdin closes (the client went away) or on
 * SIGTERM/SIGINT.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LocalMcpServer, type LocalMcpServerDeps } from './server';

export async function runStdioServer(
  deps: Omit<LocalMcpServerDeps, 'log'> & { readonly log?: LocalMcpServerDeps['log'] },
): Promise<void> {
  const log = deps.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const server = new LocalMcpServer({ ...deps, log });
  const transport = new StdioServerTransport();
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    void server.close().finally(() => process.exit(0));
  };
  transport.onclose = stop;
  process.stdin.on('end', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await server.connect(transport);
  log(`learning-desktop mcp: serving ${deps.dataDir} over stdio`);
}
