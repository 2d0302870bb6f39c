import type { Route } from '../http/types';
import { authorizeRoutes } from './authorize';
import { registerRoutes } from './register';
import { revokeRoutes } from './revoke';
import { signInRoutes } from './sign-in';
import { tokenRoutes } from './token';

export const oauthRoutes: Route[] = [
  ...authorizeRoutes,
  ...signInRoutes,
  ...tokenRoutes,
  ...revokeRoutes,
  ...registerRoutes,
];
