import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TruckArt } from './TruckArt';

/** 404 with truck artwork (spec §2). "Back to home" goes to "/", which the guard turns into the user's landing page. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Container size="sm" py={48}>
      <Stack align="center" gap="md">
        <TruckArt />
        <Title order={1} ta="center">
          {t('notFound.title')}
        </Title>
        <Text c="dimmed" ta="center" maw={420}>
          {t('notFound.text')}
        </Text>
        <Button component={Link} to="/" size="md">
          {t('notFound.home')}
        </Button>
      </Stack>
    </Container>
  );
}
