import { useEffect } from 'react';
import { Button, Container, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageMeta } from '../../../lib/pageMeta';

/**
 * /thank-you: after the contact form (what happens next, where to go meanwhile). Kept out of
 * search results (robots noindex; not in sitemap.xml).
 */
export default function ThankYouPage() {
  const { t } = useTranslation('public');
  usePageMeta(t('thankYou.title'), t('thankYou.description'));
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color="masar">
          <IconCircleCheck size={40} aria-hidden />
        </ThemeIcon>
        <Title order={1}>{t('thankYou.title')}</Title>
        <Text>{t('thankYou.body')}</Text>
        <Text c="dimmed" size="sm">
          {t('thankYou.meanwhile')}
        </Text>
        <Group justify="center">
          <Button component={Link} to="/">
            {t('thankYou.home')}
          </Button>
          <Button component={Link} to="/help" variant="light">
            {t('thankYou.help')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
