import { Anchor, Box, Container, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../components/Logo';
import { digits } from '../../lib/digits';
import { useSession } from '../../lib/session';
import { FOOTER_LINKS } from '../menus';
import { PreferenceControls } from './PreferenceControls';

/**
 * Footer (spec §2): solutions links, language switch, theme switch. Signed-in users only see
 * the switches: the public pages the links open are outside their allowed paths (route guard).
 */
export function Footer() {
  const { t } = useTranslation(['common', 'menu']);
  const { isSignedIn } = useSession();
  const year = digits(new Date().getFullYear());
  return (
    <Box
      component="footer"
      py="xl"
      style={{ borderBlockStart: '1px solid var(--mantine-color-default-border)', background: 'var(--mantine-color-default-hover)' }}
    >
      <Container size="lg">
        {!isSignedIn && (
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xl" mb="xl">
            <Stack gap="xs">
              <Logo />
              <Text c="dimmed" fz="sm">
                {t('common:tagline')}
              </Text>
            </Stack>
            <Stack gap={6}>
              <Text fw={700} fz="sm">
                {t('common:footer.solutions')}
              </Text>
              {FOOTER_LINKS.solutions.map((l) => (
                <Anchor key={l.to} component={Link} to={l.to} c="dimmed" fz="sm">
                  {t(`common:footer.${l.key}`)}
                </Anchor>
              ))}
            </Stack>
            <Stack gap={6}>
              <Text fw={700} fz="sm">
                {t('common:footer.company')}
              </Text>
              {FOOTER_LINKS.company.map((l) => (
                <Anchor key={l.to} component={Link} to={l.to} c="dimmed" fz="sm">
                  {t(`common:footer.${l.key}`)}
                </Anchor>
              ))}
            </Stack>
          </SimpleGrid>
        )}
        <Group justify="space-between" gap="md">
          <Text c="dimmed" fz="xs">
            {t('common:footer.copyright', { year })}
          </Text>
          <PreferenceControls />
        </Group>
      </Container>
    </Box>
  );
}
