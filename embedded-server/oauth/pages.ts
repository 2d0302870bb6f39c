import { html, page, type SafeHtml } from '../http/html';
import { describeScope } from './scopes';
import { PATHS } from './settings';

export function signInPage(opts: {
  siteName: string;
  csrf: string;
  returnTo: string;
  email?: string;
  error?: string;
  hint?: string;
}): string {
  return page(
    `Sign in to ${opts.siteName}`,
    html`<h1>Sign in to ${opts.siteName}</h1>
      ${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ''}
      <form method="post" action="${PATHS.signIn}">
        <input type="hidden" name="csrf" value="${opts.csrf}" />
        <input type="hidden" name="return_to" value="${opts.returnTo}" />
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          autofocus
          value="${opts.email ?? ''}"
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
        />
        <button type="submit">Sign in</button>
      </form>
      ${opts.hint ? html`<p class="notice">${opts.hint}</p>` : ''}`,
  );
}

export function consentPage(opts: {
  siteName: string;
  clientName: string;
  clientId: string;
  userEmail: string;
  scopes: readonly string[];
  requestId: string;
  csrf: string;
  redirectHost: string;
  /** The authorization URL (path + query), to come back to after "Use another account". */
  returnTo: string;
  /**
   * The name was chosen by the application itself (registration, metadata document), not checked by
   * the site.
   */
  unverified: boolean;
}): string {
  const items: SafeHtml[] = opts.scopes.map(
    (s) => html`<li>${describeScope(s)} <small>(<code>${s}</code>)</small></li>`,
  );
  const warning = opts.unverified
    ? html`<p class="error" role="alert">
        <strong>Unverified application.</strong> ${opts.siteName} has not checked who made it: the
        name “${opts.clientName}” is what the application calls itself. Allow it only if you started
        this sign-in yourself.
      </p>`
    : '';
  return page(
    `Allow ${opts.clientName}?`,
    html`<h1>
        Allow ${opts.unverified ? html`“${opts.clientName}” (unverified)` : opts.clientName} to
        access your ${opts.siteName} account?
      </h1>
      ${warning}
      <p>You are signed in as <strong>${opts.userEmail}</strong>.</p>
      <p><strong>${opts.clientName}</strong> (<code>${opts.clientId}</code>) is asking to:</p>
      <ul>
        ${items}
      </ul>
      <p>After you decide, you will be sent back to <code>${opts.redirectHost}</code>.</p>
      <form method="post" action="${PATHS.authorizeDecision}">
        <input type="hidden" name="csrf" value="${opts.csrf}" />
        <input type="hidden" name="request" value="${opts.requestId}" />
        <button type="submit" name="decision" value="approve">Allow</button>
        <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
      </form>
      <form method="post" action="${PATHS.signOut}">
        <input type="hidden" name="csrf" value="${opts.csrf}" />
        <input type="hidden" name="return_to" value="${opts.returnTo}" />
        <button type="submit" class="secondary">Use another account</button>
      </form>`,
  );
}

/**
 * Shown instead of redirecting when the client or redirect URI cannot be trusted (RFC 6749
 * §4.1.2.1).
 */
export function errorPage(title: string, error: string, description: string): string {
  return page(
    title,
    html`<h1>${title}</h1>
      <p class="error" role="alert"><code>${error}</code>: ${description}</p>
      <p>Close this window and try again from the application.</p>`,
  );
}
