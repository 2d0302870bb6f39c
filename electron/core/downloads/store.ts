/**
 * What is saved and what is under way, in one JSON file beside the files
 * (`downloads/downloads.json`), like the other small stores of the data folder (sites.json,
 * notified.json): replaced atomically on every change, one write at a time. A file on disk counts
 * as saved only if this record names it with its size; anything else in the folder is a leftover of
 * an interrupted run and is removed at start (clean.ts).
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-file';
import type { AppError } from '../../common/result';

const appError = z.object({ code: z.string(), message: z.string() }).passthrough();

const savedSchema = z.object({
  /** Folder of this version under the product's folder (a new version goes beside the old one). */
  version: z.string().regex(/^[0-9a-f]{16}$/),
  name: z.string().min(1).max(200),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  url: z.string(),
  etag: z.string().nullable(),
  lastModified: z.string().nullable(),
  savedAt: z.string(),
  viewAs: z.enum(['pdf', 'image', 'audio', 'video']).nullable(),
});

const jobSchema = z.object({
  /**
   * 'queued' also stands for a transfer that was running when the app stopped: it resumes at start.
   */
  state: z.enum(['queued', 'paused', 'failed', 'needs-confirmation']),
  url: z.string(),
  /** The partial file's name in downloads/.partial. */
  part: z.string().regex(/^[0-9a-f]{16}\.part$/),
  /**
   * Bytes of the partial file known to be durable (fdatasync), and the validator they
   * were fetched under.
   */
  bytes: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
  etag: z.string().nullable(),
  lastModified: z.string().nullable(),
  confirmedLarge: z.boolean(),
  isUpdate: z.boolean(),
  error: appError.nullable(),
});

const productSchema = z.object({
  siteId: z.string().min(1),
  productId: z.string().min(1),
  title: z.string(),
  saved: savedSchema.nullable(),
  job: jobSchema.nullable(),
  /**
   * The address the site named at the last sync differs from the saved copy's, or
   * its validator changed.
   */
  updateAvailable: z.boolean(),
});

const manifestSchema = z.object({
  version: z.literal(1),
  products: z.array(productSchema),
  /** Per site: "keep every product of this school offline". */
  keepAll: z.record(z.string(), z.boolean()),
});

export type SavedRecord = z.infer<typeof savedSchema>;
export type JobRecord = Omit<z.infer<typeof jobSchema>, 'error'> & {
  error: AppError | null;
};
export type ProductRecord = Omit<z.infer<typeof productSchema>, 'job'> & {
  job: JobRecord | null;
};
export interface Manifest {
  version: 1;
  products: ProductRecord[];
  keepAll: Record<string, boolean>;
}

export const EMPTY_MANIFEST: Manifest = {
  version: 1,
  products: [],
  keepAll: {},
};

/**
 * Reads the manifest; a missing one is empty, an unreadable one is empty too (its files
 * are then leftovers).
 */
export async function loadManifest(
  file: string,
): Promise<{ manifest: Manifest; damaged: boolean }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { manifest: structuredClone(EMPTY_MANIFEST), damaged: false };
  }
  try {
    const parsed = manifestSchema.parse(JSON.parse(text));
    return { manifest: parsed as Manifest, damaged: false };
  } catch {
    return { manifest: structuredClone(EMPTY_MANIFEST), damaged: true };
  }
}

export async function saveManifest(file: string, manifest: Manifest): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(manifest));
}
