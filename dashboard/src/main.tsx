// The entry: a few hundred bytes that run as soon as they arrive, while the browser is still downloading the
// app (index.html preloads root.tsx's chunks, see vite.config.ts). They start what the landing page will ask
// for (pages.ts: the session check, the page's chunk, its first data) and then load the app. The stylesheets
// are imported here so that they stay in index.html, ready before anything paints.
import "@mantine/core/styles.css";
import "./styles.css";
import { storedEnvironment } from "./lib/environment";
import { startLanding } from "./pages";

// Marks for the dashboard_payouts benchmark's critical path (bench/dashboard-payouts.bench.ts).
performance.mark("dashboard:entry");
startLanding(window.location, storedEnvironment());
void import("./root");
