import { useEffect, useState } from 'preact/hooks';
import type { Club, Invite, Member } from '../api/types';
import { ConfirmStep } from '../components/ConfirmStep';
import { CopyButton } from '../components/CopyButton';
import { useFocusAfter } from '../components/focus';
import { ShowMore, usePagedList } from '../components/list';
import { counted } from '../components/plural';
import { ErrorBox, Field, LoadFailed, Loading, LoadingPage, Page, unplaced, useAction, useLoad, when } from '../components/ui';
import { navigate, useLocation } from '../router';
import { api, useSession } from '../session';
import { applyChanges, clubRights, EditClub, MemberRow, type MemberChange } from './ClubManage';
import { ClubCompetitions } from './Leagues';

export function ClubList() {
  const { user } = useSession();
  const { query } = useLocation();
  const [q, setQ] = useState(query.get('q') ?? '');
  const [applied, setApplied] = useState(q);
  const clubs = usePagedList<Club>(applied ? `/clubs?q=${encodeURIComponent(applied)}` : '/clubs', [applied]);
  const items = clubs.data ?? [];

  const [name, setName] = useState('');
  const [desc, setDesc] = useState('');
  // one request at a time: a second submit while the first was under way was sent too
  const { busy: creating, error: createError, fieldErrors: ce, run } = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const c = await api.post<Club>('/clubs', { name: name.trim(), description: desc.trim() });
      navigate(`/clubs/${c.id}`);
    });
  };

  return (
    <Page title="Clubs" wide>
      <h1>Clubs</h1>
      <form
        class="search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(q.trim());
        }}
      >
        <label for="club-q">Search clubs</label>
        <input id="club-q" type="search" value={q} onInput={(e) => setQ((e.currentTarget as HTMLInputElement).value)} />
        <button type="submit">Search</button>
      </form>
      <ErrorBox error={clubs.error} />
      {clubs.data?.length === 0 && <p class="muted">No clubs{applied ? ` match “${applied}”` : ' yet'}.</p>}
      <ul class="club-list">
        {items.map((c) => (
          <li key={c.id}>
            <a href={`/clubs/${c.id}`}>{c.name}</a> <span class="muted">· {counted(c.member_count, 'member')}</span>
            {c.description && <div class="muted small">{c.description}</div>}
          </li>
        ))}
      </ul>
      {!clubs.data && !clubs.error && <Loading />}
      <ShowMore list={clubs} label="More clubs" />
      {user && (
        <section class="card-box" aria-labelledby="create-club">
          <h2 id="create-club">Create a club</h2>
          <form class="form narrow" onSubmit={create}>
            <Field label="Name" name="club-name" value={name} onInput={setName} required maxLength={64} error={ce?.fieldError('name')} />
            <Field label="Description" name="club-description" value={desc} onInput={setDesc} error={ce?.fieldError('description')} />
            {/* a refusal said at its field is not said again ("is taken" at the name, then "a club of that name exists") */}
            <ErrorBox error={unplaced(createError, (f) => f === 'name' || f === 'description')} />
            <button type="submit" class="primary" aria-disabled={creating ? 'true' : undefined}>
              {creating ? 'Creating…' : 'Create'}
            </button>
          </form>
        </section>
      )}
    </Page>
  );
}

export function ClubPage({ id }: { id: string }) {
  const { user } = useSession();
  const { query } = useLocation();
  const club = useLoad(() => api.get<Club>(`/clubs/${encodeURIComponent(id)}`), [id, user?.id]);
  const members = usePagedList<Member>(`/clubs/${encodeURIComponent(id)}/members`, [id, user?.id]);
  const [code, setCode] = useState(query.get('code') ?? '');
  // joining and making an invite code: one request at a time (a double click made two codes)
  const joining = useAction();
  // leaving: its refusal shows beside its button (the join form, where it went before, is hidden from members)
  const [leaveError, setLeaveError] = useState<unknown>(null);
  const [left, setLeft] = useState(false);
  const [joined, setJoined] = useState(false);
  const [invite, setInvite] = useState<Invite | null>(null);
  const inviting = useAction();
  const [hours, setHours] = useState('168');
  const [uses, setUses] = useState('10');
  // members changed on this page since the list was read (null: removed)
  const [changed, setChanged] = useState<Record<string, Member | null>>({});
  // a removed member's row goes: the focus moves to the next row (or the heading)
  const { root: membersBox, focusNext } = useFocusAfter<HTMLElement>();
  useEffect(() => {
    setChanged({}); // the list is read again
    setLeft(false);
    setJoined(false);
  }, [id, user?.id]);
  const reloadMembers = () => {
    setChanged({});
    members.reload();
  };

  if (club.error) return <LoadFailed error={club.error} title="Club" missing="No such club" wayOn={{ href: '/clubs', text: 'All clubs' }} />;
  if (!club.data) return <LoadingPage title="Club" />;
  const c = club.data;
  const role = c.viewer_role;
  const rights = clubRights(role, user);
  const canInvite = rights.organize;
  const shown = applyChanges(members.data ?? [], changed);

  const onMemberChange = (ch: MemberChange) => {
    if (ch.kind === 'role') {
      setChanged((old) => ({ ...old, [ch.member.user_id]: ch.member }));
    } else if (ch.kind === 'removed') {
      const i = shown.findIndex((m) => m.user_id === ch.userId);
      const near = shown[i + 1] ?? shown[i - 1];
      focusNext(near ? `.member-list li[data-user="${near.username.replace(/["\\]/g, '\\$&')}"] a` : '#members-title');
      setChanged((old) => ({ ...old, [ch.userId]: null }));
      club.setData({ ...c, member_count: Math.max(0, c.member_count - 1) });
    } else {
      // the old owner stays on as an organizer
      const roleOf = (uid: string, r: string) => {
        const m = shown.find((x) => x.user_id === uid);
        return m ? { [uid]: { ...m, role: r } } : {};
      };
      setChanged((old) => ({ ...old, ...roleOf(c.owner_id, 'organizer'), ...roleOf(ch.userId, 'owner') }));
      club.setData({ ...c, ...ch.club, viewer_role: c.viewer_role });
      club.reload(); // the viewer's own role may have changed
    }
  };

  const join = (e: Event) => {
    e.preventDefault();
    void joining.run(async () => {
      await api.post(`/clubs/${encodeURIComponent(id)}/members`, { code: code.trim() });
      setLeft(false);
      // the join form goes: the focus goes to the word that it worked
      setJoined(true);
      focusNext('#joined-club');
      club.reload();
      reloadMembers();
    });
  };
  /** leave takes the viewer out of the club (asked first: joining again takes a new invite code); it answers whether it did. */
  const leave = async (): Promise<boolean> => {
    setLeaveError(null);
    try {
      await api.del(`/clubs/${encodeURIComponent(id)}/members/me`);
      // the button goes: the focus goes to the word that it worked, which
      // shows only once the page knows the viewer is no member. The page
      // knows it now, not when the club is read again: a word that came
      // with the reload would come after the focus request was spent, and
      // the focus would fall to the page.
      setLeft(true);
      setJoined(false);
      club.setData({ ...c, viewer_role: undefined, member_count: Math.max(0, c.member_count - 1) });
      focusNext('#left-club');
      club.reload();
      reloadMembers();
      return true;
    } catch (err) {
      setLeaveError(err);
      return false;
    }
  };
  const makeInvite = (e: Event) => {
    e.preventDefault();
    void inviting.run(async () => {
      setInvite(await api.post<Invite>(`/clubs/${encodeURIComponent(id)}/invites`, { expires_in_hours: Number(hours), max_uses: Number(uses) }));
    });
  };
  const inviteLink = invite ? `${location.origin}/clubs/${c.id}?code=${encodeURIComponent(invite.code)}` : '';

  return (
    <Page title={c.name} wide>
      <h1>{c.name}</h1>
      {c.description && <p class="lead">{c.description}</p>}
      <p class="muted">
        {counted(c.member_count, 'member')} · founded {when(c.created_at)}
        {role && <> · you are {role === 'owner' ? 'the owner' : role === 'organizer' ? 'an organizer' : `a ${role}`}</>}
      </p>

      {user && !role && (
        <section class="card-box" aria-labelledby="join-title">
          <h2 id="join-title">Join with an invite code</h2>
          <form class="form inline" onSubmit={join}>
            <Field label="Invite code" name="invite-code" value={code} onInput={setCode} required />
            <button type="submit" class="primary" aria-disabled={joining.busy ? 'true' : undefined}>
              {joining.busy ? 'Joining…' : 'Join'}
            </button>
          </form>
          <ErrorBox error={joining.error} />
        </section>
      )}
      {!user && (
        <p>
          <a href={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`}>Sign in</a> to join this club.
        </p>
      )}

      {canInvite && (
        <section class="card-box" aria-labelledby="invite-title">
          <h2 id="invite-title">Invite players</h2>
          <form class="form inline" onSubmit={makeInvite}>
            <div class="field">
              <label for="inv-hours">Valid for</label>
              <select id="inv-hours" value={hours} onChange={(e) => setHours((e.currentTarget as HTMLSelectElement).value)}>
                <option value="24">1 day</option>
                <option value="168">1 week</option>
                <option value="720">30 days</option>
                <option value="2160">90 days</option>
              </select>
            </div>
            <div class="field">
              <label for="inv-uses">Uses</label>
              <select id="inv-uses" value={uses} onChange={(e) => setUses((e.currentTarget as HTMLSelectElement).value)}>
                <option value="1">1</option>
                <option value="10">10</option>
                <option value="50">50</option>
                <option value="1000">1,000 (the most)</option>
              </select>
            </div>
            <button type="submit" class="primary" aria-disabled={inviting.busy ? 'true' : undefined}>
              {inviting.busy ? 'Making a code…' : 'Make an invite code'}
            </button>
          </form>
          <ErrorBox error={inviting.error} />
          {invite && (
            <div class="invite" role="status">
              <p>
                Code: <code class="code">{invite.code}</code> (expires {when(invite.expires_at)}
                {invite.max_uses ? `, ${counted(invite.max_uses, 'use')}` : ''})
              </p>
              <label for="invite-link">Link to share</label>
              <input id="invite-link" readOnly value={inviteLink} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />{' '}
              <CopyButton text={inviteLink} />
            </div>
          )}
        </section>
      )}

      {rights.manage && <EditClub club={c} onSaved={(n) => club.setData(n)} />}

      <ClubCompetitions club={c} />

      <section class="card-box" aria-labelledby="members-title" ref={membersBox}>
        <h2 id="members-title" tabIndex={-1}>
          Members
        </h2>
        <ErrorBox error={members.error} />
        {role === 'owner' && (
          <p class="owner-note" id="owner-note">
            You own this club, so you cannot leave it or close your account while you do.{' '}
            {c.member_count > 1
              ? 'To hand it over, choose “Make owner…” next to another member; you stay on as an organizer.'
              : 'To hand it over, invite another player first, then choose “Make owner…” next to their name.'}
          </p>
        )}
        {members.data ? (
          <ul class="member-list">
            {shown.map((m) => (
              <MemberRow key={m.user_id} club={c} member={m} rights={rights} me={user} onChange={onMemberChange} />
            ))}
          </ul>
        ) : (
          !members.error && <Loading />
        )}
        <ShowMore list={members} label="More members" />
        {role && role !== 'owner' && (
          <ConfirmStep
            class="leave-club"
            action="leave-club"
            ask="Leave the club…"
            question="Leave the club? To join again you need a new invite code"
            note={<span class="muted small">Its tournaments not yet started no longer have you entered, and to join again you need a new invite code.</span>}
            confirm="Leave the club"
            dismiss="Stay"
            small={false}
            onConfirm={leave}
          />
        )}
        {role && role !== 'owner' && <ErrorBox error={leaveError} />}
        {joined && (
          <p class="ok" role="status" id="joined-club" tabIndex={-1}>
            You have joined the club.
          </p>
        )}
        {left && !role && (
          <p class="ok" role="status" id="left-club" tabIndex={-1}>
            You have left the club, and its tournaments not yet started no longer have you entered. To join
            again you need an invite code.
          </p>
        )}
      </section>
    </Page>
  );
}
