/** The search feature's one public entry: what the shell and the other features may use of it. */
export { hitRoute, hitTitle } from './hits';
export { SearchBox } from './SearchBox';
export { SearchScreen } from './SearchScreen';
