import { describe, expect, it } from 'vitest';
import { pick, score, type PaletteItem } from '../../renderer/src/features/palette/palette';

const items: PaletteItem[] = [
  { id: 'go-billing', kind: 'screen', label: 'Purchases' },
  { id: 'sync', kind: 'command', label: 'Sync now' },
  {
    id: 'c1',
    kind: 'course',
    label: 'Intro to Data Analysis 資料分析入門',
    keywords: ['Mei-Ling Chen'],
  },
  { id: 'c2', kind: 'course', label: 'Machine Learning in Practice 機器學習實戰' },
  { id: 'o1', kind: 'order', label: 'Intro to Data Analysis', keywords: ['T20260105'] },
  { id: 's2', kind: 'school', label: 'Second Demo School' },
];
const ids = (q: string) => pick(items, q).map((i) => i.id);

describe('command palette matching', () => {
  it('lists everything with nothing typed, commands and screens first', () => {
    expect(ids('')).toEqual(['sync', 'go-billing', 's2', 'c1', 'c2', 'o1']);
  });

  it('every query word must start a word of the label or a keyword, in any case', () => {
    expect(ids('int data')).toEqual(['c1', 'o1']);
    expect(ids('DATA')).toEqual(['c1', 'o1']);
    expect(ids('chen')).toEqual(['c1']);
    expect(ids('t2026')).toEqual(['o1']);
    expect(ids('ata')).toEqual([]);
    expect(ids('data xyz')).toEqual([]);
  });

  it('finds Chinese inside a word, and full-width letters as their ASCII forms', () => {
    expect(ids('分析')).toEqual(['c1']);
    expect(ids('學習')).toEqual(['c2']);
    expect(ids('ＳＹＮＣ')).toEqual(['sync']);
  });

  it('ranks a label that starts with the query first', () => {
    expect(score(items[1]!, 'sync')).toBeGreaterThan(score(items[5]!, 'school'));
    expect(ids('s')[0]).toBe('sync');
    expect(pick(items, '', 2)).toHaveLength(2);
  });
});
