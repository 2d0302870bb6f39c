/** The sites feature's one public entry: what the shell and the other features may use of it. */
export { siteStatusKey } from './labels';
export { SignInProvider, useSignIn } from './sign-in';
export { SignInDoctor } from './SignInDoctor';
export { SignInPanel } from './SignInPanel';
export { canSignOut, SignOutDialog } from './SignOutDialog';
export { SiteSignInScreen } from './SiteSignInScreen';
export { SiteSwitcher } from './SiteSwitcher';
export { WelcomeScreen } from './WelcomeScreen';
