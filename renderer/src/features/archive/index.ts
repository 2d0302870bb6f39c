/** The archive feature's one public entry: what the shell and the other features may use of it. */
export { ArchiveButton } from './ArchiveButton';
