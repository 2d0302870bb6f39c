import type { SyncPhase } from '../../../../electron/common/view-models';
import { assertNever } from '../../../../electron/common/result';

export function syncPhaseKey(phase: SyncPhase): string {
  switch (phase) {
    case 'idle':
    case 'profile':
    case 'courses':
    case 'digital-products':
    case 'consulting':
    case 'events':
    case 'payments':
    case 'notifications':
    case 'committing':
    case 'outbox':
      return `sync.phase.${phase}`;
    default:
      return assertNever(phase, 'sync phase');
  }
}

const KNOWN_SCOPES = new Set(['openid', 'profile', 'email', 'account:read', 'account:write']);

/** The i18n key explaining what a missing scope takes away. */
export function missingScopeKey(scope: string): string {
  return KNOWN_SCOPES.has(scope) ? `sync.scope.${scope.replace(':', '_')}` : 'sync.scope.other';
}
