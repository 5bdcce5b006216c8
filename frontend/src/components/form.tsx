// Small labelled controls for the organizer forms (ids, hints and errors
// wired for screen readers, as ui.tsx's Field does for text inputs).
import type { ComponentChildren } from 'preact';

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

export function Check(props: { id: string; label: ComponentChildren; checked: boolean; onChange: (v: boolean) => void; hint?: string; disabled?: boolean }) {
  const { id } = props;
  return (
    <div class="field check">
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={props.hint ? id + '-hint' : undefined}
        onChange={(e) => props.onChange((e.currentTarget as HTMLInputElement).checked)}
      />
      <label for={id}>{props.label}</label>
      {props.hint && (
        <small id={id + '-hint'} class="hint">
          {props.hint}
        </small>
      )}
    </div>
  );
}
