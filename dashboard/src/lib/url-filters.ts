// A list's filters live in the page's address, so a link shows the same rows and Back steps through them.
// Each change is one history entry (pushed, never replaced); setting a filter to the value it already has
// adds none, so Back never has to be pressed twice for one change.
import { useSearchParams } from "react-router";

export function useUrlFilters() {
  const [params, setParams] = useSearchParams();
  const setFilter = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value === null || value === "") next.delete(name);
    else next.set(name, value);
    if (next.toString() !== params.toString()) setParams(next);
  };
  return { params, setFilter };
}
