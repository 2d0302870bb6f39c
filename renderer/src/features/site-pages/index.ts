/**
 * The site-pages feature's one public entry: what the shell and the other features may use of it.
 */
export { OpenOnSite } from './OpenOnSite';
