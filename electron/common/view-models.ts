/**
 * Serialisable view models: what the core hands the renderer over the IPC contract. Plain data only
 * (strings, numbers, booleans, arrays, objects, null). Dates are ISO 8601 strings; amounts are
 * numbers in the currency's major unit (TWD has no minor unit) with the ISO 4217 code beside them.
 */

// One module per area in views/; this file gathers them so an importer names one place.

export * from './views/base';
export * from './views/sites';
export * from './views/sync';
export * from './views/courses';
export * from './views/billing';
export * from './views/entitlements';
export * from './views/notifications';
export * from './views/settings';
export * from './views/today';
export * from './views/progress';
export * from './views/notes';
export * from './views/changes';
