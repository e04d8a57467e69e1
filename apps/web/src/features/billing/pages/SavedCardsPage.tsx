import { Anchor, Card, Container, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRoleBase, useViewer } from '../../../components/useViewer';
import { SavedCards } from '../components/SavedCards';

/**
 * Saved cards (spec §2 /saved-cards, for shippers, carriers and brokers): the cards kept for
 * checkout and renewals — brand, last 4, expiry, which one renewals are charged to; add, remove,
 * choose the renewal card. Masar keeps only the gateway's token, never the number.
 */
export default function SavedCardsPage() {
  const { t } = useTranslation('billing');
  const { accountType } = useViewer();
  const base = useRoleBase(accountType);
  return (
    <Container size="sm" py="xl">
      <Title order={1} mb="xs">
        {t('savedCards.title')}
      </Title>
      <Text c="dimmed" mb="lg">
        {t('savedCards.intro')}
      </Text>
      <Card withBorder radius="lg" padding="lg">
        <SavedCards heading={<Text fw={600}>{t('billing.cards')}</Text>} />
      </Card>
      <Text fz="sm" c="dimmed" mt="md">
        {t('card.secureNote', { n: 4 })}
      </Text>
      <Anchor component={Link} to={`${base}/billing-and-invoice`} fz="sm" mt="sm" display="inline-block">
        {t('savedCards.backToBilling')}
      </Anchor>
    </Container>
  );
}
