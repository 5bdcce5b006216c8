// The "Show more" button of a paged list keeps the keyboard focus: on
// itself while more pages follow, on the first item it added when the last
// page is in and it goes away.
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, settle, stub, unmountAll } from '../testing/stubApi';
import { PAGE_SIZE, REFRESH_MS, ShowMore, usePagedList, useRefresh } from './list';

function Things() {
  const list = usePagedList<{ id: string }>('/things', []);
  return (
    <div>
      <ul class="things">
        {list.data?.map((t) => (
          <li key={t.id}>
            <a href={`/things/${t.id}`}>{t.id}</a>
          </li>
        ))}
      </ul>
      <ShowMore list={list} label="More things" />
    </div>
  );
}

const page = (ids: string[], next: string) => () => ({ items: ids.map((id) => ({ id })), next_cursor: next });
const moreButton = (root: Element) => [...root.querySelectorAll('button')].find((b) => b.textContent === 'More things') ?? null;

beforeEach(() => vi.restoreAllMocks());
afterEach(unmountAll);

describe('ShowMore', () => {
  it('keeps the focus on itself between pages and hands it to the first new item on the last page', async () => {
    stub({
      'GET /things\\?limit=20': page(['a', 'b'], 'C2'),
      'GET /things\\?limit=20&cursor=C2': page(['c'], 'C3'),
      'GET /things\\?limit=20&cursor=C3': page(['d', 'e'], ''),
    });
    const root = mount(<Things />);
    await settle();
    const first = moreButton(root)!;
    first.focus();
    act(() => first.click());
    await settle();
    expect(root.querySelectorAll('.things li')).toHaveLength(3);
    expect(document.activeElement).toBe(moreButton(root));
    act(() => moreButton(root)!.click());
    await settle();
    expect(moreButton(root)).toBeNull();
    expect(document.activeElement).toBe(root.querySelector('a[href="/things/d"]'));
  });
});

function LiveThings() {
  const list = usePagedList<{ id: string }>('/things', []);
  useRefresh(list);
  return (
    <div>
      <ul class="things">{list.data?.map((t) => <li key={t.id}>{t.id}</li>)}</ul>
      <ShowMore list={list} label="More things" />
    </div>
  );
}

describe('useRefresh', () => {
  afterEach(() => vi.useRealTimers());

  it('reads the first page again while it is the only one shown, and stops once a later page is asked for', async () => {
    let ids = ['a'];
    const full = Array.from({ length: PAGE_SIZE }, (_, i) => `t${i}`);
    stub({
      'GET /things\\?limit=20': () => ({ items: ids.map((id) => ({ id })), next_cursor: ids.length === PAGE_SIZE ? 'C2' : '' }),
      'GET /things\\?limit=20&cursor=C2': page(['u'], ''),
    });
    vi.useFakeTimers();
    const root = mount(<LiveThings />);
    await act(async () => void (await vi.advanceTimersByTimeAsync(10)));
    expect(root.querySelector('.things')!.textContent).toBe('a');
    ids = ['b', 'a'];
    await act(async () => void (await vi.advanceTimersByTimeAsync(REFRESH_MS)));
    expect(root.querySelector('.things')!.textContent).toBe('ba');
    ids = full;
    await act(async () => void (await vi.advanceTimersByTimeAsync(REFRESH_MS)));
    act(() => moreButton(root)!.click());
    await act(async () => void (await vi.advanceTimersByTimeAsync(10)));
    expect(root.querySelectorAll('.things li')).toHaveLength(PAGE_SIZE + 1);
    ids = ['z'];
    await act(async () => void (await vi.advanceTimersByTimeAsync(2 * REFRESH_MS)));
    expect(root.querySelectorAll('.things li')).toHaveLength(PAGE_SIZE + 1);
  });
});
