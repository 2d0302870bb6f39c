/** The sync feature's one public entry: what the shell and the other features may use of it. */
export { SiteBanners } from './SiteBanners';
export { StatusBar } from './StatusBar';
export { StatusWords } from './StatusWords';
