/** The desktop feature's one public entry: what the shell and the other features may use of it. */
export { AppCommands } from './AppCommands';
export { BackgroundSettings } from './BackgroundSettings';
export { NotificationSettings } from './NotificationSettings';
export { ShortcutsSettings } from './ShortcutsList';
export { UpdatesSettings } from './UpdatesSettings';
