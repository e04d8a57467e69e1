import { Alert, Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconBrandWhatsapp, IconMail, IconPhone, IconBuilding, IconVideo } from '@tabler/icons-react';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { useTranslation } from 'react-i18next';
import type { ContactLink } from '@masar/shared';
import { ApiError } from '../../../lib/api';
import { useContactCard } from '../api/relations';

const ICONS: Record<ContactLink['kind'], typeof IconPhone> = {
  phone: IconPhone,
  officePhone: IconBuilding,
  email: IconMail,
  whatsapp: IconBrandWhatsapp,
  whatsappVideo: IconVideo,
};

/** A phone number as people write it (+966 55 123 4567); other values as they are. */
export function displayValue(l: ContactLink): string {
  if (l.kind === 'email') return l.value;
  return parsePhoneNumberFromString(l.value, 'SA')?.formatInternational() ?? l.value;
}

/**
 * "Contact the carrier" / "Contact the shipper" on a booked shipment (issue 8): the other party's
 * shared contact details on the channels its contact settings allow me, as tel:, mailto: and
 * https://wa.me/ links. Numbers and addresses stay left-to-right inside Arabic text.
 */
export function CounterpartContactCard({ loadId }: { loadId: string }) {
  const { t } = useTranslation('relations');
  const q = useContactCard(loadId);
  if (q.error instanceof ApiError && q.error.code === 'USER_BLOCKED')
    return (
      <Alert color="gray" mb="md" data-testid="contact-card-blocked">
        {q.error.message}
      </Alert>
    );
  if (!q.data) return null;
  const card = q.data;
  return (
    <Card withBorder radius="md" padding="md" mb="md" data-testid="contact-card">
      <Title order={4} mb={4}>
        {t(card.role === 'carrier' ? 'card.carrier' : 'card.shipper')}
      </Title>
      <Text fw={600} mb="xs">
        <bdi>{card.companyName}</bdi>
      </Text>
      {card.links.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('card.none', { company: card.companyName })}
        </Text>
      ) : (
        <Stack gap={6}>
          {card.links.map((l) => {
            const Icon = ICONS[l.kind];
            return (
              <Group key={l.kind} gap="xs" wrap="nowrap">
                <Icon size={18} aria-hidden />
                <Text size="sm" c="dimmed" miw={120}>
                  {t(`card.kind.${l.kind}`)}
                </Text>
                <Anchor
                  href={l.href}
                  target={l.href.startsWith('https:') ? '_blank' : undefined}
                  rel="noopener noreferrer"
                  dir="ltr"
                  data-testid={`contact-${l.kind}`}
                >
                  {displayValue(l)}
                </Anchor>
              </Group>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}
