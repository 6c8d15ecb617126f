// The cursor stack of a server-paged list. The API pages forward only (`next_cursor`), so going back means
// remembering the cursors already followed: [second page's, third page's, …]; the last is the page shown,
// none is the first page. A new `resetKey` (the filters: changed in the form, by Back or by a pasted link)
// starts again at the first page.
import { useState } from "react";

export interface CursorPages {
  /** The cursor of the page shown; null on the first page. */
  readonly cursor: string | null;
  /** 1 on the first page. */
  readonly page: number;
  readonly hasPrevious: boolean;
  previous(): void;
  /** Follows the API's `next_cursor`; nothing happens when there is none. */
  next(cursor: string | null | undefined): void;
}

export function useCursorPages(resetKey: string): CursorPages {
  const [stack, setStack] = useState<{ readonly key: string; readonly cursors: readonly string[] }>({
    key: resetKey,
    cursors: [],
  });
  // Reset while rendering, not in an effect: an effect would first fetch the new filters with the old
  // page's cursor. React re-renders at once, before anything is shown, when state is set during render.
  const current = stack.key === resetKey;
  if (!current) setStack({ key: resetKey, cursors: [] });
  const cursors = current ? stack.cursors : [];
  return {
    cursor: cursors.at(-1) ?? null,
    page: cursors.length + 1,
    hasPrevious: cursors.length > 0,
    previous: () => setStack((s) => ({ key: resetKey, cursors: s.key === resetKey ? s.cursors.slice(0, -1) : [] })),
    next: (cursor) => {
      if (cursor === null || cursor === undefined) return;
      setStack((s) => {
        const before = s.key === resetKey ? s.cursors : [];
        // A second click before the next page arrives passes the same cursor again: one page, not two.
        return before.at(-1) === cursor ? s : { key: resetKey, cursors: [...before, cursor] };
      });
    },
  };
}
