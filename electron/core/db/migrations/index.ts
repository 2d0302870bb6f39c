/**
 * Numbered migrations, in order (Signal ts/sql/migrations style). TypeScript modules rather than
 * .sql files so the bundler carries them into the app. Never edit a shipped migration: add the next
 * number.
 */
import * as m001 from './001-initial';
import * as m002 from './002-search';
import * as m003 from './003-view-indexes';
import * as m004 from './004-search-trigram';
import * as m005 from './005-sync-parts';
import * as m006 from './006-view-pages';
import * as m007 from './007-short-terms';
import * as m008 from './008-page-cursors';
import * as m009 from './009-search-ranges';
import * as m010 from './010-locked-lectures';
import * as m011 from './011-lecture-states';
import * as m012 from './012-reminders';
import * as m013 from './013-lecture-completions';
import * as m014 from './014-search-everything';
import * as m015 from './015-course-display';
import * as m016 from './016-course-news';
import * as m017 from './017-lectures-left';
import * as m018 from './018-lecture-order';
import * as m019 from './019-search-form';
import * as m020 from './020-notes';
import * as m021 from './021-change-record';
import * as m022 from './022-reminder-snoozes';
import * as m023 from './023-lectures-unlocking';
import * as m024 from './024-course-news-record';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
  m021,
  m022,
  m023,
  m024,
];
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
