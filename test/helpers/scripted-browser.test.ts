import { describe, expect, it } from 'vitest';
import { parseForms } from './scripted-browser';

describe('Scripted browser form parsing (shared test helper)', () => {
  it('reads action, method, hidden inputs (entities decoded), checked boxes only, textareas and named buttons', () => {
    const forms = parseForms(`
      <form method="post" action="/oauth/authorize/decision">
        <input type="hidden" name="csrf" value="a&amp;b&quot;c">
        <input type="checkbox" name="confidential" value="on">
        <input type="checkbox" name="keep" value="yes" checked>
        <textarea name="redirect_uris">http://127.0.0.1/cb&lt;x&gt;</textarea>
        <button type="submit" name="decision" value="approve">Allow</button>
        <button type="submit" name="decision" value="deny">Deny</button>
      </form>
      <form action="/other"><input name="q"></form>`);
    expect(forms).toHaveLength(2);
    expect(forms[0]).toEqual({
      action: '/oauth/authorize/decision',
      method: 'post',
      fields: { csrf: 'a&b"c', keep: 'yes', redirect_uris: 'http://127.0.0.1/cb<x>' },
      buttons: { decision: ['approve', 'deny'] },
    });
    expect(forms[1]).toMatchObject({ action: '/other', method: 'get', fields: { q: '' } });
  });
});
