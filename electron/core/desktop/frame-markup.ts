/**
 * The first frame's markup (first-screen.ts), parsed against an allow-list and written out again:
 * only elements and attributes the app's own screens render survive, every attribute value is
 * decoded before it is judged (so `jav&#x61;script:` is `javascript:`), and what is sent is this
 * module's own serialisation, never the input text.
 *
 * The markup is Chromium's serialisation of the app's own DOM (element.innerHTML: HTML §13.3), so
 * the grammar is that serialiser's, strictly: lower-case tags (SVG's camel-case names aside),
 * attributes always double-quoted, text and values escaped with &amp; &lt; &gt; &quot; &nbsp; (or a
 * numeric reference), every element closed in order, no comment, no doctype. Anything else is not
 * the app's frame: the whole frame is refused (null), never repaired. No element on the list holds
 * raw text (script, style, textarea, title, ...), so escaped text stays text when the browser
 * parses the result. Nothing on it loads, submits or runs anything: no event handler; the search
 * form and its box without action, method, target, name or formaction (the frame is inert besides,
 * and a box without a name sends nothing); href only to a place in the app or an https address
 * without credentials; src only as a data: picture.
 *
 * No HTML sanitiser is among the app's dependencies (parse5 or DOMPurify would be the ones to
 * take); the grammar is small enough to hold here, and it refuses what it does not know.
 */

const HTML_ELEMENTS = new Set(
  (
    'div span p a ul ol li h1 h2 h3 h4 h5 h6 header footer main nav section article aside button strong em b i small ' +
    'mark time abbr code pre br hr img figure figcaption table thead tbody tfoot tr td th caption dl dt dd progress meter ' +
    'label details summary blockquote q sub sup s u wbr output form input select option fieldset legend'
  ).split(' '),
);
const SVG_ELEMENTS = new Set('svg g path circle ellipse rect line polyline polygon'.split(' '));
const VOID_ELEMENTS = new Set(['br', 'hr', 'img', 'wbr', 'input']);

const GLOBAL_ATTRIBUTES = new Set(
  (
    'class style role title lang dir hidden tabindex alt width height type disabled datetime value max min low high ' +
    'optimum colspan rowspan scope open loading decoding inert for placeholder readonly inputmode checked'
  ).split(' '),
);
const SVG_ATTRIBUTES = new Set(
  (
    'xmlns viewBox fill stroke stroke-width stroke-linecap stroke-linejoin stroke-dasharray stroke-dashoffset d cx cy r ' +
    'rx ry x y x1 y1 x2 y2 points transform opacity fill-opacity stroke-opacity fill-rule clip-rule focusable ' +
    'preserveAspectRatio vector-effect'
  ).split(' '),
);
/** aria-* and data-* (inert to the browser: read only by CSS and assistive technology). */
const FREE_ATTRIBUTE = /^(?:aria|data)-[a-z0-9-]{1,40}$/;

/** Named references the serialiser writes (HTML §13.3 "escaping a string"), and numeric ones. */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  nbsp: '\u00a0',
  apos: "'",
};
/**
 * CSS functions a style may use: layout only, nothing that fetches (url, image-set) or reads the
 * page (attr).
 */
const CSS_FUNCTIONS = new Set([
  'translate',
  'translatex',
  'translatey',
  'rotate',
  'scale',
  'calc',
  'rgb',
  'rgba',
  'hsl',
  'hsla',
  'var',
  'min',
  'max',
  'clamp',
]);
const DATA_PICTURE =
  /^data:image\/(?:png|jpeg|gif|webp|avif|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/;
/**
 * A scheme-like prefix after dropping what a URL parser ignores (controls, whitespace):
 * `java\tscript:`.
 */
const RUNS_OR_LOADS = /(?:java|vb)script:|url\(|expression\(|@import/i;

// Sticky: each is tried exactly where the last token ended.
const TAG = /<([A-Za-z][A-Za-z0-9-]{0,30})((?:\s+[A-Za-z][A-Za-z0-9:_-]{0,60}(?:="[^"]*")?)*)\s*>/y;
const END_TAG = /<\/([A-Za-z][A-Za-z0-9-]{0,30})>/y;
const ATTRIBUTE = /\s+([A-Za-z][A-Za-z0-9:_-]{0,60})(?:="([^"]*)")?/g;
const MAX_DEPTH = 64;

/**
 * `html` as the frame to send (re-serialised), or null when it holds anything outside the
 * allow-list.
 */
export function sanitizeFrameMarkup(html: string): string | null {
  const out: string[] = [];
  const open: string[] = [];
  let svgDepth = 0;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    const text = decode(html.slice(i, lt < 0 ? html.length : lt));
    if (text === null) return null;
    out.push(escapeText(text));
    if (lt < 0) break;
    END_TAG.lastIndex = lt;
    const end = END_TAG.exec(html);
    if (end) {
      if (open.pop() !== end[1]) return null;
      if (end[1] === 'svg') svgDepth--;
      out.push(`</${end[1]}>`);
      i = lt + end[0].length;
      continue;
    }
    TAG.lastIndex = lt;
    const tag = TAG.exec(html);
    if (!tag) return null;
    const name = tag[1]!;
    const inSvg = svgDepth > 0;
    if (
      inSvg ? !SVG_ELEMENTS.has(name) || name === 'svg' : !HTML_ELEMENTS.has(name) && name !== 'svg'
    )
      return null;
    const attributes = attributesOf(name, tag[2]!, inSvg || name === 'svg');
    if (attributes === null) return null;
    out.push(`<${name}${attributes}>`);
    if (!VOID_ELEMENTS.has(name)) {
      if (open.length >= MAX_DEPTH) return null;
      open.push(name);
      if (name === 'svg') svgDepth++;
    }
    i = lt + tag[0].length;
  }
  return open.length === 0 ? out.join('') : null;
}

/**
 * The tag's attributes, each allowed for `element` and with a value that passes its check, written
 * out again.
 */
function attributesOf(element: string, source: string, svg: boolean): string | null {
  let written = '';
  const seen = new Set<string>();
  for (const m of source.matchAll(ATTRIBUTE)) {
    const name = m[1]!;
    const value = decode(m[2] ?? '');
    if (value === null || seen.has(name)) return null;
    seen.add(name);
    if (!attributeAllowed(element, name, value, svg)) return null;
    written += ` ${name}="${escapeAttribute(value)}"`;
  }
  return written;
}

function attributeAllowed(element: string, name: string, value: string, svg: boolean): boolean {
  // eslint-disable-next-line no-control-regex -- what a URL parser drops (WHATWG URL: C0 controls and space)
  const bare = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (name === 'href')
    return (
      element === 'a' &&
      (/^(?:#|\/(?![/\\]))/.test(bare) || plainHttps(bare)) &&
      !RUNS_OR_LOADS.test(bare)
    );
  if (name === 'src') return element === 'img' && DATA_PICTURE.test(value);
  if (name === 'target') return element === 'a' && value === '_blank';
  if (name === 'rel')
    return element === 'a' && /^(?:(?:noopener|noreferrer|nofollow)(?: |$))+$/.test(value);
  // A field that is never a password, a file or a button of a form: the search box, the plan's
  // goal and its study days.
  if (name === 'type' && element === 'input')
    return ['search', 'text', 'number', 'checkbox'].includes(value);
  if (RUNS_OR_LOADS.test(bare)) return false;
  if (name === 'style') return styleAllowed(value);
  if (name === 'xmlns') return value === 'http://www.w3.org/2000/svg';
  return (
    GLOBAL_ATTRIBUTES.has(name) || FREE_ATTRIBUTE.test(name) || (svg && SVG_ATTRIBUTES.has(name))
  );
}

/**
 * An https address without a user name or password (a join link the frame shows, never followed: it
 * is inert).
 */
function plainHttps(href: string): boolean {
  try {
    const url = new URL(href);
    return (
      url.protocol === 'https:' &&
      url.username === '' &&
      url.password === '' &&
      href.startsWith('https://')
    );
  } catch {
    return false;
  }
}

/**
 * `prop: value; ...` with plain values and only the layout functions above (custom properties too:
 * `--cover-hue`).
 */
function styleAllowed(style: string): boolean {
  for (const declaration of style.split(';')) {
    if (declaration.trim() === '') continue;
    const m = /^\s*((?:--|-)?[a-z][a-z0-9-]{0,40})\s*:\s*([-a-z0-9 .,%#+()/*]{0,200})\s*$/i.exec(
      declaration,
    );
    if (!m) return false;
    for (const call of m[2]!.matchAll(/([a-z-]*)\(/gi))
      if (!CSS_FUNCTIONS.has(call[1]!.toLowerCase())) return false;
  }
  return true;
}

/**
 * Text or a value with its character references resolved; null for a bare '&' or a reference the
 * serialiser never writes.
 */
function decode(text: string): string | null {
  if (!text.includes('&')) return text;
  let bad = false;
  const decoded = text.replace(
    /&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[a-z]{2,6});|&/g,
    (whole, ref: string | undefined) => {
      if (ref === undefined) return ((bad = true), whole);
      if (ref.startsWith('#')) {
        const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
          return ((bad = true), whole);
        return String.fromCodePoint(code);
      }
      const named = NAMED[ref];
      if (named === undefined) return ((bad = true), whole);
      return named;
    },
  );
  return bad ? null : decoded;
}

const escapeText = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\u00a0/g, '&nbsp;');
const escapeAttribute = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/\u00a0/g, '&nbsp;');
