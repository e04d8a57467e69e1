import type { ReactNode } from 'react';
import { Container, Paper, Stack, Text, Title } from '@mantine/core';

/** Centered card for the sign-in, sign-up and password screens. */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <Container size={480} py={{ base: 'lg', sm: 48 }}>
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap={4} mb="lg">
          <Title order={2}>{title}</Title>
          {subtitle && (
            <Text c="dimmed" fz="sm">
              {subtitle}
            </Text>
          )}
        </Stack>
        {children}
      </Paper>
      {footer && (
        <Text ta="center" fz="sm" mt="md">
          {footer}
        </Text>
      )}
    </Container>
  );
}
