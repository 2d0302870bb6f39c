/**
 * Sync: typed member API documents, the sync service with its outbox (the composition root,
 * app-core.ts, schedules it).
 */
export {
  createSyncService,
  SyncEngine,
  type SyncService,
  type SyncServiceDeps,
  type SyncServiceOptions,
} from './service';
export type { ReplayReport } from './outbox-replay';
export type { ClientFor, SiteClient, Sleep, RetryPolicy } from './transport-contract';
