import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { useEditForm } from './editForm';
import { SaveCancel } from './form';
import { ErrorBox, Field, TextArea, unplaced } from './ui';

/**
 * EditNamed edits a club's, a league's or a season's name (and a club's or
 * a league's description): a button opens the form, the server's
 * objections show at their fields (once: not again in the box above the
 * buttons), and "Saved." once it is done. With description undefined there
 * is no description field.
 */
export function EditNamed(props: {
  /** the ids' prefix (club-edit, league-edit, season-edit), also the opening button's data-action */
  id: string;
  /** the section's class (the id unless given) */
  class?: string;
  heading: string;
  ask: string;
  nameLabel: string;
  /** the longest name the API takes, in characters */
  nameMax: number;
  name: string;
  description?: string;
  descriptionLabel?: string;
  save: (body: { name: string; description?: string }) => Promise<void>;
  /** said under the form or its button */
  children?: ComponentChildren;
}) {
  const { id } = props;
  const [name, setName] = useState(props.name);
  const [desc, setDesc] = useState(props.description ?? '');
  const withDescription = props.description !== undefined;
  const { open, busy, error, saved, root, start, close, submit } = useEditForm({
    first: `#f-${id}-name`,
    opener: `[data-action=${id}]`,
    reset: () => {
      setName(props.name);
      setDesc(props.description ?? '');
    },
    save: () => props.save(withDescription ? { name: name.trim(), description: desc.trim() } : { name: name.trim() }),
    focusInvalid: true,
  });
  const fe = error instanceof ApiError ? error : null;
  return (
    <section class={`card-box ${props.class ?? id}`} aria-labelledby={`${id}-title`} ref={root}>
      <h2 id={`${id}-title`}>{props.heading}</h2>
      {open ? (
        <form class="form narrow" onSubmit={submit}>
          <Field label={props.nameLabel} name={`${id}-name`} value={name} onInput={setName} required maxLength={props.nameMax} error={fe?.fieldError('name')} />
          {withDescription && (
            <TextArea
              id={`${id}-description`}
              label={props.descriptionLabel ?? 'Description'}
              value={desc}
              onInput={setDesc}
              maxLength={2000}
              error={fe?.fieldError('description')}
            />
          )}
          <ErrorBox error={unplaced(error, (f) => f === 'name' || (withDescription && f === 'description'))} />
          <SaveCancel busy={busy} label="Save changes" onCancel={close} />
        </form>
      ) : (
        <p class="actions-row">
          <button type="button" data-action={id} onClick={start}>
            {props.ask}
          </button>
          {saved && (
            <span class="ok" role="status">
              Saved.
            </span>
          )}
        </p>
      )}
      {props.children}
    </section>
  );
}
