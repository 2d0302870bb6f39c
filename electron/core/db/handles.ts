import type { Database } from 'better-sqlite3';

/**
 * The two connections of the offline database, told apart by type (Signal Desktop's
 * ReadableDB/WritableDB). The brands exist only for the compiler: a view can't be handed the
 * writer's handle, nor a write the read-only one. Functions private to db/ take the plain
 * `Database`, which either handle is.
 */
declare const reads: unique symbol;
declare const writes: unique symbol;

/**
 * The main process's read-only connection (openReadConnection): every view the screens ask for
 * reads here.
 */
export type ReadableDB = Database & { readonly [reads]: true };

/** The writer's one connection (openOfflineDatabase, in the worker): every write runs here. */
export type WritableDB = Database & { readonly [writes]: true };

/** A read either connection may run: the worker reads too (the purchase CSV, a cache it drops). */
export type AnyDB = ReadableDB | WritableDB;

/**
 * One connection that writes and reads: a test's or a tool's database with no worker beside it (the
 * in-process writer). The app never holds one: its reads are on their own read-only connection.
 */
export type ReadWriteDB = ReadableDB & WritableDB;
