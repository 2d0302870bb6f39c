import { describe, expect, it } from 'vitest';
import { coverHue, monogram } from '../../renderer/src/ui/cover';
import { buttonKey, menuKey } from '../../renderer/src/ui/menu-model';
import { ringGeometry } from '../../renderer/src/ui/progress-ring';

describe('progress ring geometry', () => {
  it('keeps the whole stroke inside the box', () => {
    const g = ringGeometry(40, 64, 6);
    expect(g.center).toBe(32);
    expect(g.radius).toBe(29);
    expect(g.radius + 6 / 2).toBe(32);
    expect(g.circumference).toBeCloseTo(2 * Math.PI * 29, 10);
  });

  it('dashes the done part: 0 % leaves the full circumference undrawn, 100 % none, 25 % three quarters', () => {
    const c = ringGeometry(0, 48, 4).circumference;
    expect(ringGeometry(0, 48, 4).dashOffset).toBeCloseTo(c, 10);
    expect(ringGeometry(100, 48, 4).dashOffset).toBeCloseTo(0, 10);
    expect(ringGeometry(25, 48, 4).dashOffset).toBeCloseTo(c * 0.75, 10);
  });

  it('clamps and rounds what it says; NaN (a course without lectures) is nothing done', () => {
    expect(ringGeometry(-12, 48, 4).percent).toBe(0);
    expect(ringGeometry(180, 48, 4).percent).toBe(100);
    expect(ringGeometry(180, 48, 4).dashOffset).toBeCloseTo(0, 10);
    expect(ringGeometry(33.5, 48, 4).percent).toBe(34);
    expect(ringGeometry(Number.NaN, 48, 4).percent).toBe(0);
    expect(ringGeometry(Number.NaN, 48, 4).dashOffset).toBeCloseTo(
      ringGeometry(0, 48, 4).circumference,
      10,
    );
  });

  it('refuses a stroke that does not fit', () => {
    expect(() => ringGeometry(50, 10, 5)).toThrow(RangeError);
    expect(() => ringGeometry(50, 0, 1)).toThrow(RangeError);
    expect(() => ringGeometry(50, 10, 0)).toThrow(RangeError);
  });
});

describe('menu button keyboard model (WAI-ARIA APG menu button)', () => {
  const labels = ['Demo School', 'Second School', 'Add a site'];

  it('the button opens on the first item with Enter, Space, ArrowDown and on the last with ArrowUp', () => {
    expect(buttonKey('Enter', 3)).toEqual({ kind: 'open', index: 0 });
    expect(buttonKey(' ', 3)).toEqual({ kind: 'open', index: 0 });
    expect(buttonKey('ArrowDown', 3)).toEqual({ kind: 'open', index: 0 });
    expect(buttonKey('ArrowUp', 3)).toEqual({ kind: 'open', index: 2 });
    expect(buttonKey('a', 3)).toEqual({ kind: 'none' });
    expect(buttonKey('Enter', 0)).toEqual({ kind: 'none' });
  });

  it('arrows move and wrap at both ends; Home and End jump', () => {
    expect(menuKey('ArrowDown', 0, labels)).toEqual({ kind: 'move', index: 1 });
    expect(menuKey('ArrowDown', 2, labels)).toEqual({ kind: 'move', index: 0 });
    expect(menuKey('ArrowUp', 0, labels)).toEqual({ kind: 'move', index: 2 });
    expect(menuKey('ArrowUp', 2, labels)).toEqual({ kind: 'move', index: 1 });
    expect(menuKey('Home', 2, labels)).toEqual({ kind: 'move', index: 0 });
    expect(menuKey('End', 0, labels)).toEqual({ kind: 'move', index: 2 });
  });

  it('Enter and Space activate the active item; Escape closes back to the button; Tab closes and moves on', () => {
    expect(menuKey('Enter', 1, labels)).toEqual({ kind: 'activate', index: 1 });
    expect(menuKey(' ', 2, labels)).toEqual({ kind: 'activate', index: 2 });
    expect(menuKey('Escape', 1, labels)).toEqual({ kind: 'close', restoreFocus: true });
    expect(menuKey('Tab', 1, labels)).toEqual({ kind: 'close', restoreFocus: false });
  });

  it('a typed character moves to the next item starting with it, wrapping, case-insensitive', () => {
    expect(menuKey('s', 0, labels)).toEqual({ kind: 'move', index: 1 });
    expect(menuKey('A', 0, labels)).toEqual({ kind: 'move', index: 2 });
    expect(menuKey('d', 2, labels)).toEqual({ kind: 'move', index: 0 });
    expect(menuKey('z', 0, labels)).toEqual({ kind: 'none' });
    expect(menuKey('Shift', 0, labels)).toEqual({ kind: 'none' });
    // Traditional Chinese names match on their first character.
    expect(menuKey('第', 0, ['示範學校', '第二所學校'])).toEqual({ kind: 'move', index: 1 });
  });

  it('an out-of-range active index is clamped, an empty menu only closes', () => {
    expect(menuKey('ArrowDown', 9, labels)).toEqual({ kind: 'move', index: 0 });
    expect(menuKey('Enter', -1, labels)).toEqual({ kind: 'activate', index: 0 });
    expect(menuKey('ArrowDown', 0, [])).toEqual({ kind: 'none' });
    expect(menuKey('Escape', 0, [])).toEqual({ kind: 'close', restoreFocus: true });
  });
});

describe('course covers without a picture', () => {
  it('get a hue from the course id: stable, in range, and different courses mostly differ', () => {
    expect(coverHue('crs_1')).toBe(coverHue('crs_1'));
    const hues = Array.from({ length: 60 }, (_, i) => coverHue(`crs_${i}`));
    for (const h of hues) expect(h >= 0 && h < 360 && Number.isInteger(h)).toBe(true);
    expect(new Set(hues).size).toBeGreaterThan(40);
  });

  it('show the first letter or character of the title', () => {
    expect(monogram('  intro to ML')).toBe('I');
    expect(monogram('資料科學入門')).toBe('資');
    expect(monogram('')).toBe('');
  });
});
