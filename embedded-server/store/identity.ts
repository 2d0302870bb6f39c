import type { Database } from 'better-sqlite3';
import { prepared } from './statements';

/** Roles ordered highest first (ARCHITECTURE "Filling what the spec leaves out"). */
export const ROLE_ORDER = [
  'owner',
  'manager',
  'admin',
  'teacher',
  'teaching_assistant',
  'student',
] as const;
export type Role = (typeof ROLE_ORDER)[number];
/** Roles that may enter the admin area and authorize operator clients (decision, README). */
export const OPERATOR_ROLES: readonly Role[] = ['owner', 'manager', 'admin'];

export interface SchoolRow {
  id: string;
  name: string;
  subdomain: string;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  picture: string | null;
  passwordHash: string;
}

interface RawUser {
  id: string;
  email: string;
  name: string;
  picture: string | null;
  password_hash: string;
}

const toUser = (r: RawUser): UserRow => ({
  id: r.id,
  email: r.email,
  name: r.name,
  picture: r.picture,
  passwordHash: r.password_hash,
});

export function insertSchool(db: Database, s: SchoolRow, now: number): void {
  prepared(
    db,
    'INSERT INTO schools (id, name, subdomain, created_at) VALUES (@id, @name, @subdomain, @now)',
  ).run({ ...s, now });
}

export function getSchool(db: Database, id: string): SchoolRow | undefined {
  return prepared(db, 'SELECT id, name, subdomain FROM schools WHERE id = ?').get(id) as
    SchoolRow | undefined;
}

export function insertUser(db: Database, u: UserRow, now: number): void {
  prepared(
    db,
    'INSERT INTO users (id, email, name, picture, password_hash, created_at) VALUES (@id, @email, @name, @picture, @passwordHash, @now)',
  ).run({ ...u, now });
}

export function getUserById(db: Database, id: string): UserRow | undefined {
  const r = prepared(
    db,
    'SELECT id, email, name, picture, password_hash FROM users WHERE id = ?',
  ).get(id) as RawUser | undefined;
  return r && toUser(r);
}

export function getUserByEmail(db: Database, email: string): UserRow | undefined {
  const r = prepared(
    db,
    'SELECT id, email, name, picture, password_hash FROM users WHERE email = ?',
  ).get(email.trim()) as RawUser | undefined;
  return r && toUser(r);
}

export function addMembership(
  db: Database,
  schoolId: string,
  userId: string,
  role: Role,
  now: number,
): void {
  prepared(
    db,
    'INSERT OR IGNORE INTO memberships (school_id, user_id, role, created_at) VALUES (?, ?, ?, ?)',
  ).run(schoolId, userId, role, now);
}

/** The member's roles at one school, highest first (roles[0] is the highest). */
export function rolesAt(db: Database, schoolId: string, userId: string): Role[] {
  const rows = prepared(db, 'SELECT role FROM memberships WHERE school_id = ? AND user_id = ?').all(
    schoolId,
    userId,
  ) as { role: Role }[];
  return rows.map((r) => r.role).sort((a, b) => ROLE_ORDER.indexOf(a) - ROLE_ORDER.indexOf(b));
}

export function isOperator(roles: readonly Role[]): boolean {
  return roles.some((r) => OPERATOR_ROLES.includes(r));
}
