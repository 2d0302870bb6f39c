/**
 * The AI assistant feature's one public entry: what the shell and the other features may use of it.
 */
export { AssistantRequests } from './AssistantRequests';
export { AssistantSettings } from './AssistantSettings';
