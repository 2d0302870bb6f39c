import type { RequestContext, Route } from '../http/types';
import { readForm } from '../http/body';
import { html, page, type SafeHtml } from '../http/html';
import { redirect, sendHtml } from '../http/respond';
import { csrfValid, currentSession, type ActiveSession } from '../oauth/browser-session';
import { isLoopbackRedirect, redirectUriMatches } from '../oauth/redirect-uris';
import { deleteSchoolClient, insertClient, listSchoolClients } from '../store/clients';
import { getUserById, isOperator, rolesAt, type UserRow } from '../store/identity';
import { randomId, randomSecret, sha256Hex } from '../store/secrets';
import { isFeatureEnabled, setFeature } from '../store/sessions';
import { PATHS } from '../oauth/settings';

/** The beta feature that opens Developers > OAuth applications (spec "OAuth client"). */
export const MCP_CONNECTIONS = 'mcp_connections';
const APPS_PATH = '/admin/developers/oauth-applications';

interface Operator {
  user: UserRow;
  session: ActiveSession;
}

/**
 * Operator gate: signed in, and owner/manager/admin at this site (decision, README). Sends the
 * answer otherwise.
 */
function requireOperator(ctx: RequestContext): Operator | null {
  const session = currentSession(ctx);
  if (!session?.userId) {
    redirect(ctx.res, `${PATHS.signIn}?return_to=${encodeURIComponent(ctx.url.pathname)}`);
    return null;
  }
  const user = getUserById(ctx.server.db, session.userId);
  if (!user || !isOperator(rolesAt(ctx.server.db, ctx.server.site.schoolId, user.id))) {
    sendHtml(
      ctx.res,
      403,
      page(
        'Not allowed',
        html`<h1>Not allowed</h1>
          <p class="error" role="alert">
            Only the site's owners, managers and admins can open the admin area.
          </p>
          ${signOutForm(session)}`,
      ),
    );
    return null;
  }
  return { user, session };
}

async function requireOperatorPost(
  ctx: RequestContext,
): Promise<{ op: Operator; form: Record<string, string> } | null> {
  const form = await readForm(ctx.req);
  const op = requireOperator(ctx);
  if (!op) return null;
  if (!csrfValid(op.session, form.csrf)) {
    sendHtml(
      ctx.res,
      403,
      page(
        'Form expired',
        html`<h1>This form expired</h1>
          <p class="error" role="alert">Reload the page and try again.</p>
          <p><a href="/admin">Back to the admin area</a></p>`,
      ),
    );
    return null;
  }
  return { op, form };
}

function signOutForm(session: ActiveSession): SafeHtml {
  return html`<form method="post" action="${PATHS.signOut}">
    <input type="hidden" name="csrf" value="${session.csrf}" /><button
      type="submit"
      class="secondary"
    >
      Sign out
    </button>
  </form>`;
}

function layout(
  ctx: RequestContext,
  op: Operator,
  title: string,
  body: SafeHtml,
  status = 200,
): void {
  const mcp = isFeatureEnabled(ctx.server.db, ctx.server.site.schoolId, MCP_CONNECTIONS);
  sendHtml(
    ctx.res,
    status,
    page(
      `${title} · ${ctx.server.site.name} admin`,
      html`<nav aria-label="Admin">
          <a href="/admin">Dashboard</a
          >${mcp ? html`<a href="${APPS_PATH}">Developers › OAuth applications</a>` : ''}
        </nav>
        <p>Signed in as <strong>${op.user.email}</strong> at ${ctx.server.site.name}.</p>
        ${body} ${signOutForm(op.session)}`,
      { wide: true },
    ),
  );
}

/** GET /admin */
function dashboard(ctx: RequestContext): void {
  const op = requireOperator(ctx);
  if (!op) return;
  const enabled = isFeatureEnabled(ctx.server.db, ctx.server.site.schoolId, MCP_CONNECTIONS);
  layout(
    ctx,
    op,
    'Dashboard',
    html`<h1>${ctx.server.site.name}: admin</h1>
      <h2>Beta features</h2>
      <form method="post" action="/admin/beta-features">
        <input type="hidden" name="csrf" value="${op.session.csrf}" />
        <input type="hidden" name="feature" value="${MCP_CONNECTIONS}" />
        <p>
          <strong>MCP connections</strong>: ${enabled ? 'enabled' : 'disabled'}. Lets members
          connect desktop and AI applications; adds Developers › OAuth applications.
        </p>
        <button type="submit" name="enabled" value="${enabled ? 'off' : 'on'}">
          ${enabled ? 'Disable MCP connections' : 'Enable MCP connections'}
        </button>
      </form>`,
  );
}

/** POST /admin/beta-features */
async function toggleFeature(ctx: RequestContext): Promise<void> {
  const got = await requireOperatorPost(ctx);
  if (!got) return;
  if (got.form.feature !== MCP_CONNECTIONS) {
    layout(
      ctx,
      got.op,
      'Unknown feature',
      html`<p class="error" role="alert">Unknown beta feature.</p>`,
      400,
    );
    return;
  }
  setFeature(
    ctx.server.db,
    ctx.server.site.schoolId,
    MCP_CONNECTIONS,
    got.form.enabled === 'on',
    got.op.user.id,
    ctx.server.clock.now(),
  );
  redirect(ctx.res, '/admin');
}

function featureGate(ctx: RequestContext, op: Operator): boolean {
  if (isFeatureEnabled(ctx.server.db, ctx.server.site.schoolId, MCP_CONNECTIONS)) return true;
  layout(
    ctx,
    op,
    'Not available',
    html`<h1>Not available</h1>
      <p class="error" role="alert">Enable the beta feature "MCP connections" first.</p>`,
    404,
  );
  return false;
}

/**
 * Creation forms already answered, per site database: a reload of the "created" page (the browser
 * re-sends the POST) must not create a second application and show a second secret. Each rendered
 * form carries its own id. Kept in memory and bounded: after a restart an old form is simply
 * answered as already used.
 */
const answeredForms = new WeakMap<object, Map<string, { clientId: string; name: string }>>();
const MAX_ANSWERED = 500;
function answered(ctx: RequestContext): Map<string, { clientId: string; name: string }> {
  let m = answeredForms.get(ctx.server.db);
  if (!m) answeredForms.set(ctx.server.db, (m = new Map()));
  return m;
}

/**
 * The invite link an operator hands to students: it opens Learning Desktop's add-site form filled
 * in with this site's address and the application's client_id, never a secret (the app registers
 * the scheme; README "Invite links").
 */
function learningDesktopInvite(baseUrl: string, clientId: string): string {
  return `learning-desktop://add-site?site=${encodeURIComponent(baseUrl)}&client_id=${encodeURIComponent(clientId)}`;
}

/** The redirect Learning Desktop signs in through: a loopback URI with any port (RFC 8252 §7.3). */
const DESKTOP_REDIRECT = 'http://127.0.0.1:1/callback';

/** The invite cell of an application: the link, or why this application cannot have one. */
function inviteCell(
  ctx: RequestContext,
  a: { clientId: string; name: string; confidential: boolean; redirectUris: readonly string[] },
): SafeHtml {
  if (a.confidential)
    return html`<small
      >Invite links are for public applications: a client secret cannot travel in a link.</small
    >`;
  if (!redirectUriMatches(a.redirectUris, DESKTOP_REDIRECT))
    return html`<small
      >Add the redirect URI <code>http://127.0.0.1/callback</code> to invite Learning Desktop
      users.</small
    >`;
  const link = learningDesktopInvite(ctx.server.baseUrl, a.clientId);
  return html`<a class="invite-link" href="${link}" aria-label="Open ${a.name} in Learning Desktop"
      >Open in Learning Desktop</a
    ><br /><small>Send students this link:</small> <code class="invite-url">${link}</code>`;
}

type AppListing = ReturnType<typeof listSchoolClients>[number];

function appRow(ctx: RequestContext, op: Operator, a: AppListing): SafeHtml {
  return html`<tr>
    <td>${a.name}</td>
    <td><code>${a.clientId}</code></td>
    <td>${a.confidential ? 'Confidential' : 'Public'}</td>
    <td>${a.redirectUris.map((u) => html`<code>${u}</code><br />`)}</td>
    <td>${inviteCell(ctx, a)}</td>
    <td>
      <form method="post" action="${APPS_PATH}/${encodeURIComponent(a.clientId)}/delete">
        <input type="hidden" name="csrf" value="${op.session.csrf}" /><button
          type="submit"
          class="danger"
          aria-label="Delete ${a.name}"
        >
          Delete
        </button>
      </form>
    </td>
  </tr>`;
}

function createdNotice(created: {
  clientId: string;
  secret: string | null;
  name: string;
}): SafeHtml {
  return html`<div class="notice" role="status">
    <p>
      Created <strong>${created.name}</strong>. Client ID:
      <code class="client-id">${created.clientId}</code>
    </p>
    ${
      created.secret
        ? html`<p>
            Client secret (shown only this once; copy it now):
            <code class="secret">${created.secret}</code>
          </p>`
        : html`<p>Public application: no client secret.</p>`
    }
  </div>`;
}

function appsTable(rows: SafeHtml[]): SafeHtml {
  return html`<table>
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col">Client ID</th>
        <th scope="col">Type</th>
        <th scope="col">Redirect URIs</th>
        <th scope="col">Invite students</th>
        <th scope="col">Actions</th>
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

function createAppForm(op: Operator, v: Record<string, string>): SafeHtml {
  return html`<h2>Create an application</h2>
    <form method="post" action="${APPS_PATH}">
      <input type="hidden" name="csrf" value="${op.session.csrf}" />
      <input type="hidden" name="submission" value="${randomId('form_')}" />
      <label for="name">Name</label>
      <input id="name" name="name" type="text" required maxlength="100" value="${v.name ?? ''}" />
      <label for="redirect_uris">Redirect URIs (one per line)</label>
      <textarea id="redirect_uris" name="redirect_uris" rows="3" required>
${v.redirect_uris ?? ''}</textarea>
      <label class="check" for="confidential"
        ><input
          id="confidential"
          name="confidential"
          type="checkbox"
          value="on"
          ${v.confidential ? html` checked` : ''}
        />Confidential application</label
      >
      <p>
        <small
          >Leave unchecked for desktop and mobile apps (public client, no secret). Checked: a client
          secret is issued and the app must send it (client_secret_post).</small
        >
      </p>
      <button type="submit">Create application</button>
    </form>`;
}

function assistantsHelp(baseUrl: string): SafeHtml {
  return html`<h2 id="assistants">Connecting an AI assistant (MCP)</h2>
    <p>
      An assistant reads a member's data through
      <code class="mcp-url">${baseUrl}/mcp</code> with a member token. Create a public application
      for it with the redirect URI its setup names (most use <code>http://127.0.0.1/callback</code>,
      any port) and give members its client ID: the assistant cannot register one itself, since
      registration makes operator clients only.
    </p>`;
}

function appsPage(
  ctx: RequestContext,
  op: Operator,
  extra: {
    error?: string;
    created?: { clientId: string; secret: string | null; name: string };
    values?: Record<string, string>;
  } = {},
  status = 200,
): void {
  const apps = listSchoolClients(ctx.server.db, ctx.server.site.schoolId);
  layout(
    ctx,
    op,
    'OAuth applications',
    html`<h1>Developers › OAuth applications</h1>
      ${extra.error ? html`<p class="error" role="alert">${extra.error}</p>` : ''}
      ${extra.created ? createdNotice(extra.created) : ''}
      <h2>Applications</h2>
      ${
        apps.length === 0
          ? html`<p>No applications yet.</p>`
          : appsTable(apps.map((a) => appRow(ctx, op, a)))
      }
      ${createAppForm(op, extra.values ?? {})} ${assistantsHelp(ctx.server.baseUrl)}`,
    status,
  );
}

function listApps(ctx: RequestContext): void {
  const op = requireOperator(ctx);
  if (!op || !featureGate(ctx, op)) return;
  appsPage(ctx, op);
}

/**
 * Redirect URIs an operator may register: https, loopback http (RFC 8252 §7.3), or a private-use
 * scheme (RFC 8252 §7.1).
 */
export function validateAppRedirectUri(uri: string): string | null {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URI`;
  }
  if (u.hash) return `"${uri}" must not contain a fragment`;
  if (u.protocol === 'https:' || isLoopbackRedirect(uri)) return null;
  if (u.protocol === 'http:') return `"${uri}": plain http is only allowed on 127.0.0.1 or [::1]`;
  // reverse-domain private-use scheme
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/i.test(u.protocol)) return null;
  return `"${uri}": use https, a loopback http URI, or a reverse-domain private-use scheme`;
}

/** POST /admin/developers/oauth-applications */
async function createApp(ctx: RequestContext): Promise<void> {
  const got = await requireOperatorPost(ctx);
  if (!got || !featureGate(ctx, got.op)) return;
  const { form, op } = got;
  const submission = form.submission ?? '';
  const earlier = answered(ctx).get(submission);
  if (!/^form_[A-Za-z0-9_-]{8,64}$/.test(submission) || earlier) {
    // A re-sent form (reload, back button): nothing new is created and no secret is shown again.
    const what = earlier
      ? html`<p>
          <strong>${earlier.name}</strong> (client ID
          <code class="client-id">${earlier.clientId}</code>) was already created from this form.
          Its client secret was shown only once: if it was not copied, delete the application and
          create a new one.
        </p>`
      : html`<p>This form is out of date. Open the applications page again and resubmit.</p>`;
    layout(
      ctx,
      op,
      'Already submitted',
      html`<h1>Already submitted</h1>
        <div class="error" role="alert">${what}</div>
        <p><a href="${APPS_PATH}">Back to OAuth applications</a></p>`,
      409,
    );
    return;
  }
  const name = (form.name ?? '').trim();
  const uris = (form.redirect_uris ?? '')
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
  const values = {
    name: form.name ?? '',
    redirect_uris: form.redirect_uris ?? '',
    ...(form.confidential ? { confidential: 'on' } : {}),
  };
  const problem =
    name.length === 0 || name.length > 100
      ? 'Give the application a name (up to 100 characters).'
      : uris.length === 0 || uris.length > 10
        ? 'Give between 1 and 10 redirect URIs.'
        : uris.map(validateAppRedirectUri).find((e) => e !== null);
  if (problem) {
    appsPage(ctx, op, { error: problem, values }, 400);
    return;
  }
  const confidential = form.confidential === 'on';
  const secret = confidential ? randomSecret('cs_') : null;
  const clientId = randomId('app_');
  insertClient(ctx.server.db, {
    clientId,
    schoolId: ctx.server.site.schoolId,
    name,
    audience: 'member',
    origin: 'admin',
    confidential,
    secretHash: secret ? sha256Hex(secret) : null,
    redirectUris: [...new Set(uris)],
    applicationType: 'native',
    createdAt: ctx.server.clock.now(),
  });
  const seen = answered(ctx);
  seen.set(submission, { clientId, name });
  if (seen.size > MAX_ANSWERED) seen.delete(seen.keys().next().value!);
  appsPage(ctx, op, { created: { clientId, secret, name } }, 201);
}

/** POST /admin/developers/oauth-applications/:clientId/delete */
async function deleteApp(ctx: RequestContext): Promise<void> {
  const got = await requireOperatorPost(ctx);
  if (!got || !featureGate(ctx, got.op)) return;
  if (!deleteSchoolClient(ctx.server.db, ctx.server.site.schoolId, ctx.params.clientId ?? '')) {
    appsPage(ctx, got.op, { error: 'No such application.' }, 404);
    return;
  }
  redirect(ctx.res, APPS_PATH);
}

export const adminPageRoutes: Route[] = [
  { method: 'GET', path: '/admin', handler: dashboard },
  { method: 'POST', path: '/admin/beta-features', handler: toggleFeature },
  { method: 'GET', path: APPS_PATH, handler: listApps },
  { method: 'POST', path: APPS_PATH, handler: createApp },
  { method: 'POST', path: `${APPS_PATH}/:clientId/delete`, handler: deleteApp },
];
