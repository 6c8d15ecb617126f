// My sessions (Settings → Security): every live session of the signed-in person, in all their Businesses
// (GET /v1/session/sessions), with the device and address of the sign-in, when it began and its last
// activity. Each other session can be ended after a confirmation (DELETE /v1/session/sessions/{id}); the
// current one offers "Sign out"; "Sign out everywhere" ends them all.
import { Badge, Group, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import { useNavigate } from "react-router";
import { useEndSession, useSignOut, useSignOutEverywhere } from "../../hooks/api/session/mutations";
import { useMySessions } from "../../hooks/api/session/queries";
import type { MySession } from "../../hooks/api/session/types";
import { lastError, settle } from "../../hooks/api/use-api-mutation";
import { useSignedIn } from "../../lib/session";
import { ConfirmButton } from "../ConfirmButton";
import { ErrorAlert } from "../ErrorAlert";
import { Time } from "../Time";

function where(s: MySession): string {
  return s.client_address === null ? s.device : `${s.device} (${s.client_address})`;
}

export function SessionsSection() {
  const { session, memberships } = useSignedIn();
  const navigate = useNavigate();
  // The person's own sessions do not depend on the environment shown.
  const sessions = useMySessions();
  const endOne = useEndSession();
  const signOut = useSignOut();
  const everywhere = useSignOutEverywhere();
  const error = lastError(endOne, everywhere);
  const severalBusinesses = memberships.length > 1;
  const toSignIn = () => navigate("/sign-in");

  const rows = sessions.data?.sessions ?? [];
  return (
    <Stack>
      <Title order={2} size="h3">
        My sessions
      </Title>
      <Text size="sm">
        Where you are signed in, in every Business of yours. This session ends at the latest <Time value={session.expires_at} />,
        or after {Math.round(session.idle_timeout_seconds / 60)} minutes without use. Do not recognise one? End it, then change
        your password.
      </Text>
      {sessions.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{sessions.isError ? "Your sessions could not be loaded." : "No live session."}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="My sessions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Device</Table.Th>
                <Table.Th>Address</Table.Th>
                {severalBusinesses && <Table.Th>Business</Table.Th>}
                <Table.Th>Signed in</Table.Th>
                <Table.Th>Last active</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Action</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((s) => (
                <Table.Tr key={s.id} data-testid="my-session-row" data-current={s.current}>
                  <Table.Td>
                    <Stack gap={4} align="flex-start">
                      <Text size="sm">{s.device}</Text>
                      {s.current && (
                        <Badge color="teal.9" variant="filled">
                          This session
                        </Badge>
                      )}
                    </Stack>
                  </Table.Td>
                  <Table.Td>{s.client_address ?? "—"}</Table.Td>
                  {severalBusinesses && <Table.Td>{s.business_name}</Table.Td>}
                  <Table.Td>
                    <Time value={s.created_at} />
                  </Table.Td>
                  <Table.Td>
                    <Time value={s.last_seen_at} />
                  </Table.Td>
                  <Table.Td>
                    {s.current ? (
                      <ConfirmButton
                        size="xs"
                        variant="default"
                        label="Sign out"
                        title="Sign out?"
                        message="You will be signed out of this browser."
                        confirmLabel="Sign out"
                        onConfirm={() => settle(signOut.mutateAsync().then(toSignIn))}
                      />
                    ) : (
                      <ConfirmButton
                        size="xs"
                        variant="outline"
                        color="red.8"
                        label="End session"
                        aria-label={`End session: ${where(s)}`}
                        title="End this session?"
                        message={`${where(s)}${severalBusinesses ? ` in ${s.business_name}` : ""} will be signed out at once.`}
                        confirmLabel="End session"
                        onConfirm={() => settle(endOne.mutateAsync(s.id))}
                      />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ErrorAlert error={error ?? sessions.error} />
      <Group>
        <ConfirmButton
          variant="outline"
          color="red"
          label="Sign out everywhere"
          title="Sign out everywhere?"
          message="Every session of yours ends, in every Business and browser, this one included."
          confirmLabel="Sign out everywhere"
          onConfirm={() => settle(everywhere.mutateAsync().then(toSignIn))}
        />
      </Group>
    </Stack>
  );
}
