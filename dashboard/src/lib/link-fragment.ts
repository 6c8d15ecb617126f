// Links in the service's e-mails (invitation, password reset, sign-up confirmation) carry their token in the URL's
// fragment (`#token=…`): a browser never sends a fragment, so the token stays out of server and proxy logs and
// out of Referer headers. The page reads it once and removes it from the address bar, so it is not left in the
// history entry, a bookmark or a copied address.
import { useEffect, useState } from "react";

/** The `key=value` pairs of the fragment the page was opened with; the fragment is then removed. */
export function useLinkFragment(): Readonly<Record<string, string>> {
  const [values] = useState(() => Object.fromEntries(new URLSearchParams(window.location.hash.slice(1))));
  useEffect(() => {
    if (window.location.hash === "") return;
    // The router's own state is kept: it numbers the history entries for Back and Forward.
    window.history.replaceState(window.history.state, "", `${window.location.pathname}${window.location.search}`);
  }, []);
  return values;
}
