/** HTML escaping for text and attribute values (OWASP XSS prevention rule #1 and #2). */
export function escapeHtml(value: unknown): string {
  return String(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Tagged template that escapes every interpolation unless it is already `SafeHtml`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    const rendered = Array.isArray(v)
      ? v.map((x) => (x instanceof SafeHtml ? x.value : escapeHtml(x))).join('')
      : v instanceof SafeHtml
        ? v.value
        : v === null || v === undefined || v === false
          ? ''
          : escapeHtml(v);
    out += rendered + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f5f6f8;color:#1b1f24}
main{max-width:34rem;margin:3rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
main.wide{max-width:60rem}
h1{font-size:1.5rem;margin-top:0}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=password],input[type=text],textarea{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #6b7280;border-radius:4px}
input[type=checkbox]{margin-right:.5rem}
.check{display:flex;align-items:center;font-weight:600;margin:.75rem 0}
button{font:inherit;padding:.5rem 1.25rem;border-radius:4px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;margin:1rem .5rem 0 0}
button.secondary{background:#fff;color:#1d4ed8}
button.danger{border-color:#b91c1c;background:#b91c1c}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.error{color:#991b1b;background:#fef2f2;border:1px solid #fecaca;padding:.5rem .75rem;border-radius:4px}
.notice{background:#eff6ff;border:1px solid #bfdbfe;padding:.5rem .75rem;border-radius:4px}
code,.secret{font-family:ui-monospace,monospace;word-break:break-all}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #e5e7eb;vertical-align:top}
nav a{margin-right:1rem}
`;

/** The page frame: lang attribute, viewport, inline CSS only (no external assets). */
export function page(title: string, body: SafeHtml, opts: { wide?: boolean } = {}): string {
  return `<!doctype html>${
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <style>
          ${new SafeHtml(STYLE)}
        </style>
      </head>
      <body>
        <main class="${opts.wide ? 'wide' : ''}">${body}</main>
      </body>
    </html>`.value
  }`;
}
