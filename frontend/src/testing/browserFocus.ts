// Real browsers' focus rules that happy-dom leaves out, for the tests of
// where the keyboard focus goes: a disabled control takes no focus
// (focus() on it does nothing), and a focused control that becomes
// disabled loses the focus to the page, as Chromium does.
import { afterEach, beforeEach } from 'vitest';

const disabledOf = (el: Element) => (el as HTMLButtonElement).disabled === true;

/** focusRefused lists the elements something tried to focus while they were disabled. */
export const focusRefused: HTMLElement[] = [];

/**
 * browserFocus, called in a describe block, puts the rules in place for
 * each of its tests.
 */
export function browserFocus() {
  let undo: (() => void)[] = [];
  beforeEach(() => void (undo = install()));
  afterEach(() => {
    undo.forEach((f) => f());
    focusRefused.length = 0;
  });
}

function install(): (() => void)[] {
  const focus = HTMLElement.prototype.focus;
  HTMLElement.prototype.focus = function (this: HTMLElement, opts?: FocusOptions) {
    if (disabledOf(this)) {
      focusRefused.push(this);
      return;
    }
    focus.call(this, opts);
  };
  const restore: (() => void)[] = [() => (HTMLElement.prototype.focus = focus)];
  for (const proto of [HTMLButtonElement.prototype, HTMLInputElement.prototype, HTMLSelectElement.prototype, HTMLTextAreaElement.prototype]) {
    const d = Object.getOwnPropertyDescriptor(proto, 'disabled');
    if (!d?.set || !d.get) continue;
    Object.defineProperty(proto, 'disabled', {
      configurable: true,
      enumerable: d.enumerable,
      get: d.get,
      set(this: HTMLElement, v: boolean) {
        if (v && document.activeElement === this) this.blur();
        d.set!.call(this, v);
      },
    });
    restore.push(() => Object.defineProperty(proto, 'disabled', d));
  }
  return restore;
}

/**
 * pressInBrowser focuses a button and clicks it as a person does, outside
 * act(): the renders and effects then come one by one, as they do in a
 * browser (act() would batch them into one), until the page settles.
 */
export async function pressInBrowser(el: HTMLElement | null) {
  if (!el) throw new Error('nothing to press');
  el.focus();
  el.click();
  for (let i = 0; i < 4; i++) await new Promise((r) => setTimeout(r, 40));
}
