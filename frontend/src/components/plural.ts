/** counted is "1 member", "2 members": a count with its noun, singular for one. */
export function counted(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** andList joins words as a sentence lists them: "a", "a and b", "a, b and c". */
export function andList(words: string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
