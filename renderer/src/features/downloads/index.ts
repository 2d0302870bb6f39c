/**
 * The downloads feature's one public entry: what the shell and the other features may use of it.
 */
export { ProductOffline } from './ProductOffline';
export { StorageSettings } from './StorageSettings';
