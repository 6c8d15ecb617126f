// The frame of every page for getting in: the product's name, a title, one card, links below it.
import { Card, Container, Group, Image, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** The product, as the README names it: what a person signing in should recognise. */
export const PRODUCT_NAME = "Payout orchestration";

export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <Container size={440} py="xl" component="main">
      <Group justify="center" gap="xs" mb="xs" data-testid="product-name">
        <Image src="/dashboard/favicon.svg" alt="" w={28} h={28} />
        <Text fw={700} size="lg">
          {PRODUCT_NAME}
        </Text>
      </Group>
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
