/** counted is "1 member", "2 members": a count with its noun, singular for one. */
export function counted(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`;
}
