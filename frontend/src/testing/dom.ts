// What a user does to a mounted page in a test, as the browser would send
// it: type into a field (an input event), choose an option (a change
// event), press a button or submit a form, each then letting the page's
// requests answer and the page render (settle).
import { act } from 'preact/test-utils';
import { expect } from 'vitest';
import { settle } from './stubApi';

/** typeInto sets the field at sel (within root) to v, as typing would. */
export function typeInto(root: Element, sel: string, v: string) {
  act(() => {
    const el = root.querySelector(sel) as HTMLInputElement;
    el.value = v;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** choose picks the option v of the select at sel (within root). */
export function choose(root: Element, sel: string, v: string) {
  act(() => {
    const el = root.querySelector(sel) as HTMLSelectElement;
    el.value = v;
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** press clicks el, which must be there, and lets the page settle. */
export async function press(el: Element | null) {
  expect(el).not.toBeNull();
  act(() => (el as HTMLElement).click());
  await settle();
}

/** submitForm submits form, which must be there, and lets the page settle. */
export async function submitForm(form: Element | null) {
  expect(form).not.toBeNull();
  await act(async () => void (form as HTMLFormElement).dispatchEvent(new Event('submit', { cancelable: true })));
  await settle();
}
