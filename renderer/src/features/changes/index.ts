/** The change record's one public entry: what the shell and the other features may use of it. */
export { SinceLastLooked } from './SinceLastLooked';
