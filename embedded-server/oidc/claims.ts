import type { ServerContext } from '../http/types';
import { getUserById, rolesAt, type Role, type UserRow } from '../store/identity';

/**
 * The member's picture: their own, else the generated `<base>/avatars/<id>.svg` (README decision
 * 13). UserInfo, the id_token and the member API's `viewer.avatar` all call this, so the three
 * never disagree (spec "id_token claims": `picture` matches UserInfo).
 */
export function memberPicture(baseUrl: string, user: Pick<UserRow, 'id' | 'picture'>): string {
  return user.picture ?? `${baseUrl}/avatars/${encodeURIComponent(user.id)}.svg`;
}

/**
 * The claims UserInfo returns and the id_token repeats (spec "id_token claims": they must match).
 */
export interface MemberClaims {
  sub: string;
  email: string;
  name: string;
  picture: string;
  /** The school the token is bound to. */
  org_id: string;
  /** Roles at that school, highest first. */
  roles: Role[];
}

export function memberClaims(
  server: ServerContext,
  userId: string,
  schoolId: string,
): MemberClaims | null {
  const user = getUserById(server.db, userId);
  if (!user) return null;
  return {
    sub: user.id,
    email: user.email,
    name: user.name,
    picture: memberPicture(server.baseUrl, user),
    org_id: schoolId,
    roles: rolesAt(server.db, schoolId, user.id),
  };
}
