import { describe, expect, it } from 'vitest';
import { INVITE_REFUSALS } from '../../../electron/common/files-and-invites';
import {
  INVITE_MAX_LENGTH,
  inviteArgument,
  inviteLink,
  looksLikeInviteLink,
  parseInviteLink,
} from '../../../electron/core/invite/invite-link';
import { createInviteInbox } from '../../../electron/core/invite/inbox';

const SITE = 'https://school.example.com';
const link = (query: string) => `learning-desktop://add-site?${query}`;
const refusal = (raw: unknown) => {
  const r = parseInviteLink(raw);
  return r.ok ? `accepted ${r.invite.baseUrl} ${r.invite.clientId}` : r.refusal;
};

describe('invite links: learning-desktop://add-site?site=<origin>&client_id=<id>', () => {
  it('reads an honest link, in the form the admin page writes and in the browser host’s own form', () => {
    expect(parseInviteLink(inviteLink(SITE, 'app_123'))).toEqual({
      ok: true,
      invite: { baseUrl: SITE, clientId: 'app_123' },
    });
    expect(inviteLink('http://127.0.0.1:4100/', 'app_1')).toBe(
      'learning-desktop://add-site?site=http%3A%2F%2F127.0.0.1%3A4100&client_id=app_1',
    );
    expect(parseInviteLink(link(`site=${SITE}&client_id=app_1`))).toEqual({
      ok: true,
      invite: { baseUrl: SITE, clientId: 'app_1' },
    });
    // What Windows and some desktops hand over: a slash after the host, the scheme or host in
    // capitals.
    expect(refusal(`learning-desktop://add-site/?site=${SITE}&client_id=app_1`)).toBe(
      `accepted ${SITE} app_1`,
    );
    expect(refusal(`Learning-Desktop://ADD-SITE?site=${SITE}&client_id=app_1`)).toBe(
      `accepted ${SITE} app_1`,
    );
    expect(refusal(`  ${link(`site=${SITE}&client_id=app_1`)}  `)).toBe(`accepted ${SITE} app_1`);
    expect(refusal(`http://127.0.0.1:51234/add-site?site=${SITE}&client_id=app_1`)).toBe(
      `accepted ${SITE} app_1`,
    );
    expect(refusal(`http://localhost:51234/add-site?site=${SITE}&client_id=app_1`)).toBe(
      `accepted ${SITE} app_1`,
    );
    // Plain http only for a site on this computer (the demo server).
    expect(refusal(link('site=http://127.0.0.1:4100&client_id=app_1'))).toBe(
      'accepted http://127.0.0.1:4100 app_1',
    );
    // The site's default port and a trailing slash are the same origin.
    expect(refusal(link(`site=${SITE}:443/&client_id=app_1`))).toBe(`accepted ${SITE} app_1`);
  });

  it('refuses a wrong scheme, another action, or a web page pretending to be the browser host', () => {
    expect(refusal(`https://school.example.com/add-site?site=${SITE}&client_id=a`)).toBe(
      'not-an-invite',
    );
    expect(refusal(`http://evil.example/add-site?site=${SITE}&client_id=a`)).toBe('not-an-invite');
    expect(refusal(`http://127.0.0.1:5000/remove-site?site=${SITE}&client_id=a`)).toBe(
      'not-an-invite',
    );
    expect(refusal(`learning-desktop://sign-in?site=${SITE}&client_id=a`)).toBe('not-an-invite');
    expect(refusal(`learning-desktop://add-site/extra?site=${SITE}&client_id=a`)).toBe(
      'not-an-invite',
    );
    expect(refusal(`learning-desktop://add-site:8080?site=${SITE}&client_id=a`)).toBe(
      'not-an-invite',
    );
    expect(refusal(`learning-desktop:add-site?site=${SITE}&client_id=a`)).toBe('not-an-invite');
    expect(refusal(`learning-desktopx://add-site?site=${SITE}&client_id=a`)).toBe('not-an-invite');
    expect(
      refusal(`javascript:alert(1)//learning-desktop://add-site?site=${SITE}&client_id=a`),
    ).toBe('not-an-invite');
    expect(refusal(`file:///learning-desktop/add-site?site=${SITE}&client_id=a`)).toBe(
      'not-an-invite',
    );
    expect(refusal(`data:text/html,learning-desktop://add-site`)).toBe('not-an-invite');
  });

  it('refuses what is not a URL, too long, or hides characters the URL parser would drop', () => {
    expect(refusal('')).toBe('malformed');
    expect(refusal('learning-desktop')).toBe('malformed');
    expect(refusal(42)).toBe('malformed');
    expect(refusal(null)).toBe('malformed');
    expect(refusal(link(`site=${SITE}&client_id=${'a'.repeat(INVITE_MAX_LENGTH)}`))).toBe(
      'too-long',
    );
    // "java\nscript:" reads as "javascript:" to the URL parser: any control character or inner
    // space is refused.
    expect(refusal(`learning-\ndesktop://add-site?site=${SITE}&client_id=a`)).toBe('malformed');
    expect(refusal(link(`site=${SITE}&client_id=a\tb`))).toBe('malformed');
    expect(refusal(link(`site=${SITE}&client_id=a b`))).toBe('malformed');
    expect(refusal(link(`site=${SITE}&client_id=a\u0000`))).toBe('malformed');
  });

  it('never takes a secret: a client_secret (or any credential) parameter, or a user and password, refuses the link', () => {
    for (const name of [
      'client_secret',
      'CLIENT_SECRET',
      'client%5Fsecret',
      'secret',
      'password',
      'access_token',
      'refresh_token',
      'token',
      'code',
      'code_verifier',
    ]) {
      expect(refusal(link(`site=${SITE}&client_id=app_1&${name}=cs_123`)), name).toBe(
        'secret-in-link',
      );
    }
    expect(refusal(`learning-desktop://user:pass@add-site?site=${SITE}&client_id=app_1`)).toBe(
      'secret-in-link',
    );
    expect(refusal(`http://user:pass@127.0.0.1:5000/add-site?site=${SITE}&client_id=app_1`)).toBe(
      'secret-in-link',
    );
    expect(refusal(link(`site=https://user:pass@school.example.com&client_id=app_1`))).toBe(
      'site-has-credentials',
    );
    expect(refusal(link(`site=https://user@school.example.com&client_id=app_1`))).toBe(
      'site-has-credentials',
    );
  });

  it('refuses duplicate or ambiguous parameters (the first and the last would name different sites); ignores unknown ones', () => {
    expect(refusal(link(`site=${SITE}&site=https://evil.example&client_id=a`))).toBe(
      'duplicate-parameter',
    );
    expect(refusal(link(`site=${SITE}&client_id=a&client_id=b`))).toBe('duplicate-parameter');
    expect(refusal(link(`site=${SITE}&client_id=a&client%5Fid=b`))).toBe('duplicate-parameter');
    expect(refusal(link(`site=${SITE}&client_id=a&Site=https://evil.example`))).toBe(
      'duplicate-parameter',
    );
    expect(refusal(link(`site=${SITE}&client_id=a&utm_source=newsletter&lang=zh-TW`))).toBe(
      `accepted ${SITE} a`,
    );
  });

  it('the site must be an http(s) origin: no javascript:, file:, data:, path, query, fragment or backslash trick', () => {
    expect(refusal(link('client_id=a'))).toBe('site-missing');
    expect(refusal(link('site=&client_id=a'))).toBe('site-missing');
    expect(refusal(link('site=javascript:alert(1)&client_id=a'))).toBe('site-not-https');
    expect(refusal(link('site=javascript%3Aalert(document.cookie)&client_id=a'))).toBe(
      'site-not-https',
    );
    expect(refusal(link('site=file:///etc/passwd&client_id=a'))).toBe('site-not-https');
    expect(refusal(link('site=data:text/html,hi&client_id=a'))).toBe('site-not-https');
    expect(refusal(link('site=ftp://school.example.com&client_id=a'))).toBe('site-not-https');
    expect(refusal(link('site=http://school.example.com&client_id=a'))).toBe('site-not-https');
    expect(refusal(link('site=school.example.com&client_id=a'))).toBe('site-invalid');
    expect(refusal(link('site=https://&client_id=a'))).toBe('site-invalid');
    expect(
      refusal(link(`site=${encodeURIComponent('https://school.example.com/path')}&client_id=a`)),
    ).toBe('site-not-origin');
    expect(
      refusal(link(`site=${encodeURIComponent('https://school.example.com?x=1')}&client_id=a`)),
    ).toBe('site-not-origin');
    expect(
      refusal(link(`site=${encodeURIComponent('https://school.example.com#x')}&client_id=a`)),
    ).toBe('site-not-origin');
    expect(
      refusal(link(`site=${encodeURIComponent('https://school.example.com?')}&client_id=a`)),
    ).toBe('site-not-origin');
    // The backslash reads as a slash: the host is good.example and "@evil.example" is a path.
    expect(
      refusal(
        link(`site=${encodeURIComponent('https://good.example\\@evil.example')}&client_id=a`),
      ),
    ).toBe('site-not-origin');
    // An encoded slash decodes to a path; encoded twice it would make good.example a user name at
    // evil.example.
    expect(refusal(link('site=https://good.example%2F@evil.example&client_id=a'))).toBe(
      'site-not-origin',
    );
    expect(refusal(link('site=https://good.example%252F@evil.example&client_id=a'))).toBe(
      'site-invalid',
    );
    expect(refusal(link(`site=https://school.example.com${'.x'.repeat(300)}&client_id=a`))).toBe(
      'site-invalid',
    );
  });

  it('percent-encoding is decoded once, the way a browser would: an encoded honest origin is the same origin', () => {
    expect(
      refusal(link(`site=${encodeURIComponent(SITE)}&client_id=${encodeURIComponent('app_1')}`)),
    ).toBe(`accepted ${SITE} app_1`);
    expect(refusal(link('site=https://%73chool.example.com&client_id=a'))).toBe(
      `accepted ${SITE} a`,
    );
    // Double encoding stays encoded: "%2573" is not a host character.
    expect(refusal(link('site=https://%2573chool.example.com&client_id=a'))).toBe('site-invalid');
    expect(refusal(link(`site=${SITE}&client_id=%E4%B8%AD`))).toBe('client-id-invalid');
    expect(refusal(link(`site=${SITE}&client_id=%ZZ`))).toBe(`accepted ${SITE} %ZZ`);
  });

  it('an internationalised host is shown in its ASCII (xn--) form, so a look-alike cannot pass for a known name', () => {
    expect(refusal(link('site=https://例子.tw&client_id=a'))).toBe(
      'accepted https://xn--fsqu00a.tw a',
    );
    // "аpple.example" with a Cyrillic "а" is not apple.example.
    expect(refusal(link('site=https://\u0430pple.example&client_id=a'))).toBe(
      'accepted https://xn--pple-43d.example a',
    );
    expect(refusal(link('site=https://xn--fsqu00a.tw&client_id=a'))).toBe(
      'accepted https://xn--fsqu00a.tw a',
    );
  });

  it('the fragment is not read: a client_id after # does not count', () => {
    expect(refusal(`${link(`site=${SITE}`)}#&client_id=a`)).toBe('client-id-missing');
    expect(refusal(`${link(`site=${SITE}&client_id=a`)}#client_id=b`)).toBe(`accepted ${SITE} a`);
  });

  it('client_id: required, printable ASCII (RFC 6749 Appendix A.1), at most 255 characters', () => {
    expect(refusal(link(`site=${SITE}`))).toBe('client-id-missing');
    expect(refusal(link(`site=${SITE}&client_id=`))).toBe('client-id-missing');
    expect(refusal(link(`site=${SITE}&client_id=${'a'.repeat(256)}`))).toBe('client-id-invalid');
    expect(refusal(link(`site=${SITE}&client_id=${'a'.repeat(255)}`))).toBe(
      `accepted ${SITE} ${'a'.repeat(255)}`,
    );
    expect(refusal(link(`site=${SITE}&client_id=%0D%0AX-Injected:1`))).toBe('client-id-invalid');
  });

  it('every refusal the parser can give has words in the app (the list the renderer translates)', () => {
    expect(new Set(INVITE_REFUSALS).size).toBe(INVITE_REFUSALS.length);
    expect(looksLikeInviteLink(' learning-desktop://add-site')).toBe(true);
    expect(looksLikeInviteLink('https://school.example.com')).toBe(false);
  });
});

describe('the link among the arguments of a (second) instance (Windows, Linux)', () => {
  it('takes the first argument in the app’s scheme, nothing else', () => {
    const l = inviteLink(SITE, 'app_1');
    expect(inviteArgument(['/opt/Learning Desktop/learning-desktop', '--no-sandbox', l])).toBe(l);
    expect(
      inviteArgument([
        'C:\\Program Files\\Learning Desktop.exe',
        '--allow-file-access-from-files',
        l.toUpperCase(),
      ]),
    ).toBe(l.toUpperCase());
    expect(
      inviteArgument(['app', '--demo', 'https://school.example.com/add-site?site=x']),
    ).toBeNull();
    expect(inviteArgument([])).toBeNull();
  });
});

describe('invite inbox: a link the app was opened with waits for the page, once', () => {
  it('announces each link and hands the last outcome to the page one time', () => {
    const heard: unknown[] = [];
    const inbox = createInviteInbox((o) => heard.push(o));
    expect(inbox.take()).toBeNull();
    inbox.open(link(`site=${SITE}&client_id=a&client_secret=x`));
    inbox.open(inviteLink(SITE, 'app_2'));
    expect(heard).toEqual([
      { ok: false, refusal: 'secret-in-link' },
      { ok: true, invite: { baseUrl: SITE, clientId: 'app_2' } },
    ]);
    expect(inbox.take()).toEqual({ ok: true, invite: { baseUrl: SITE, clientId: 'app_2' } });
    expect(inbox.take()).toBeNull();
  });
});
