/**
 * The calendar subscription: the feed's events (export/feed.ts) kept as an .ics file in a folder
 * the student picks, rewritten after every sync, and served while the app runs at
 * `http://127.0.0.1:<port>/<token>/learning-desktop.ics` (the webcal:// address desktop calendars
 * subscribe to). Who may read it: the path carries a 256-bit token (an unknown path is 404); the
 * server listens on loopback only and answers only a Host of 127.0.0.1:<port> or localhost:<port>
 * (else 421, RFC 9110 §15.5.20), so a web page cannot read it by DNS rebinding. Every event keeps
 * its UID; its SEQUENCE grows when it changes (RFC 5545 §3.8.7.4), remembered in
 * `calendar-feed.json`, so a subscriber replaces its copy.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { CalendarFeedView } from '../../common/plan-contract';
import { writeFileAtomic } from '../fs/atomic-file';
import { serializeCalendar, type CalendarEvent } from '../export/ics';

export const FEED_FILE = 'learning-desktop.ics';
/** Revisions remembered at most (of events gone too, so one that comes back keeps counting up). */
const REVISIONS_KEPT = 5000;

interface Revision {
  readonly hash: string;
  readonly sequence: number;
  readonly modified: string;
}

export interface FeedSettings {
  readonly folder: string | null;
  readonly token: string;
  readonly port: number;
  readonly studyBlocks: boolean;
}

export interface CalendarFeedDeps {
  readonly dataDir: string;
  readonly now: () => number;
  readonly timeZone: () => string;
  readonly name: () => string;
  /** The feed's events now (read from the saved copy). */
  readonly events: (studyBlocks: boolean) => readonly CalendarEvent[];
  readonly settings: () => Promise<FeedSettings>;
  readonly saveSettings: (patch: Partial<FeedSettings>) => Promise<FeedSettings>;
  readonly log: (line: string, error?: unknown) => void;
  /** The host shows the system's folder dialog (the app); absent in the browser host. */
  readonly canChooseFolder: boolean;
}

const hashOf = (e: CalendarEvent) =>
  createHash('sha256')
    .update(JSON.stringify({ ...e, start: e.start.getTime(), end: e.end?.getTime() ?? null }))
    .digest('base64url');

export class CalendarFeed {
  #deps: CalendarFeedDeps;
  #revisions = new Map<string, Revision>();
  #server: Server | null = null;
  #port: number | null = null;
  #token = '';
  #writtenAt: string | null = null;
  #lastError: string | null = null;
  #items = 0;
  /** Whether the build under way changed a revision (calendar-feed.json is then written). */
  #changed = false;

  constructor(deps: CalendarFeedDeps) {
    this.#deps = deps;
  }

  get #stateFile(): string {
    return join(this.#deps.dataDir, 'calendar-feed.json');
  }

  /**
   * Reads the revisions and starts listening (on the port it had before when free, so subscriptions
   * keep).
   */
  async start(): Promise<void> {
    try {
      const saved: unknown = JSON.parse(await readFile(this.#stateFile, 'utf8'));
      if (saved && typeof saved === 'object')
        for (const [uid, r] of Object.entries(saved as Record<string, Revision>))
          if (typeof r?.hash === 'string' && Number.isInteger(r.sequence))
            this.#revisions.set(uid, r);
    } catch {
      // None yet, or unreadable: revisions start again from 0 (a subscriber then replaces on content).
    }
    const settings = await this.#deps.settings();
    this.#token = settings.token;
    this.#port = await this.#listen(settings.port).catch(() => this.#listen(0));
    if (this.#port !== settings.port) await this.#deps.saveSettings({ port: this.#port });
  }

  #listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = createServer((req, res) => void this.#answer(req, res));
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.#server = server;
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  async #answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const port = this.#port;
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request\n');
      return;
    }
    const path = (req.url ?? '').split('?')[0];
    if (path !== `/${this.#token}/${FEED_FILE}`) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    try {
      const body = await this.build();
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag }).end();
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/calendar; charset=utf-8',
        'cache-control': 'no-cache',
        etag,
        'x-content-type-options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (error) {
      this.#deps.log('calendar feed: could not be built', error);
      res.writeHead(500, { 'content-type': 'text/plain' }).end('The feed could not be built\n');
    }
  }

  /** The feed as text now: each event with its revision (grown when its content changed). */
  async build(): Promise<string> {
    const settings = await this.#deps.settings();
    const now = this.#deps.now();
    this.#changed = false;
    const events = this.#deps.events(settings.studyBlocks).map((e) => this.#revised(e, now));
    this.#items = events.length;
    // A build that changed no revision (a subscriber's refresh, most syncs) writes nothing.
    if (this.#changed) await this.#saveRevisions();
    return serializeCalendar(events, {
      stamp: new Date(now),
      name: this.#deps.name(),
      timeZone: this.#deps.timeZone(),
      refreshMinutes: 60,
    });
  }

  #revised(e: CalendarEvent, now: number): CalendarEvent {
    const hash = hashOf(e);
    const known = this.#revisions.get(e.uid);
    const rev =
      known?.hash === hash
        ? known
        : { hash, sequence: known ? known.sequence + 1 : 0, modified: new Date(now).toISOString() };
    if (rev !== known) this.#changed = true;
    this.#revisions.delete(e.uid);
    this.#revisions.set(e.uid, rev);
    return { ...e, sequence: rev.sequence, lastModified: new Date(rev.modified) };
  }

  async #saveRevisions(): Promise<void> {
    while (this.#revisions.size > REVISIONS_KEPT)
      this.#revisions.delete(this.#revisions.keys().next().value!);
    await writeFileAtomic(
      this.#stateFile,
      JSON.stringify(Object.fromEntries(this.#revisions)),
      0o600,
    ).catch((error: unknown) => this.#deps.log('calendar feed: revisions not saved', error));
  }

  /**
   * After a sync (or a change of settings): the kept file is written again, if there is a folder.
   */
  async refresh(): Promise<void> {
    const { folder } = await this.#deps.settings();
    if (folder === null) return;
    try {
      await writeFileAtomic(join(folder, FEED_FILE), await this.build(), 0o600);
      this.#writtenAt = new Date(this.#deps.now()).toISOString();
      this.#lastError = null;
    } catch (error) {
      this.#lastError = 'The calendar file could not be written in that folder.';
      this.#deps.log('calendar feed: file not written', error);
    }
  }

  async view(): Promise<CalendarFeedView> {
    const s = await this.#deps.settings();
    const http =
      this.#port === null ? null : `http://127.0.0.1:${this.#port}/${s.token}/${FEED_FILE}`;
    return {
      folder: s.folder,
      file: s.folder === null ? null : join(s.folder, FEED_FILE),
      writtenAt: this.#writtenAt,
      lastError: this.#lastError,
      webcalUrl: http === null ? null : http.replace(/^http:/, 'webcal:'),
      httpUrl: http,
      studyBlocks: s.studyBlocks,
      items: this.#items,
      canChooseFolder: this.#deps.canChooseFolder,
    };
  }

  async close(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
