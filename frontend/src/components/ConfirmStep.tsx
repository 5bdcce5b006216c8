import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { useFocusAfter } from './focus';

/**
 * ConfirmStep asks once more before what cannot be undone: its button
 * (data-action=`action`) gives way to a group named `question` holding
 * `note`, the confirming button and Cancel. The button pressed goes away, so
 * the focus goes to Cancel, the safe answer, and from Cancel back to the
 * button, rather than falling to the page. `onConfirm` acts and says whether
 * it was done; until it is, the question stays (the caller shows why not).
 * Its buttons are small (in a list, beside text) unless `small` is false:
 * among an actions row's full-size buttons ("Start now", "Pause") a small
 * "Cancel tournament…" stood out as a smaller font.
 */
export function ConfirmStep(p: {
  class: string;
  action: string;
  ask: ComponentChildren;
  askLabel?: string;
  question: string;
  note?: ComponentChildren;
  confirm: ComponentChildren;
  confirmLabel?: string;
  /** the button that leaves things as they are ("Cancel" unless given) */
  dismiss?: ComponentChildren;
  onConfirm: () => Promise<boolean>;
  children?: ComponentChildren;
  /** false: full-size buttons, as the ones beside the step */
  small?: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  // onConfirm runs once at a time: a second press before the first was answered
  // did it again, and the server's refusal of that ("the game is over") showed
  // as an error under what the first had done
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const { root, focusNext } = useFocusAfter<HTMLSpanElement>();
  const size = p.small === false ? undefined : 'small';
  const confirm = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      if (await p.onConfirm()) setConfirming(false);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return (
    <span class={p.class} ref={root}>
      {confirming ? (
        <span class="actions-row" role="group" aria-label={p.question}>
          {p.note}
          <button type="button" class={size ? `danger ${size}` : 'danger'} onClick={confirm} aria-label={p.confirmLabel} aria-disabled={busy ? 'true' : undefined}>
            {p.confirm}
          </button>
          <button
            type="button"
            class={size}
            data-action="cancel"
            onClick={() => {
              setConfirming(false);
              focusNext(`[data-action=${p.action}]`);
            }}
          >
            {p.dismiss ?? 'Cancel'}
          </button>
        </span>
      ) : (
        <button
          type="button"
          class={size}
          data-action={p.action}
          onClick={() => {
            setConfirming(true);
            focusNext('[data-action=cancel]');
          }}
          aria-label={p.askLabel}
        >
          {p.ask}
        </button>
      )}
      {p.children}
    </span>
  );
}
