// Managing a club from its page, exactly as the server allows it
// (league.CanManageAs, CanOrganizeAs and CanRemoveMember): the owner and
// site admins edit the club, name organizers and hand the club over (the
// old owner becomes an organizer); organizers remove plain members only;
// nobody removes the owner or changes the owner's role but by a transfer.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { Club, ClubUpdate, Member, MemberRoleUpdate, User } from '../api/types';
import { EditNamed } from '../components/EditNamed';
import { useFocusAfter } from '../components/focus';
import { errorText, sentence } from '../components/ui';
import { api } from '../session';

const enc = encodeURIComponent;

export interface ClubRights {
  /** edit the club, set members' roles, transfer the club */
  manage: boolean;
  /** remove plain members (and make invites) */
  organize: boolean;
}

export function clubRights(role: string | undefined, user: User | null): ClubRights {
  if (!user) return { manage: false, organize: false };
  const manage = role === 'owner' || user.is_admin;
  return { manage, organize: manage || role === 'organizer' };
}

/** canRemove: the owner and site admins remove anyone but the owner, organizers plain members. */
export function canRemove(rights: ClubRights, target: Member): boolean {
  if (target.role === 'owner') return false;
  return rights.manage || (rights.organize && target.role === 'member');
}

/** EditClub edits the club's name and description (owner and site admins). */
export function EditClub({ club, onSaved }: { club: Club; onSaved: (c: Club) => void }) {
  return (
    <EditNamed
      id="club-edit"
      class="club-manage"
      heading="Manage the club"
      ask="Edit name and description…"
      nameLabel="Club name"
      nameMax={64}
      name={club.name}
      description={club.description}
      descriptionLabel="Club description"
      save={async (body: ClubUpdate) => {
        const c = await api.patch<Club>(`/clubs/${enc(club.id)}`, body);
        onSaved({ ...club, ...c, viewer_role: club.viewer_role });
      }}
    >
      <p class="muted small">
        Members' roles, removing members and handing the club over: the buttons next to each name under <a href="#members-title">Members</a>.
      </p>
    </EditNamed>
  );
}

/** What a member row changed, for the page to show without reading the list again. */
export type MemberChange = { kind: 'role'; member: Member } | { kind: 'removed'; userId: string } | { kind: 'owner'; userId: string; club: Club };

type Confirming = 'remove' | 'transfer' | null;

/** MemberRow is one member with the controls the viewer may use on them. */
export function MemberRow({
  club,
  member,
  rights,
  me,
  onChange,
}: {
  club: Club;
  member: Member;
  rights: ClubRights;
  me: User | null;
  onChange: (c: MemberChange) => void;
}) {
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const m = member;
  const self = me?.id === m.user_id;
  const setRole = rights.manage && !self && m.role !== 'owner';
  const remove = !self && canRemove(rights, m);
  const transfer = rights.manage && !self && m.role !== 'owner';
  const base = `/clubs/${enc(club.id)}`;
  // Opening a confirmation puts the focus on its Cancel, closing it returns
  // the focus to the button that opened it; a role change keeps it on the
  // role button, a handover on the member's name.
  const { root, focusNext } = useFocusAfter<HTMLLIElement>();
  const ask = (what: Exclude<Confirming, null>) => {
    setConfirming(what);
    focusNext('[data-action=cancel]');
  };
  const cancel = () => {
    focusNext(`[data-action=${confirming}]`);
    setConfirming(null);
  };

  const act = async (fn: () => Promise<void>, after: string) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      setConfirming(null);
      focusNext(after);
    } catch (err) {
      setError(err);
      // the confirmation (or the row's buttons) stay: keep the focus on what was pressed
      focusNext(confirming ? '[data-action=confirm]' : '[data-action=role]');
    } finally {
      setBusy(false);
    }
  };
  const changeRole = (role: MemberRoleUpdate['role']) =>
    act(async () => {
      const body: MemberRoleUpdate = { role };
      onChange({ kind: 'role', member: await api.patch<Member>(`${base}/members/${enc(m.user_id)}`, body) });
    }, '[data-action=role]');
  const doRemove = () =>
    act(async () => {
      await api.del(`${base}/members/${enc(m.user_id)}`);
      onChange({ kind: 'removed', userId: m.user_id });
    }, '');
  const doTransfer = () =>
    act(async () => {
      const body: ClubUpdate = { owner_id: m.user_id };
      onChange({ kind: 'owner', userId: m.user_id, club: await api.patch<Club>(base, body) });
    }, '.member-name a');

  const fe = error instanceof ApiError ? error : null;
  const fieldMsg = fe?.fieldError('owner_id') ?? fe?.fieldError('role');
  const errId = `member-${m.user_id}-err`;

  return (
    <li class="member-row" data-user={m.username} data-role={m.role} ref={root}>
      <span class="member-name">
        <a href={`/users/${m.user_id}`}>{m.username}</a> {m.role !== 'member' && <span class="tag">{m.role}</span>}
      </span>
      {(setRole || remove || transfer) && !confirming && (
        <span class="member-actions actions-row">
          {setRole &&
            (m.role === 'member' ? (
              <button type="button" class="small" data-action="role" disabled={busy} onClick={() => changeRole('organizer')} aria-label={`Make organizer: ${m.username}`}>
                Make organizer
              </button>
            ) : (
              <button type="button" class="small" data-action="role" disabled={busy} onClick={() => changeRole('member')} aria-label={`Make member: ${m.username}`}>
                Make member
              </button>
            ))}
          {transfer && (
            <button type="button" class="small" data-action="transfer" disabled={busy} onClick={() => ask('transfer')} aria-label={`Make owner: ${m.username}…`}>
              Make owner…
            </button>
          )}
          {remove && (
            <button type="button" class="small" data-action="remove" disabled={busy} onClick={() => ask('remove')} aria-label={`Remove ${m.username} from the club…`}>
              Remove…
            </button>
          )}
        </span>
      )}
      {confirming === 'remove' && (
        <Confirm label={`Remove ${m.username}?`} action={`Remove ${m.username}`} busy={busy} onConfirm={doRemove} onCancel={cancel}>
          Remove <strong>{m.username}</strong> from {club.name}? They can come back only with a new invite code.
        </Confirm>
      )}
      {confirming === 'transfer' && (
        <Confirm
          label={`Hand the club to ${m.username}?`}
          action={`Hand the club to ${m.username}`}
          busy={busy}
          onConfirm={doTransfer}
          onCancel={cancel}
        >
          Hand {club.name} to <strong>{m.username}</strong>? They become its owner, and{' '}
          {club.owner_id && club.owner_id === me?.id ? 'you stay on as an organizer' : 'the present owner stays on as an organizer'}.
        </Confirm>
      )}
      {error ? (
        <small id={errId} class="field-error member-error" role="alert">
          {errorText(error)}
          {fieldMsg ? ` ${sentence(fieldMsg)}` : ''}
        </small>
      ) : null}
    </li>
  );
}

/** applyChanges shows a page of members with the changes made on it since it was read. */
export function applyChanges(members: Member[], changes: Record<string, Member | null>): Member[] {
  return members.flatMap((m) => {
    const c = changes[m.user_id];
    return c === null ? [] : [c ?? m];
  });
}

/** Confirm asks before a change that cannot be taken back: the question, then the action and Cancel. */
function Confirm(props: { label: string; action: string; busy: boolean; onConfirm: () => void; onCancel: () => void; children: ComponentChildren }) {
  return (
    <div class="member-confirm" role="group" aria-label={props.label}>
      <p>{props.children}</p>
      <span class="actions-row">
        <button type="button" class="danger small" data-action="confirm" disabled={props.busy} onClick={props.onConfirm}>
          {props.action}
        </button>
        <button type="button" class="small" data-action="cancel" disabled={props.busy} onClick={props.onCancel}>
          Cancel
        </button>
      </span>
    </div>
  );
}
