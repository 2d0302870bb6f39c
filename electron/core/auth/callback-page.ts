/**
 * The page the browser tab shows at the end of a sign-in (RFC 8252 §7.3 loopback redirect): the
 * app's real verdict, given after the code exchange and the identity check, in the browser's
 * language (English or Traditional Chinese, from Accept-Language), and on failure what to do next.
 * Self-contained: no script, no external asset, no URL.
 */

/** Why a sign-in failed, as far as the student can act on it. */
export type FailureReason =
  | 'clock'
  | 'algorithm'
  | 'client'
  | 'server'
  | 'network'
  | 'scope'
  | 'access'
  | 'organization'
  | 'safety'
  | 'site';

export type CallbackVerdict =
  | { readonly kind: 'success' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly reason: FailureReason }
  /** No verdict in time (or none to give): the app will tell. */
  | { readonly kind: 'pending' };

export type PageLanguage = 'en' | 'zh-TW';

/**
 * RFC 9110 §12.5.4: the first language range the page has; Chinese of any region gets Traditional
 * Chinese.
 */
export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    if (tag.startsWith('zh')) return 'zh-TW';
    if (tag.startsWith('en')) return 'en';
  }
  return 'en';
}

interface PageText {
  readonly title: string;
  readonly body: string;
}

const TEXT: Record<
  PageLanguage,
  {
    pages: Record<Exclude<CallbackVerdict['kind'], 'failed'> | 'failed', PageText>;
    next: Record<FailureReason, string>;
    lang: string;
  }
> = {
  en: {
    lang: 'en',
    pages: {
      success: { title: 'You are signed in', body: 'You can close this tab and return to APP.' },
      cancelled: {
        title: 'Sign-in cancelled',
        body: 'Nothing was changed. You can close this tab and return to APP.',
      },
      failed: {
        title: 'Sign-in did not complete',
        body: 'APP could not finish signing you in. You can close this tab.',
      },
      pending: {
        title: 'Return to APP to finish',
        body: 'The site answered. Return to APP: it finishes the sign-in and tells you how it went.',
      },
    },
    next: {
      clock:
        "What to do: check that this computer's date, time and time zone are right (set them to update automatically), then sign in again from APP.",
      algorithm:
        'What to do: nothing on your computer will fix this. Tell your school that the app cannot accept how the site signs its identity answer.',
      client:
        'What to do: check the application ID (client_id) with your school, then add the site again in APP.',
      server: 'What to do: the site had a problem of its own. Try again from APP in a few minutes.',
      network: 'What to do: check your internet connection, then sign in again from APP.',
      scope: 'What to do: the site refused the permissions the app asks for. Tell your school.',
      access:
        "What to do: nothing on your computer will fix this. The school's sign-in does not give the app access to your member data; tell your school. APP kept nothing from this sign-in.",
      organization: 'What to do: sign in again from APP with your account for this school.',
      safety:
        'What to do: the answer did not match this sign-in, so it was stopped for your safety. Start the sign-in again from APP and use only the newest page.',
      site: 'What to do: sign in again from APP. If it keeps failing, APP explains what happened; tell your school.',
    },
  },
  'zh-TW': {
    lang: 'zh-Hant-TW',
    pages: {
      success: { title: '你已登入', body: '你可以關閉這個分頁，回到 APP。' },
      cancelled: { title: '已取消登入', body: '沒有任何變更。你可以關閉這個分頁，回到 APP。' },
      failed: { title: '登入未完成', body: 'APP 無法完成登入。你可以關閉這個分頁。' },
      pending: {
        title: '請回到 APP 完成登入',
        body: '網站已回應。請回到 APP：它會完成登入並告訴你結果。',
      },
    },
    next: {
      clock: '建議做法：確認這台電腦的日期、時間與時區正確（設為自動更新），再從 APP 重新登入。',
      algorithm:
        '建議做法：這不是你的電腦能解決的問題。請告訴學校：應用程式無法接受網站簽署身分資料的方式。',
      client: '建議做法：向學校確認應用程式 ID（client_id），再於 APP 重新加入網站。',
      server: '建議做法：網站本身出了問題，請過幾分鐘再從 APP 重試。',
      network: '建議做法：檢查網路連線，再從 APP 重新登入。',
      scope: '建議做法：網站拒絕了應用程式要求的權限，請告訴學校。',
      access:
        '建議做法：這不是你的電腦能解決的問題。這個網站的登入無法讓應用程式讀取你的會員資料，請告訴學校。APP 沒有保留這次登入的任何資料。',
      organization: '建議做法：從 APP 重新登入，並使用這所學校的帳號。',
      safety:
        '建議做法：回應與這次登入不符，為了你的安全已停止。請從 APP 重新開始登入，並只使用最新的頁面。',
      site: '建議做法：從 APP 重新登入。若一直失敗，APP 會說明原因；請告訴學校。',
    },
  },
};

export function renderCallbackPage(
  verdict: CallbackVerdict,
  language: PageLanguage,
  appName: string,
): string {
  const text = TEXT[language];
  const page = text.pages[verdict.kind];
  const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const fill = (s: string): string => esc(s.replaceAll('APP', appName));
  const next = verdict.kind === 'failed' ? `<p>${fill(text.next[verdict.reason])}</p>` : '';
  return `<!doctype html>
<html lang="${text.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${fill(page.title)} - ${esc(appName)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1b1b1b;background:#fafafa}
h1{font-size:1.4rem}@media (prefers-color-scheme:dark){body{color:#eee;background:#1b1b1b}}</style></head>
<body><main><h1>${fill(page.title)}</h1><p>${fill(page.body)}</p>${next}</main></body></html>
`;
}
