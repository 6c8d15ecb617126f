import { Center, Loader } from "@mantine/core";
import { type ComponentType, lazy, type ReactNode, Suspense, useState } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router";
import { Layout } from "./components/Layout";
import { useSession } from "./lib/session";
import { loadedPage, loadPage, type PageModule, type PageName } from "./pages";
import {
  AcceptInvitationPage,
  ForgotPasswordPage,
  ResetPasswordPage,
  SignInPage,
  SignUpPage,
  TwoFactorPage,
  VerifyRegistrationPage,
} from "./pages/auth";
import { NotFoundPage } from "./pages/not-found";

/**
 * A signed-in page, loaded on demand. When its chunk has already arrived (the entry starts the landing page's,
 * pages.ts) it is rendered directly: React.lazy would suspend once even then, and React holds a Suspense
 * boundary's content back for 300 ms after its fallback shows. Chosen once per mount, so a page is never
 * remounted because its chunk arrived meanwhile.
 */
function page<K extends PageName>(name: K, pick: (module: PageModule<K>) => ComponentType) {
  const Lazy = lazy(() => loadPage(name).then((module) => ({ default: pick(module) })));
  return function Page() {
    const [Direct] = useState(() => {
      const module = loadedPage(name);
      return module === undefined ? null : pick(module);
    });
    return Direct === null ? <Lazy /> : <Direct />;
  };
}

// Signed-in pages load on demand: the first visit downloads only the frame and the sign-in forms.
const HomePage = page("home", (m) => m.HomePage);
const ApprovalsPage = page("approvals", (m) => m.ApprovalsPage);
const BalancesPage = page("balances", (m) => m.BalancesPage);
const PayoutsPage = page("payouts", (m) => m.PayoutsPage);
const PayoutPage = page("payout", (m) => m.PayoutPage);
const NewPayoutPage = page("newPayout", (m) => m.NewPayoutPage);
const DevelopersPage = page("developers", (m) => m.DevelopersPage);
const TeamPage = page("team", (m) => m.TeamPage);
const UploadsPage = page("uploads", (m) => m.UploadsPage);
const BeneficiariesPage = page("beneficiaries", (m) => m.BeneficiariesPage);
const BeneficiaryPage = page("beneficiary", (m) => m.BeneficiaryPage);
const SettingsPage = page("settings", (m) => m.SettingsPage);
const BankFilesPage = page("bankFiles", (m) => m.BankFilesPage);
const ReconciliationPage = page("reconciliation", (m) => m.ReconciliationPage);
const ScreeningPage = page("screening", (m) => m.ScreeningPage);

function Loading() {
  return (
    <Center py="xl">
      <Loader aria-label="Loading" />
    </Center>
  );
}

function RequireSession({ children }: { children: ReactNode }) {
  const { session, loading } = useSession();
  const location = useLocation();
  if (loading) return <Loading />;
  if (session === null) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  if (session.session.next_step === "two_factor") return <Navigate to="/two-factor" replace />;
  // The Business requires two-factor and this person has none: the API serves only enrolment until they enrol.
  if (session.session.next_step === "two_factor_enrolment" && location.pathname !== "/settings")
    return <Navigate to="/settings?tab=security" replace />;
  return <>{children}</>;
}

export function App() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/sign-in" element={<SignInPage />} />
        <Route path="/two-factor" element={<TwoFactorPage />} />
        <Route path="/sign-up" element={<SignUpPage />} />
        <Route path="/sign-up/verify" element={<VerifyRegistrationPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/invitation" element={<AcceptInvitationPage />} />
        <Route
          element={
            <RequireSession>
              <Layout />
            </RequireSession>
          }
        >
          <Route index element={<HomePage />} />
          <Route path="approvals" element={<ApprovalsPage />} />
          <Route path="payouts" element={<PayoutsPage />} />
          <Route path="payouts/new" element={<NewPayoutPage />} />
          <Route path="payouts/:payoutId" element={<PayoutPage />} />
          <Route path="balances" element={<BalancesPage />} />
          <Route path="developers" element={<DevelopersPage />} />
          <Route path="team" element={<TeamPage />} />
          <Route path="uploads" element={<UploadsPage />} />
          <Route path="beneficiaries" element={<BeneficiariesPage />} />
          <Route path="beneficiaries/:beneficiaryId" element={<BeneficiaryPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="bank-files" element={<BankFilesPage />} />
          <Route path="reconciliation" element={<ReconciliationPage />} />
          <Route path="screening" element={<ScreeningPage />} />
          {/* Inside the signed-in frame: an unknown address says so (after sign-in), never silently goes Home. */}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
