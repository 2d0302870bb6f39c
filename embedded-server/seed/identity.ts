import type { Database } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { SiteConfig } from '../http/types';
import { addMembership, insertSchool, insertUser, type Role } from '../store/identity';
import { insertClient, insertVendorPlatform } from '../store/clients';
import { hashPassword, sha256Hex } from '../store/secrets';
import type { SiteKey } from './types';

/** The two demo sites (spec: one instance serves one site). */
export const SITES: Record<SiteKey, SiteConfig> = {
  demo: { schoolId: 'sch_demo', name: 'Demo School', subdomain: 'demo' },
  demo2: { schoolId: 'sch_demo2', name: 'Second Demo School', subdomain: 'demo2' },
};

/**
 * Demo credentials, published in the README and the sign-in page hint (they are demo data, not
 * secrets).
 */
export const DEMO_USERS = {
  student: {
    id: 'usr_student',
    email: 'student@example.com',
    password: 'student-demo',
    name: 'Demo Student',
  },
  owner: {
    id: 'usr_owner',
    email: 'owner@example.com',
    password: 'owner-demo',
    name: 'Demo Owner',
  },
} as const;

export const DEMO_CLIENTS = {
  public: { clientId: 'demo-desktop', name: 'Learning Desktop' },
  confidential: {
    clientId: 'demo-desktop-confidential',
    name: 'Learning Desktop (confidential)',
    secret: 'demo-desktop-secret',
  },
  redirectUri: 'http://127.0.0.1/callback',
} as const;

export const DEMO_VENDOR = {
  id: 'vnd_demo',
  clientName: 'Demo Vendor',
  clientId: 'demo-vendor',
  redirectUris: ['https://vendor.example.com/oauth/callback', 'http://127.0.0.1/callback'],
} as const;

// Deterministic seed: the salt is derived from the email, so the same seed gives the same rows.
// Cached per process because scrypt is deliberately slow and tests start many servers.
const seededHashes = new Map<string, string>();
function seedPasswordHash(email: string, password: string): string {
  const key = `${email}\0${password}`;
  let h = seededHashes.get(key);
  if (!h) {
    h = hashPassword(
      password,
      createHash('sha256').update(`seed-salt:${email}`).digest().subarray(0, 16),
    );
    seededHashes.set(key, h);
  }
  return h;
}

/**
 * Identity and OAuth seed: both demo schools, the student (a role at both), the owner, the two
 * member applications of the served site, and the allowlisted vendor platform.
 */
export function seedIdentity(db: Database, site: SiteKey, now: number): void {
  for (const s of Object.values(SITES))
    insertSchool(db, { id: s.schoolId, name: s.name, subdomain: s.subdomain }, now);
  for (const u of Object.values(DEMO_USERS)) {
    insertUser(
      db,
      {
        id: u.id,
        email: u.email,
        name: u.name,
        picture: null,
        passwordHash: seedPasswordHash(u.email, u.password),
      },
      now,
    );
  }
  const roles: [string, string, Role][] = [
    [SITES.demo.schoolId, DEMO_USERS.student.id, 'student'],
    [SITES.demo.schoolId, DEMO_USERS.owner.id, 'owner'],
    [SITES.demo2.schoolId, DEMO_USERS.student.id, 'student'],
    [SITES.demo2.schoolId, DEMO_USERS.owner.id, 'owner'],
  ];
  for (const [schoolId, userId, role] of roles) addMembership(db, schoolId, userId, role, now);

  const schoolId = SITES[site].schoolId;
  const common = {
    schoolId,
    audience: 'member' as const,
    origin: 'admin' as const,
    applicationType: 'native',
    createdAt: now,
  };
  insertClient(db, {
    ...common,
    clientId: DEMO_CLIENTS.public.clientId,
    name: DEMO_CLIENTS.public.name,
    confidential: false,
    secretHash: null,
    redirectUris: [DEMO_CLIENTS.redirectUri],
  });
  insertClient(db, {
    ...common,
    clientId: DEMO_CLIENTS.confidential.clientId,
    name: DEMO_CLIENTS.confidential.name,
    confidential: true,
    secretHash: sha256Hex(DEMO_CLIENTS.confidential.secret),
    redirectUris: [DEMO_CLIENTS.redirectUri],
    createdAt: now + 1,
  });
  insertClient(db, {
    clientId: DEMO_VENDOR.clientId,
    schoolId: null,
    name: DEMO_VENDOR.clientName,
    audience: 'operator',
    origin: 'vendor',
    confidential: false,
    secretHash: null,
    redirectUris: [...DEMO_VENDOR.redirectUris],
    applicationType: 'web',
    createdAt: now,
  });
  insertVendorPlatform(
    db,
    { id: DEMO_VENDOR.id, clientName: DEMO_VENDOR.clientName, clientId: DEMO_VENDOR.clientId },
    now,
  );
}
