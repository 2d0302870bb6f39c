import type { Audience } from '../store/clients';

/** Identity scopes (OpenID Connect Core §5.4), usable by both audiences. */
export const IDENTITY_SCOPES = ['openid', 'profile', 'email'] as const;
/** Member-audience scopes (spec "Scopes": account:read is reserved to the member audience). */
export const MEMBER_SCOPES = ['account:read', 'account:write'] as const;
/** Operator areas with read/write pairs (spec "Scopes"). */
export const OPERATOR_AREAS = [
  'courses',
  'students',
  'members',
  'curriculum',
  'school',
  'appearance',
  'events',
  'membership_plans',
  'coupons',
  'posts',
  'subscriptions',
  'digital_products',
  'lecturers',
  'pages',
] as const;
/** Scopes without a write counterpart (spec "Scopes"). */
export const OPERATOR_SINGLE_SCOPES = [
  'analytics:read',
  'orders:read',
  'comments:read',
  'forms:read',
  'storage:write',
] as const;
export const OPERATOR_SCOPES: readonly string[] = [
  ...OPERATOR_AREAS.flatMap((a) => [`${a}:read`, `${a}:write`]),
  ...OPERATOR_SINGLE_SCOPES,
];

/** All 38 scopes, in the order discovery lists them. */
export const ALL_SCOPES: readonly string[] = [
  ...IDENTITY_SCOPES,
  ...MEMBER_SCOPES,
  ...OPERATOR_SCOPES,
];

/**
 * What a client reaching the member data (/mcp's member tools, /member/graphql) asks for: the
 * identity scopes and the two account scopes, which only a member client (made by a site operator)
 * can be granted.
 */
export const MEMBER_CLIENT_SCOPES: readonly string[] = [...IDENTITY_SCOPES, ...MEMBER_SCOPES];

export function scopesForAudience(audience: Audience): readonly string[] {
  return audience === 'member'
    ? [...IDENTITY_SCOPES, ...MEMBER_SCOPES]
    : [...IDENTITY_SCOPES, ...OPERATOR_SCOPES];
}

/**
 * What an unreviewed metadata-document client may ask for: identity and read scopes only (spec
 * Authentication 6).
 */
export function scopesForUnreviewedMetadataClient(): readonly string[] {
  return [...IDENTITY_SCOPES, ...OPERATOR_SCOPES.filter((s) => s.endsWith(':read'))];
}

/** RFC 6749 §3.3: space-delimited, case-sensitive; duplicates collapse, order kept. */
export function parseScope(scope: string): string[] {
  return [...new Set(scope.split(' ').filter((s) => s.length > 0))];
}

const AREA_WORDS: Record<string, string> = {
  courses: 'courses',
  students: 'students',
  members: 'members',
  curriculum: 'course curriculum',
  school: 'school settings',
  appearance: 'site appearance',
  events: 'events',
  membership_plans: 'membership plans',
  coupons: 'coupons',
  posts: 'posts',
  subscriptions: 'subscriptions',
  digital_products: 'digital products',
  lecturers: 'lecturers',
  pages: 'pages',
  analytics: 'analytics',
  orders: 'orders',
  comments: 'comments',
  forms: 'forms',
  storage: 'file storage',
};

/** Each scope in plain words for the consent page. */
export function describeScope(scope: string): string {
  switch (scope) {
    case 'openid':
      return 'Confirm who you are (sign you in)';
    case 'profile':
      return 'See your name and profile picture';
    case 'email':
      return 'See your email address';
    case 'account:read':
      return 'See your courses, progress, purchases and notifications';
    case 'account:write':
      return 'Mark your notifications as read and change your notification settings';
  }
  const [area, access] = scope.split(':') as [string, string];
  const words = AREA_WORDS[area] ?? area;
  return access === 'write'
    ? `Create, change and delete ${words} of this school`
    : `See ${words} of this school`;
}
