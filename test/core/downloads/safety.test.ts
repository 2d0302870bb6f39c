import { describe, expect, it } from 'vitest';
import {
  checkFileUrl,
  declaredSha256,
  detectViewAs,
  sanitizeFileName,
  suggestedName,
} from '../../../electron/core/downloads/safety';

describe('a product file address (untrusted)', () => {
  it.each([
    ['http://example.com/a.pdf', /not secure/],
    ['http://192.168.1.2/a.pdf', /not secure/],
    ['https://user:pw@example.com/a.pdf', /user name or password/],
    ['https://token@example.com/a.pdf', /user name or password/],
    ['ftp://example.com/a.pdf', /uses ftp/],
    ['file:///etc/passwd', /uses file/],
    ['javascript:alert(1)', /uses javascript/],
    ['data:application/pdf;base64,AAAA', /uses data/],
    ['not a url', /not a valid/],
    ['', /missing/],
    [`https://example.com/${'a'.repeat(5000)}`, /too long/],
  ])('refuses %s', (url, message) => {
    expect(() => checkFileUrl(url, 'https://school.example')).toThrow(message);
  });
  it('accepts https anywhere and http on loopback (RFC 8252 §8.3), dropping the fragment', () => {
    expect(checkFileUrl('https://cdn.example.com/a.pdf#x', 'https://school.example').href).toBe(
      'https://cdn.example.com/a.pdf',
    );
    expect(checkFileUrl('http://127.0.0.1:4100/a.pdf', 'http://127.0.0.1:4100').href).toBe(
      'http://127.0.0.1:4100/a.pdf',
    );
    expect(checkFileUrl('http://localhost:4100/a.pdf', 'http://127.0.0.1:4100').host).toBe(
      'localhost:4100',
    );
  });
});

describe('a file name (untrusted)', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\Windows\\system32\\evil.dll', 'evil.dll.download'],
    ['notes.pdf.exe', 'notes.pdf.exe.download'],
    ['Setup.MSI', 'Setup.MSI.download'],
    ['run.sh', 'run.sh.download'],
    ['\u202Efdp.exe', 'fdp.exe.download'],
    ['CON', '_CON'],
    ['nul.pdf', '_nul.pdf'],
    ['com1.tar.gz', '_com1.tar.gz.download'],
    ['  .hidden.pdf. ', 'hidden.pdf'],
    ['a<b>c:d"e|f?g*h.pdf', 'a_b_c_d_e_f_g_h.pdf'],
    ['line\nbreak\u0000.pdf', 'linebreak.pdf'],
    ['...', 'Fallback title'],
    ['', 'Fallback title'],
  ])('%j becomes %j', (input, expected) => {
    expect(sanitizeFileName(input, 'Fallback title')).toBe(expected);
  });
  // Only what the app opens inline keeps its extension: a list of what systems run is never
  // complete.
  it.each([
    ['course.application', 'course.application.download'],
    ['Lesson.appref-ms', 'Lesson.appref-ms.download'],
    ['help.chm', 'help.chm.download'],
    ['launch.jnlp', 'launch.jnlp.download'],
    ['open.terminal', 'open.terminal.download'],
    ['link.fileloc', 'link.fileloc.download'],
    ['page.html', 'page.html.download'],
    ['page.HTM', 'page.HTM.download'],
    ['slides.pptm', 'slides.pptm.download'],
    ['sheet.xlsm', 'sheet.xlsm.download'],
    ['letter.docm', 'letter.docm.download'],
    ['template.dotm', 'template.dotm.download'],
    ['addin.xlam', 'addin.xlam.download'],
    ['x.SettingContent-ms', 'x.SettingContent-ms.download'],
    ['y.library-ms', 'y.library-ms.download'],
    ['z.searchConnector-ms', 'z.searchConnector-ms.download'],
    ['a.averyveryverylongextension', 'a.averyveryverylongextension.download'],
    ['notes.txt', 'notes.txt.download'],
    ['workbook.xlsx', 'workbook.xlsx.download'],
    ['Handout.PDF', 'Handout.PDF'],
    ['cover.jpeg', 'cover.jpeg'],
    ['lecture.webm', 'lecture.webm'],
    ['song.mp3', 'song.mp3'],
    ['README', 'README'],
  ])('%j becomes %j', (input, expected) => {
    expect(sanitizeFileName(input)).toBe(expected);
  });
  it('a long name with a long extension is cut, and still not opened by what the extension names', () => {
    const name = sanitizeFileName(`${'a'.repeat(300)}.SettingContent-ms`);
    expect(name.endsWith('.download')).toBe(true);
    expect(name.length).toBeLessThanOrEqual(130);
  });
  it('keeps a long name under 120 characters with its extension', () => {
    const name = sanitizeFileName(`${'長'.repeat(300)}.pdf`);
    expect(name.endsWith('.pdf')).toBe(true);
    expect(name.length).toBeLessThanOrEqual(124);
  });
  it('reads RFC 6266 Content-Disposition (filename* first), else the last path segment, else the title', () => {
    const u = new URL('https://x.example/files/%E8%AC%9B%E7%BE%A9.pdf');
    expect(
      suggestedName(`attachment; filename="a.pdf"; filename*=UTF-8''%E6%9B%B8.pdf`, u, 't'),
    ).toBe('書.pdf');
    expect(suggestedName('attachment; filename="a \\"b\\".pdf"', u, 't')).toBe('a "b".pdf');
    expect(suggestedName(undefined, u, 't')).toBe('講義.pdf');
    expect(suggestedName(undefined, new URL('https://x.example/'), 'Title')).toBe('Title');
  });
});

describe('what opens inside the app', () => {
  it('needs the extension and the first bytes to agree', () => {
    expect(detectViewAs('a.pdf', Buffer.from('%PDF-1.7'))).toBe('pdf');
    expect(detectViewAs('a.pdf', Buffer.from('<html>'))).toBeNull();
    expect(
      detectViewAs('a.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
    ).toBe('image');
    expect(detectViewAs('a.wav', Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBe('audio');
    expect(detectViewAs('a.svg', Buffer.from('<svg'))).toBeNull();
    expect(detectViewAs('a.html', Buffer.from('<html>'))).toBeNull();
  });
  it('reads a declared SHA-256 (RFC 9530 Repr-Digest, RFC 3230 Digest)', () => {
    const b64 = Buffer.from('ab'.repeat(32), 'hex').toString('base64');
    expect(declaredSha256(`sha-512=:AAAA:, sha-256=:${b64}:`, undefined)).toBe('ab'.repeat(32));
    expect(declaredSha256(undefined, `SHA-256=${b64}`)).toBe('ab'.repeat(32));
    expect(declaredSha256(undefined, 'MD5=xyz')).toBeNull();
  });
});
