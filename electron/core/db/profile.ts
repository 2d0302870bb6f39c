import type { Database } from 'better-sqlite3';
import { siteText } from '../../common/site-values';
import type { ProfileView } from '../../common/view-models';
import { CoreError } from '../errors';
import type { ProfileRecord } from './records';
import { json, prepared } from './statements';
import type { ReadableDB } from './handles';

export function replaceProfile(db: Database, siteId: string, profile: ProfileRecord): void {
  prepared<Record<string, unknown>>(
    db,
    `INSERT INTO profile (site_id, user_id, name, email, avatar_url) VALUES (@siteId, @userId, @name, @email, @avatarUrl)
     ON CONFLICT (site_id) DO UPDATE SET user_id = excluded.user_id, name = excluded.name, email = excluded.email, avatar_url = excluded.avatar_url`,
  ).run({
    siteId,
    userId: profile.id,
    name: profile.name,
    email: profile.email,
    avatarUrl: profile.avatar,
  });
  prepared<{ siteId: string }>(db, 'DELETE FROM schools WHERE site_id = @siteId').run({ siteId });
  const insert = prepared<Record<string, unknown>>(
    db,
    'INSERT INTO schools (site_id, id, name, subdomain, roles, position) VALUES (@siteId, @id, @name, @subdomain, @roles, @position)',
  );
  profile.schools.forEach((s, position) =>
    insert.run({
      siteId,
      id: s.id,
      name: s.name,
      subdomain: s.subdomain,
      roles: json(s.roles),
      position,
    }),
  );
}

interface ProfileRow {
  user_id: string;
  name: string;
  email: string;
  avatar_url: string | null;
}

/** A stored JSON list of strings (roles), each cleaned; anything else is an empty list. */
function textList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value)
      ? value.filter((v) => typeof v === 'string').map((v) => siteText(v, 100))
      : [];
  } catch {
    return [];
  }
}

/**
 * The signed-in member with the sites where they hold a role (roles highest first). 'not-found'
 * before a sync.
 */
export function getProfile(db: ReadableDB, siteId: string): ProfileView {
  const row = prepared<{ siteId: string }, ProfileRow>(
    db,
    'SELECT user_id, name, email, avatar_url FROM profile WHERE site_id = @siteId',
  ).get({
    siteId,
  });
  if (!row) throw new CoreError('not-found', 'Your profile has not been synced yet.', { siteId });
  const schools = prepared<
    { siteId: string },
    { id: string; name: string; subdomain: string; roles: string }
  >(db, 'SELECT id, name, subdomain, roles FROM schools WHERE site_id = @siteId ORDER BY position')
    .all({ siteId })
    .map((s) => ({
      id: s.id,
      name: siteText(s.name),
      subdomain: siteText(s.subdomain, 200),
      roles: textList(s.roles),
    }));
  return {
    userId: row.user_id,
    name: siteText(row.name),
    email: siteText(row.email, 320),
    avatarUrl: row.avatar_url,
    schools,
  };
}
