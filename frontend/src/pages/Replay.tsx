import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Board } from '../components/Board';
import { SeqCard, StacksCard } from '../components/Cards';
import { gameName, isPerson } from '../components/GameList';
import { ErrorBox, LoadFailed, Loading, LoadingPage, Page, useLoad, when } from '../components/ui';
import { TEAMS } from '../game/board';
import { normalizeArchive, positionFromVector, seedCheckText, verifySeed, type Archive, type ArchiveDoc, type Position, type SeedCheck } from '../game/archive';
import { describeSequenceMove } from '../game/sequenceMoves';
import { describeStacksMove } from '../game/stacksMoves';
import { api } from '../session';
import { atSentenceStart, EVERY_SEAT_PASSED, howWon, isTypingTarget, leftNote, playedBy, playerLabel, resignedSeat, seatsPassedLast, sequenceTeam, teamWithShape } from './gameCommon';
import { lastCellOf, lockedCells } from './SequenceTable';

function seatLabel(a: Archive, seat: number) {
  const names = a.seats.map((s) => s.username || (s.bot ? `bot-${s.bot}` : ''));
  return playerLabel(names, seat, (i) => sequenceTeam(a.game, a.seats[i]?.team));
}

/**
 * playedLabel names a seat as it ended the game (playedBy): "the fill-in bot
 * that took over from bob" of a seat bob left to a fill-in bot. The replay
 * said "bob won." of a Stacks game, and "bob completed 2 sequences" of a
 * Sequence one, that bob had walked away from, or never opened (a
 * tournament's no-show), which his profile lists as abandoned.
 */
function playedLabel(a: Archive, seat: number) {
  const s = a.seats[seat];
  return s ? playedBy(seatLabel(a, seat), { fillIn: s.fillIn, abandoned: s.abandoned, person: archivePerson(s) }) : seatLabel(a, seat);
}

const archivePerson = (s: Archive['seats'][number]) => isPerson({ user: s.userID ? { id: s.userID, username: s.username } : null });

function resultLine(a: Archive): string {
  // An adjudicated game's last position shows no end: say what ended it.
  const how = a.endedBy === 'adjudication' ? ', adjudicated at the round deadline' : '';
  // who left the game to a fill-in bot, and what the rating made of it
  const people = a.seats.map((s) => ({ name: seatLabel(a, s.seat), abandoned: s.abandoned, why: s.abandonedWhy, team: a.game === 'sequence' ? s.team : s.seat, person: archivePerson(s) }));
  const left = leftNote(people, a.rated);
  const after = left && ` ${left}`;
  if (a.result === 'drawn') return `Draw${how || archiveDrawnBy(a)}.${after}`;
  if (a.winner == null) return '';
  // how it was won, as the game's page says it (not of an adjudicated game, which was not won that way)
  const members = a.seats.filter((s) => s.team === a.winner).map((s) => playedLabel(a, s.seat));
  // a resigned game's last position shows no end either: the side that resigned (the other of its two) is said instead of how
  const loser = a.endedBy === 'resign' ? resignedSeat(a.game, a.seats, a.winner) : undefined;
  const resigned = !loser ? '' : ` ${a.game === 'sequence' ? teamWithShape(loser.team) : atSentenceStart(playedLabel(a, loser.seat))} resigned.`;
  const won = how || resigned || !a.final ? '' : howWon(a.game, a.winner, members, a.final.game === 'stacks' ? { chips: a.final.chips } : { sequences: a.final.sequences });
  if (a.game === 'sequence') return `${TEAMS[a.winner]?.name ?? a.winner} team (${TEAMS[a.winner]?.shape}) won${how}.${won && ` ${won}`}${resigned}${after}`;
  return `${atSentenceStart(playedLabel(a, a.winner))} won${how}${won && ` ${won}`}.${resigned}${after}`;
}

/**
 * archiveDrawnBy says why a game the rules ended was drawn, as the game's
 * page does (drawnBy): the replay said only "Draw.". At Sequence every seat
 * passing in one round ends the moves, else the cap of plays did; a Stacks
 * draw is its cap of turns.
 */
function archiveDrawnBy(a: Archive): string {
  const cap = a.playCap > 0 ? ` (${a.playCap})` : '';
  if (a.game === 'stacks') return `: the game reached its cap of turns${cap}`;
  return seatsPassedLast(a.moves) >= a.players ? EVERY_SEAT_PASSED : `: the play cap was reached${cap}`;
}

/**
 * StepButton is one of the replay's step buttons. At the end it steps
 * towards it is aria-disabled, not disabled: a disabled button loses the
 * keyboard focus to the page, so pressing "Previous move" down to the deal
 * (or "Final position") left a keyboard user nowhere. go clamps the ply, so
 * a press there does nothing.
 */
function StepButton({ label, at, onClick, children }: { label: string; at: boolean; onClick: () => void; children: string }) {
  return (
    <button type="button" onClick={at ? undefined : onClick} aria-disabled={at ? 'true' : undefined} aria-label={label}>
      {children}
    </button>
  );
}

/**
 * keepInView scrolls box, and box only, so that el, a row inside it, shows:
 * stepping through a long game by keyboard moved the current move out of
 * the move list's sight. scrollIntoView would scroll the page too, pulling
 * the board out of view on a phone, where the list stands below it.
 */
export function keepInView(box: HTMLElement, el: HTMLElement) {
  const b = box.getBoundingClientRect();
  const e = el.getBoundingClientRect();
  if (e.top < b.top) box.scrollTop -= b.top - e.top;
  else if (e.bottom > b.bottom) box.scrollTop += e.bottom - b.bottom;
}

export default function Replay({ id }: { id: string }) {
  const { data: archive, error } = useLoad(async () => normalizeArchive(await api.get<ArchiveDoc>(`/games/${encodeURIComponent(id)}/archive`)), [id]);
  const total = archive?.moves.length ?? 0;
  const [ply, setPly] = useState<number | null>(null);
  const cache = useRef(new Map<number, Promise<Position>>());
  const [pos, setPos] = useState<{ ply: number; p: Position } | null>(null);
  const [posError, setPosError] = useState<unknown>(null);
  const [seedCheck, setSeedCheck] = useState<SeedCheck | null>(null);

  const fetchPly = (n: number) => {
    let p = cache.current.get(n);
    if (!p) {
      p = api.get<unknown>(`/games/${encodeURIComponent(id)}/vector?ply=${n}`).then(positionFromVector);
      p.catch(() => cache.current.delete(n));
      cache.current.set(n, p);
    }
    return p;
  };

  // Start at the end: every hand is shown from the final position.
  useEffect(() => {
    if (archive && ply == null) setPly(archive.moves.length);
    if (archive) verifySeed(archive.seed, archive.seedHash).then(setSeedCheck, () => setSeedCheck('unchecked'));
  }, [archive]);

  useEffect(() => {
    if (ply == null) return;
    let live = true;
    fetchPly(ply).then(
      (p) => {
        if (!live) return;
        setPos({ ply, p });
        setPosError(null);
        if (ply + 1 <= total) fetchPly(ply + 1).catch(() => {});
        if (ply - 1 >= 0) fetchPly(ply - 1).catch(() => {});
      },
      (e) => live && setPosError(e),
    );
    return () => {
      live = false;
    };
  }, [ply, total]);

  const moveList = useRef<HTMLElement>(null);
  useEffect(() => {
    const current = moveList.current?.querySelector<HTMLElement>('[aria-current=step]');
    if (moveList.current && current) keepInView(moveList.current, current);
  }, [ply, archive]);

  const go = (n: number) => setPly(Math.max(0, Math.min(total, n)));
  // Steps from the latest ply even when keys come faster than renders.
  const step = (d: number | 'first' | 'last') =>
    setPly((p) => Math.max(0, Math.min(total, d === 'first' ? 0 : d === 'last' ? total : (p ?? 0) + d)));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (ply == null || isTypingTarget(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const d = ({ ArrowLeft: -1, ArrowRight: 1, Home: 'first', End: 'last' } as const)[e.key as 'Home'];
      if (d != null) {
        e.preventDefault();
        step(d);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const lastMove = pos && pos.ply > 0 ? archive?.moves[pos.ply - 1] : undefined;
  const describe = (m: string) => (archive?.game === 'sequence' ? describeSequenceMove(m) : describeStacksMove(m, (s) => seatLabel(archive!, s)));
  const locked = useMemo(() => (pos?.p.game === 'sequence' ? lockedCells({ locked: [], sequences: pos.p.sequences }) : new Set<string>()), [pos]);

  if (error) return <LoadFailed error={error} title="Replay" missing="No such game" wayOn={{ href: '/', text: 'Back home' }} />;
  if (!archive || ply == null) return <LoadingPage title="Replay" what="Loading the archive" />;

  return (
    <Page title="Replay" wide>
      <div class="game-head">
        <h1>Replay: {gameName(archive, 'Sequence Stacks')}</h1>
        <a href={`/games/${archive.id || id}`}>the table</a>
      </div>
      <p>
        {archive.seats.map((s, i) => (
          <span key={i} class="seat-tag">
            {archive.game === 'sequence' && (
              <span class={`chip small team-${TEAMS[s.team]?.colour}`} aria-hidden="true">
                {TEAMS[s.team]?.shape}
              </span>
            )}
            {s.userID ? <a href={`/users/${s.userID}`}>{seatLabel(archive, i)}</a> : seatLabel(archive, i)}
            {s.fillIn && <span class="muted"> (fill-in bot)</span>}
          </span>
        ))}{' '}
        · {resultLine(archive)} · {when(archive.finishedAt)}
      </p>
      <p class="muted small">
        Seed <code>{archive.seed.slice(0, 16)}…</code>{' '}
        {seedCheck && seedCheckText(seedCheck)}
      </p>

      <div class="replay-controls" role="toolbar" aria-label="Replay controls (arrow keys step, Home and End jump)">
        <StepButton label="First position" at={ply === 0} onClick={() => go(0)}>
          |◀
        </StepButton>
        <StepButton label="Previous move" at={ply === 0} onClick={() => go(ply - 1)}>
          ◀
        </StepButton>
        <span class="ply" aria-live="polite">
          Ply {ply} of {total}
        </span>
        <StepButton label="Next move" at={ply === total} onClick={() => go(ply + 1)}>
          ▶
        </StepButton>
        <StepButton label="Final position" at={ply === total} onClick={() => go(total)}>
          ▶|
        </StepButton>
        <label class="sr-only" for="ply-slider">
          Ply
        </label>
        <input id="ply-slider" type="range" min={0} max={total} value={ply} onInput={(e) => go(Number((e.currentTarget as HTMLInputElement).value))} />
      </div>
      <p class="status-line" aria-live="polite">
        {lastMove ? (
          <>
            {seatLabel(archive, lastMove.seat)} {describe(lastMove.move)} <code>{lastMove.move}</code>
            {lastMove.by && lastMove.by !== 'player' && <span class="muted"> ({lastMove.by})</span>}
          </>
        ) : (
          'The deal.'
        )}
      </p>
      <ErrorBox error={posError} />

      <div class="replay-body">
        <div class="replay-position">
          {!pos && <Loading what="Loading the position" />}
          {pos?.p.game === 'sequence' && <Board rows={pos.p.board} locked={locked} last={lastCellOf(lastMove)} label={`Board after ply ${pos.ply}`} />}
          {pos?.p.game === 'stacks' && (
            <ol class="pile-list">
              {pos.p.piles.length === 0 && <li class="muted">No piles on the table.</li>}
              {pos.p.piles.map((p, i) => (
                <li key={i} class={`pile pile-${p.color}`}>
                  <span class="pile-label">
                    {i + 1}. {p.color}
                  </span>
                  <span class="pile-cards">
                    {p.cards.map((c, j) => (
                      <StacksCard key={j} card={c} small />
                    ))}
                  </span>
                </li>
              ))}
            </ol>
          )}
          {pos && (
            <section class="all-hands" aria-label="Every hand">
              <h2>Hands</h2>
              {pos.p.hands.map((h, seat) => (
                <div key={seat} class={`replay-hand${pos.p.turn === seat ? ' to-move' : ''}`}>
                  <strong>
                    {seatLabel(archive, seat)}
                    {pos.p.game === 'stacks' && ` · chips R ${pos.p.chips[seat]?.red ?? 0} B ${pos.p.chips[seat]?.blue ?? 0}`}:
                  </strong>{' '}
                  {h.length === 0 && <span class="muted">empty</span>}
                  {h.map((c, i) => (pos.p.game === 'sequence' ? <SeqCard key={i} card={c} small /> : <StacksCard key={i} card={c} small />))}
                  <span class="muted small">
                    {' '}
                    · discards {pos.p.discards[seat]?.length ?? 0}
                  </span>
                </div>
              ))}
              <p class="muted small">Draw pile: {pos.p.deckSize}</p>
            </section>
          )}
        </div>
        <nav class="move-list" aria-label="Moves" ref={moveList}>
          <h2>Moves</h2>
          <ol>
            <li>
              <button type="button" class={ply === 0 ? 'link current' : 'link'} aria-current={ply === 0 ? 'step' : undefined} onClick={() => go(0)}>
                the deal
              </button>
            </li>
            {archive.moves.map((m, i) => {
              const words = describe(m.move);
              return (
                <li key={i}>
                  <button type="button" class={ply === i + 1 ? 'link current' : 'link'} aria-current={ply === i + 1 ? 'step' : undefined} onClick={() => go(i + 1)}>
                    {i + 1}. {seatLabel(archive, m.seat)}:{' '}
                    {/* the move in words for screen readers and on hover, as the game log says it; the notation for the eye */}
                    <code aria-hidden="true" title={words}>
                      {m.move}
                    </code>
                    <span class="sr-only">{words}</span>
                  </button>
                </li>
              );
            })}
          </ol>
        </nav>
      </div>
    </Page>
  );
}
