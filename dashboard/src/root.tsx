// The app itself: providers, theme and router around App.tsx. Loaded by the entry (main.tsx) once it has started
// the first visit's early requests; index.html preloads this chunk and its imports from the start.
import { type CSSVariablesResolver, createTheme, MantineProvider, Modal } from "@mantine/core";
import { QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { App } from "./App";
import { ApiError } from "./api/client";
import { queryKeys } from "./hooks/api/query-keys";
import { SessionProvider } from "./lib/session";

const theme = createTheme({
  primaryColor: "indigo",
  // Shade 8 for filled colours and links: white text on it passes WCAG AA contrast (the default 6 does not).
  primaryShade: 8,
  autoContrast: true,
  // Visible focus for keyboard users on every control.
  focusRing: "always",
  // No sliding or fading for people who asked their system for less motion.
  respectReducedMotion: true,
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  components: {
    // Mantine's close button is an icon: give it a name for screen readers.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { "aria-label": "Close dialog" } } }),
  },
});

// Mantine's "dimmed" grey (gray.6) and error red (red.6) are about 3.3:1 on white; shades 7 and 8 read at AA.
const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: { "--mantine-color-dimmed": "var(--mantine-color-gray-7)", "--mantine-color-error": "var(--mantine-color-red-8)" },
  dark: {},
});

const queryClient: QueryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 5_000 } },
  queryCache: new QueryCache({
    // The session was ended elsewhere (another browser's "End session", sign out everywhere, a password
    // change) or expired: read it again, which answers "signed out" and sends the person to the sign-in page
    // instead of leaving error messages on a page they can no longer use.
    onError: (error) => {
      if (error instanceof ApiError && error.code === "SESSION_EXPIRED")
        void queryClient.invalidateQueries({ queryKey: queryKeys.session });
    },
  }),
});

const root = document.getElementById("root");
if (root === null) throw new Error("no #root element");
performance.mark("dashboard:app");
createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter basename="/dashboard">
          <SessionProvider>
            <App />
          </SessionProvider>
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
