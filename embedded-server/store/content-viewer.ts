import type { Database } from 'better-sqlite3';
import { ROLE_ORDER, type Role } from './identity';
import { stmt } from './content-sql';

/**
 * Read-only view of the identity tables (migration 001) that the member API needs and
 * store/identity.ts does not offer: every school where a member holds a role. Writes stay in
 * store/identity.ts.
 */
export interface SchoolMembershipRow {
  id: string;
  name: string;
  subdomain: string;
  roles: Role[];
}

export function schoolsOfUser(db: Database, userId: string): SchoolMembershipRow[] {
  const rows = stmt<object, { id: string; name: string; subdomain: string; role: Role }>(
    db,
    `SELECT s.id, s.name, s.subdomain, m.role FROM memberships m JOIN schools s ON s.id = m.school_id
      WHERE m.user_id = :user ORDER BY s.created_at, s.id`,
  ).all({ user: userId });
  const out = new Map<string, SchoolMembershipRow>();
  for (const r of rows) {
    const s = out.get(r.id) ?? { id: r.id, name: r.name, subdomain: r.subdomain, roles: [] };
    s.roles.push(r.role);
    out.set(r.id, s);
  }
  // roles[0] is the highest (ARCHITECTURE: owner > manager > admin > teacher > teaching_assistant >
  // student).
  for (const s of out.values())
    s.roles.sort((a, b) => ROLE_ORDER.indexOf(a) - ROLE_ORDER.indexOf(b));
  return [...out.values()];
}

export interface SchoolMemberRow {
  userId: string;
  name: string;
  email: string;
  roles: Role[];
}

type MemberRoleRow = { user_id: string; name: string; email: string; role: Role };

/**
 * One entry per member with every role, highest first (roles arrive one row each, ordered by user).
 */
function groupMembers(rows: readonly MemberRoleRow[]): SchoolMemberRow[] {
  const out = new Map<string, SchoolMemberRow>();
  for (const r of rows) {
    const m = out.get(r.user_id) ?? { userId: r.user_id, name: r.name, email: r.email, roles: [] };
    m.roles.push(r.role);
    out.set(r.user_id, m);
  }
  for (const m of out.values())
    m.roles.sort((a, b) => ROLE_ORDER.indexOf(a) - ROLE_ORDER.indexOf(b));
  return [...out.values()];
}

/** Every member of one school with their roles ("publish to all members" needs them all). */
export function membersOfSchool(db: Database, schoolId: string): SchoolMemberRow[] {
  const rows = stmt<object, MemberRoleRow>(
    db,
    `SELECT m.user_id, u.name, u.email, m.role FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.school_id = :school ORDER BY m.user_id`,
  ).all({ school: schoolId });
  return groupMembers(rows);
}

/**
 * One page of the school's members (admin API members:read). The page is cut on members, not on
 * membership rows, so a member with two roles is never split across pages.
 */
export function pageMembersOfSchool(
  db: Database,
  schoolId: string,
  limit: number,
  offset: number,
): { rows: SchoolMemberRow[]; total: number } {
  const rows = stmt<object, MemberRoleRow>(
    db,
    `SELECT m.user_id, u.name, u.email, m.role FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.school_id = :school
        AND m.user_id IN (SELECT DISTINCT user_id FROM memberships WHERE school_id = :school ORDER BY user_id LIMIT :limit OFFSET :offset)
      ORDER BY m.user_id`,
  ).all({ school: schoolId, limit, offset });
  return { rows: groupMembers(rows), total: countMembersOfSchool(db, schoolId) };
}

export function countMembersOfSchool(db: Database, schoolId: string): number {
  return stmt<object, { n: number }>(
    db,
    'SELECT count(DISTINCT user_id) AS n FROM memberships WHERE school_id = :school',
  ).get({ school: schoolId })!.n;
}

/** One member of the school, or undefined when the user holds no role there. */
export function memberOfSchool(
  db: Database,
  schoolId: string,
  userId: string,
): SchoolMemberRow | undefined {
  const rows = stmt<object, MemberRoleRow>(
    db,
    `SELECT m.user_id, u.name, u.email, m.role FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.school_id = :school AND m.user_id = :user`,
  ).all({ school: schoolId, user: userId });
  return groupMembers(rows)[0];
}
