import { LEARNING_TOOLS } from './tools-learning';
import { listUpcoming } from './tools-dates';
import { RECORD_TOOLS } from './tools-records';
import { askToMarkRead } from './tools-write';
import type { LocalTool } from './tool-types';

/** Every tool the server can offer; the consent decides which are offered to a client. */
export const LOCAL_TOOLS: readonly LocalTool[] = [
  ...LEARNING_TOOLS,
  listUpcoming,
  ...RECORD_TOOLS,
  askToMarkRead,
];
