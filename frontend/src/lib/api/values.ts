// Value lists the UI offers for the contract's unions (a <select>'s options,
// a fake's validation), checked to be complete: when Go adds a value to an
// enum, the list that leaves it out stops compiling.

type Missing<T, L extends readonly unknown[]> = Exclude<T, L[number]>;

/**
 * allOf<T>()([...]) returns the list as given, and fails to compile unless
 * it names every member of the union T (each at most what T admits).
 */
export const allOf =
  <T extends string>() =>
  <const L extends readonly T[]>(list: L & ([Missing<T, L>] extends [never] ? unknown : { missing: Missing<T, L> })): readonly T[] =>
    list;
