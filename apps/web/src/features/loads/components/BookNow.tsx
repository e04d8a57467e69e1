import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconBolt } from '@tabler/icons-react';
import type { Load } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { asLang, formatMoney } from '../../../components/format';
import { notifySuccess } from '../../../components/notify';
import { useBookNow } from '../api/loads';

/** The "Book Now" mark of a load bookable at its posted price (issue 19). */
export function BookNowBadge({ load }: { load: Pick<Load, 'bookNow' | 'bookNowFor'> }) {
  const { t } = useTranslation('loads');
  if (!load.bookNow) return null;
  return (
    <Badge color="masar" variant="filled" leftSection={<IconBolt size={12} />} data-testid="book-now-badge">
      {load.bookNowFor === 'vendors' ? t('bookNow.badgeVendors') : t('bookNow.badge')}
    </Badge>
  );
}

/**
 * "Book Now" for a carrier or broker: a confirmation showing the amount (the posted price), then
 * one POST /bookNow with this confirmation's Idempotency-Key. `onBooked` runs after the booking.
 */
export function BookNowButton({ load, onBooked, size = 'sm' }: { load: Load; onBooked?: () => void; size?: 'compact-xs' | 'xs' | 'sm' | 'md' }) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const [key, setKey] = useState<string | null>(null);
  const book = useBookNow();
  const close = () => {
    setKey(null);
    book.reset();
  };
  const amount = formatMoney(load.priceSar, lang);
  return (
    <>
      <Button
        size={size}
        leftSection={<IconBolt size={16} />}
        onClick={(e) => {
          // on a board card the button sits inside the card's link
          e.preventDefault();
          e.stopPropagation();
          setKey(crypto.randomUUID());
        }}
        data-testid={`book-now-${load.referenceId}`}
      >
        {t('bookNow.button')}
      </Button>
      <Modal opened={key !== null} onClose={close} title={t('bookNow.confirmTitle', { ref: load.referenceId })} centered>
        <Stack>
          <Text>{t('bookNow.confirmText')}</Text>
          <Text fw={700} size="xl" c="masar" data-testid="book-now-amount">
            {amount}
          </Text>
          <Text size="sm" c="dimmed">
            {t('bookNow.confirmHint')}
          </Text>
          {book.error && (
            <Alert color="masarRed" variant="light" data-testid="book-now-error">
              {book.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('action.cancel')}
            </Button>
            <Button
              loading={book.isPending}
              disabled={!!book.error}
              onClick={() =>
                key &&
                book.mutate(
                  { loadId: load.id, priceSar: load.priceSar, key },
                  {
                    onSuccess: () => {
                      notifySuccess(t('bookNow.done', { ref: load.referenceId, price: amount }));
                      close();
                      onBooked?.();
                    },
                  },
                )
              }
              data-testid="book-now-confirm"
            >
              {t('bookNow.confirm', { price: amount })}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
