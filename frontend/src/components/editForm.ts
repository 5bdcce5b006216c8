import { useState } from 'preact/hooks';
import { useFocusAfter } from './focus';

/**
 * useEditForm runs a form that a button opens in place (a club's, a
 * league's or a season's name): start fills the fields afresh (reset) and
 * opens it with the focus on its first field; close shuts it and gives
 * the focus back to the button; submit saves, then closes it with
 * "Saved." (saved), or keeps it open with the server's objection (error),
 * the focus on the field at fault when focusInvalid is set.
 */
export function useEditForm<T extends HTMLElement = HTMLElement>(o: { first: string; opener: string; reset: () => void; save: () => Promise<void>; focusInvalid?: boolean }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const { root, focusNext } = useFocusAfter<T>();
  const start = () => {
    o.reset();
    setError(null);
    setSaved(false);
    setOpen(true);
    focusNext(o.first);
  };
  const close = () => {
    setOpen(false);
    focusNext(o.opener);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await o.save();
      close();
      setSaved(true);
    } catch (err) {
      setError(err);
      if (o.focusInvalid) focusNext('[aria-invalid=true]', 'button[type=submit]');
    } finally {
      setBusy(false);
    }
  };
  return { open, busy, error, saved, root, start, close, submit };
}
