// The frame of every page for getting in: a title, one card, links below it.
import { Card, Container, Stack, Title } from "@mantine/core";
import type { ReactNode } from "react";

export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <Container size={440} py="xl" component="main">
      <Title order={1} ta="center" mb="lg">
        {title}
      </Title>
      <Card withBorder padding="lg" radius="md">
        {children}
      </Card>
      {footer !== undefined && (
        <Stack gap={4} mt="md" align="center">
          {footer}
        </Stack>
      )}
    </Container>
  );
}
