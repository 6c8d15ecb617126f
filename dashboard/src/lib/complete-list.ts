// A hand-written list of an API enum (for a filter or a picker) must name every value the API has: the
// generated types give the union but no runtime array. `true satisfies CompleteList<typeof LIST, Union>`
// fails the typecheck, naming what is missing, when the API adds a value the list lacks; `satisfies
// readonly Union[]` on the list itself catches a value the API dropped.
export type CompleteList<List extends readonly string[], Union extends string> = [Exclude<Union, List[number]>] extends [never]
  ? true
  : { missing: Exclude<Union, List[number]> };
