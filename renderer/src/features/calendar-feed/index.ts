/** The calendar feed's one public entry: what the shell and the other features may use of it. */
export { FeedSettings } from './FeedSettings';
