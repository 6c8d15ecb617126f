// Joining a Business with the invitation's token: a new person chooses a password, one with an account
// leaves it empty.
import { Button, Stack, Text } from "@mantine/core";
import { Link } from "react-router";
import { useAcceptInvitation } from "../../hooks/api/auth/mutations";
import { useLinkFragment } from "../../lib/link-fragment";
import { AuthCard } from "./AuthCard";
import { TokenAndPasswordForm } from "./TokenAndPasswordForm";

export function AcceptInvitationPage() {
  const link = useLinkFragment();
  const accept = useAcceptInvitation();
  // Without a password the API joins the person's existing account.
  const mutation = {
    ...accept,
    mutate: (input: { token: string; password: string }, callbacks: { onError: (error: Error) => void }) =>
      accept.mutate(input.password === "" ? { token: input.token } : input, callbacks),
  };
  return (
    <AuthCard title="Accept an invitation">
      {link.email !== undefined && (
        <Text mb="md" data-testid="invited-email">
          Invitation for <strong>{link.email}</strong>
        </Text>
      )}
      <TokenAndPasswordForm
        initialToken={link.token}
        tokenLabel="Invitation token"
        submitLabel="Join the Business"
        passwordOptional
        mutation={mutation}
        done={
          <Stack>
            <Text>You joined the Business. Sign in to start.</Text>
            <Button component={Link} to="/sign-in">
              Sign in
            </Button>
          </Stack>
        }
      />
    </AuthCard>
  );
}
