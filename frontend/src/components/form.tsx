// Small labelled controls for the organizer forms (ids, hints and errors
// wired for screen readers, as ui.tsx's Field does for text inputs).
import type { ComponentChildren } from 'preact';
import type { Clock } from '../api/types';

function describedBy(id: string, hint?: string, error?: string) {
  return [hint ? id + '-hint' : '', error ? id + '-err' : ''].filter(Boolean).join(' ') || undefined;
}

function Notes({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return (
    <>
      {hint && (
        <small id={id + '-hint'} class="hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={id + '-err'} class="field-error">
          {error}
        </small>
      )}
    </>
  );
}

export function Select<T extends string | number>(props: {
  id: string;
  label: string;
  value: T;
  options: readonly (readonly [T, string])[];
  onChange: (v: T) => void;
  hint?: string;
  error?: string;
  disabled?: boolean;
}) {
  const { id } = props;
  const numeric = typeof props.value === 'number';
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        value={String(props.value)}
        disabled={props.disabled}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy(id, props.hint, props.error)}
        onChange={(e) => {
          const v = (e.currentTarget as HTMLSelectElement).value;
          props.onChange((numeric ? Number(v) : v) as T);
        }}
      >
        {props.options.map(([v, text]) => (
          <option key={String(v)} value={String(v)}>
            {text}
          </option>
        ))}
      </select>
      <Notes id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

export function Input(props: {
  id: string;
  label: string;
  value: string | number;
  onInput: (v: string) => void;
  type?: string;
  hint?: string;
  error?: string;
  required?: boolean;
  min?: number | string;
  max?: number | string;
  step?: number | string;
  maxLength?: number;
  placeholder?: string;
  inputMode?: string;
}) {
  const { id } = props;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        type={props.type ?? 'text'}
        value={props.value}
        required={props.required}
        min={props.min}
        max={props.max}
        step={props.step}
        maxLength={props.maxLength}
        placeholder={props.placeholder}
        inputMode={props.inputMode as 'numeric' | undefined}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy(id, props.hint, props.error)}
        onInput={(e) => props.onInput((e.currentTarget as HTMLInputElement).value)}
      />
      <Notes id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

export function Check(props: { id: string; label: ComponentChildren; checked: boolean; onChange: (v: boolean) => void; hint?: string; disabled?: boolean; error?: string }) {
  const { id, error } = props;
  const describedBy = [error && id + '-err', props.hint && id + '-hint'].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field check">
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy}
        onChange={(e) => props.onChange((e.currentTarget as HTMLInputElement).checked)}
      />
      <label for={id}>{props.label}</label>
      {error && (
        <small id={id + '-err'} class="field-error">
          {error}
        </small>
      )}
      {props.hint && (
        <small id={id + '-hint'} class="hint">
          {props.hint}
        </small>
      )}
    </div>
  );
}

// The clock of a game or a tournament's games. The API takes one kind:
// turn_seconds (a time per turn), or bank_seconds with an optional
// increment_seconds (a bank for the whole game, topped up after each move),
// never both; so the form asks for the kind first and then its settings.

export type ClockMode = 'untimed' | 'turn' | 'bank';

export interface ClockChoice {
  clockMode: ClockMode;
  turnSeconds: number;
  bankSeconds: number;
  incrementSeconds: number;
}

const secs = (s: number) => (s < 60 ? `${s} s` : s < 3600 ? `${s / 60} min` : `${s / 3600} h`);
export const CLOCK_MODES = [
  ['untimed', 'untimed'],
  ['turn', 'a time per turn'],
  ['bank', 'a time bank (+ increment per move)'],
] as const;
export const TURN_SECONDS = [15, 30, 60, 120, 300].map((s) => [s, secs(s)] as const);
export const BANK_SECONDS = [60, 300, 600, 1800, 3600].map((s) => [s, secs(s)] as const);
export const INCREMENT_SECONDS = [0, 2, 5, 10, 30].map((s) => [s, s === 0 ? 'none' : `+${s} s`] as const);

/** toClock is the request's clock for the chosen kind alone; undefined when untimed. */
export function toClock(c: ClockChoice): Clock | undefined {
  if (c.clockMode === 'turn' && c.turnSeconds > 0) return { turn_seconds: c.turnSeconds };
  if (c.clockMode === 'bank' && c.bankSeconds > 0) {
    const clock: Clock = { bank_seconds: c.bankSeconds };
    if (c.incrementSeconds > 0) clock.increment_seconds = c.incrementSeconds;
    return clock;
  }
  return undefined;
}

/**
 * ClockFields: the kind of clock, then its settings. fieldError gives the
 * server's objection by API field ("clock", "clock.turn_seconds",
 * "clock.bank_seconds", "clock.increment_seconds"); one about a setting not
 * shown is shown on the kind.
 */
export function ClockFields({ idPrefix, value, onChange, fieldError }: { idPrefix: string; value: ClockChoice; onChange: (patch: Partial<ClockChoice>) => void; fieldError: (field: string) => string | undefined }) {
  const mode = value.clockMode;
  const shown: Record<string, boolean> = { turn_seconds: mode === 'turn', bank_seconds: mode === 'bank', increment_seconds: mode === 'bank' };
  const modeError =
    [fieldError('clock'), ...Object.keys(shown).map((k) => (shown[k] ? undefined : fieldError(`clock.${k}`)))].filter(Boolean).join(' ') || undefined;
  const hint = mode === 'untimed' ? 'No time limit.' : mode === 'turn' ? 'The same time for every turn.' : "Each player's time for the whole game; every move adds the increment.";
  return (
    <>
      <Select id={`${idPrefix}-clock`} label="Clock" value={mode} options={CLOCK_MODES} onChange={(v) => onChange({ clockMode: v })} hint={hint} error={modeError} />
      {mode === 'turn' && (
        <Select id={`${idPrefix}-turn`} label="Time per turn" value={value.turnSeconds} options={TURN_SECONDS} onChange={(v) => onChange({ turnSeconds: v })} error={fieldError('clock.turn_seconds')} />
      )}
      {mode === 'bank' && (
        <>
          <Select id={`${idPrefix}-bank`} label="Time bank" value={value.bankSeconds} options={BANK_SECONDS} onChange={(v) => onChange({ bankSeconds: v })} error={fieldError('clock.bank_seconds')} />
          <Select
            id={`${idPrefix}-increment`}
            label="Increment per move"
            value={value.incrementSeconds}
            options={INCREMENT_SECONDS}
            onChange={(v) => onChange({ incrementSeconds: v })}
            error={fieldError('clock.increment_seconds')}
          />
        </>
      )}
    </>
  );
}

/** SaveCancel ends a form opened in place (useEditForm): its submit button, "Saving…" while busy, and Cancel. */
export function SaveCancel({ busy, label, onCancel }: { busy: boolean; label: string; onCancel: () => void }) {
  return (
    <div class="actions-row">
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Saving…' : label}
      </button>
      <button type="button" disabled={busy} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
