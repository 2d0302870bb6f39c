/** The settings feature's one public entry: what the shell and the other features may use of it. */
export { SettingsApplier } from './SettingsApplier';
export { SettingsScreen } from './SettingsScreen';
