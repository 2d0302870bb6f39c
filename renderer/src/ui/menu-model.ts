/**
 * The keyboard model of a menu button (WAI-ARIA Authoring Practices, "Menu Button" and "Menu"
 * patterns), as pure functions: which item is active after a key, and what the key does. The
 * component only applies the result.
 *
 * Button: Enter, Space and ArrowDown open the menu on the first item; ArrowUp opens it on the last.
 * Menu: ArrowDown/ArrowUp move and wrap; Home/End go to the ends; a printable character moves to
 * the next item whose label starts with it; Enter/Space activate; Escape closes and returns focus
 * to the button; Tab closes and lets focus move on.
 */
export type MenuAction =
  | { readonly kind: 'open'; readonly index: number }
  | { readonly kind: 'move'; readonly index: number }
  | { readonly kind: 'activate'; readonly index: number }
  | { readonly kind: 'close'; readonly restoreFocus: boolean }
  | { readonly kind: 'none' };

const NONE: MenuAction = { kind: 'none' };

/** A key pressed on the closed menu's button. `count` is the number of items. */
export function buttonKey(key: string, count: number): MenuAction {
  if (count === 0) return NONE;
  switch (key) {
    case 'Enter':
    case ' ':
    case 'ArrowDown':
      return { kind: 'open', index: 0 };
    case 'ArrowUp':
      return { kind: 'open', index: count - 1 };
    default:
      return NONE;
  }
}

/**
 * A key pressed while the menu is open with item `active` focused; `labels` are the items' visible
 * names.
 */
export function menuKey(key: string, active: number, labels: readonly string[]): MenuAction {
  const count = labels.length;
  if (count === 0) return key === 'Escape' ? { kind: 'close', restoreFocus: true } : NONE;
  const at = Math.min(Math.max(active, 0), count - 1);
  switch (key) {
    case 'ArrowDown':
      return { kind: 'move', index: (at + 1) % count };
    case 'ArrowUp':
      return { kind: 'move', index: (at - 1 + count) % count };
    case 'Home':
    case 'PageUp':
      return { kind: 'move', index: 0 };
    case 'End':
    case 'PageDown':
      return { kind: 'move', index: count - 1 };
    case 'Enter':
    case ' ':
      return { kind: 'activate', index: at };
    case 'Escape':
      return { kind: 'close', restoreFocus: true };
    case 'Tab':
      return { kind: 'close', restoreFocus: false };
    default:
      return typeAhead(key, at, labels);
  }
}

/**
 * A single printable character: the next item (after the active one, wrapping) whose label starts
 * with it.
 */
function typeAhead(key: string, at: number, labels: readonly string[]): MenuAction {
  if ([...key].length !== 1 || key.trim() === '') return NONE;
  const wanted = key.toLocaleLowerCase();
  for (let step = 1; step <= labels.length; step++) {
    const i = (at + step) % labels.length;
    if ((labels[i] ?? '').trim().toLocaleLowerCase().startsWith(wanted))
      return { kind: 'move', index: i };
  }
  return NONE;
}
