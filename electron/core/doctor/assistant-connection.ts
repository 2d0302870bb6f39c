/**
 * The connection check of the student's own AI assistant (Settings > AI assistant > Check): why a
 * client that was connected gets nothing. The feature off or asked again, no offline copy yet, no
 * school allowed, a client file without the entry, unreadable, or naming an app that is not there
 * (the app moved or was reinstalled elsewhere), or another command.
 */
import { existsSync } from 'node:fs';
import type { AssistantCheck, AssistantClientId } from '../../common/assistant';

export interface AssistantConnectionInput {
  readonly enabled: boolean;
  readonly surfaceChanged: boolean;
  /** A sync has completed for some school (the offline copy exists and holds data). */
  readonly synced: boolean;
  readonly schoolsAllowed: number;
  /** How this app starts the server now. */
  readonly launch: { readonly command: string; readonly args: readonly string[] };
  readonly clients: readonly {
    readonly client: AssistantClientId;
    readonly path: string;
    /**
     * The entry found under this app's name, 'unreadable' when the file is not JSON, null when
     * absent.
     */
    readonly entry: unknown;
  }[];
}

export function diagnoseAssistantConnection(
  input: AssistantConnectionInput,
  exists: (path: string) => boolean = existsSync,
): AssistantCheck[] {
  const checks: AssistantCheck[] = [];
  const feature = (status: AssistantCheck['status'], finding: AssistantCheck['finding']) =>
    checks.push({ client: null, status, finding, detail: null });
  if (!input.enabled) feature('problem', 'featureOff');
  else if (input.surfaceChanged) feature('problem', 'surfaceChanged');
  if (!input.synced) feature('problem', 'neverSynced');
  if (input.enabled && input.schoolsAllowed === 0) feature('warning', 'noSchoolAllowed');
  for (const c of input.clients) checks.push(clientCheck(c, input.launch, exists));
  if (checks.every((c) => c.status === 'ok' || c.finding === 'notConnected'))
    checks.unshift({ client: null, status: 'ok', finding: 'ok', detail: null });
  return checks;
}

function clientCheck(
  c: AssistantConnectionInput['clients'][number],
  launch: AssistantConnectionInput['launch'],
  exists: (path: string) => boolean,
): AssistantCheck {
  const at = (
    status: AssistantCheck['status'],
    finding: AssistantCheck['finding'],
    detail: string,
  ) => ({
    client: c.client,
    status,
    finding,
    detail,
  });
  if (c.entry === 'unreadable') return at('problem', 'configUnreadable', c.path);
  if (c.entry === null || typeof c.entry !== 'object') return at('ok', 'notConnected', c.path);
  const entry = c.entry as { command?: unknown; args?: unknown };
  const command = typeof entry.command === 'string' ? entry.command : '';
  if (command === '' || !exists(command)) return at('problem', 'wrongPath', command || c.path);
  const same =
    command === launch.command && JSON.stringify(entry.args ?? []) === JSON.stringify(launch.args);
  return same ? at('ok', 'ok', c.path) : at('warning', 'otherCommand', command);
}
