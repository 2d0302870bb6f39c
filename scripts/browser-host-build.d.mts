// Types for the plain .mjs build script, so the tests and benches that drive it are type-checked.
export declare const BROWSER_HOST_DIR: string;
export declare const BROWSER_HOST_ENTRY: string;
export declare function browserHostIsFresh(): boolean;
export declare function buildBrowserHost(): Promise<unknown>;
export declare function ensureBrowserHost(): Promise<string>;
