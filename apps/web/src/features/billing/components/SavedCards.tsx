import { useState, type ReactNode } from 'react';
import { ActionIcon, Badge, Button, Group, Modal, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconStar, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SavedCard } from '@masar/shared';
import { masar, unwrap } from '../../../lib/api';
import { notifySuccess, showApiError } from '../../../lib/form';
import { BILLING, useCards } from '../api';
import { CardForm, CardLabel } from './CardForm';

/**
 * The user's saved cards (GET /paymentMethod): brand, last 4, expiry, the one renewals are
 * charged to, and "Declined" on a card whose last charge the bank refused, offered for removal
 * (it cannot be made the renewal card from here); add one (CardForm → POST /paymentMethod), use one for renewals
 * (POST /paymentMethod/:id/default), remove one (DELETE /paymentMethod/:id). Used by the billing
 * page and /<role>/saved-cards (spec §2).
 */
export function SavedCards({ heading }: { heading: ReactNode }) {
  const { t } = useTranslation('billing');
  const qc = useQueryClient();
  const { data: cards, isLoading } = useCards();
  const [adding, setAdding] = useState(false);
  const refreshCards = () => qc.invalidateQueries({ queryKey: BILLING.cards });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(masar.DELETE('/api/v1/paymentMethod/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      notifySuccess(t('savedCards.removed'));
      await refreshCards();
    },
    onError: (e) => showApiError(e),
  });
  const setRenewal = useMutation({
    mutationFn: (id: string) => unwrap(masar.POST('/api/v1/paymentMethod/{id}/default', { params: { path: { id } } })),
    onSuccess: async () => {
      notifySuccess(t('savedCards.defaultSet'));
      await refreshCards();
    },
    onError: (e) => showApiError(e),
  });
  const brand = (c: SavedCard) => t(`card.brand.${c.brand}`);
  return (
    <>
      <Group justify="space-between" mb="sm">
        {heading}
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)} data-testid="add-card">
          {t('checkout.addCard')}
        </Button>
      </Group>
      {isLoading ? (
        <Skeleton h={60} />
      ) : !cards?.length ? (
        <Text c="dimmed">{t('checkout.noCards')}</Text>
      ) : (
        <Stack gap="xs" data-testid="saved-cards">
          {cards.map((c) => (
            <Group key={c.id} justify="space-between" wrap="nowrap" preventGrowOverflow={false} data-testid={`card-${c.last4}`}>
              <CardLabel card={c} />
              {/* the actions keep their size (the "Renewals" badge was cut to "RENE…" on a phone); the label wraps instead */}
              <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                {c.lastChargeFailedAt ? (
                  // declined by the bank (issue 22): not offered for renewals; removing it is the action offered
                  <Button
                    size="compact-sm"
                    variant="light"
                    color="red"
                    leftSection={<IconTrash size={14} />}
                    aria-label={t('card.removeNamed', { brand: brand(c), last4: c.last4 })}
                    onClick={() => remove.mutate(c.id)}
                    data-testid={`card-remove-${c.last4}`}
                  >
                    {t('card.removeDeclined')}
                  </Button>
                ) : c.isDefault ? (
                  <Badge variant="light" data-testid={`card-default-${c.last4}`}>
                    {t('card.default')}
                  </Badge>
                ) : (
                  <Tooltip label={t('card.setDefault')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('savedCards.setDefaultNamed', { brand: brand(c), last4: c.last4 })}
                      onClick={() => setRenewal.mutate(c.id)}
                      data-testid={`card-set-default-${c.last4}`}
                    >
                      <IconStar size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
                {!c.lastChargeFailedAt && (
                  <Tooltip label={t('card.remove')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('card.removeNamed', { brand: brand(c), last4: c.last4 })}
                      onClick={() => remove.mutate(c.id)}
                      data-testid={`card-remove-${c.last4}`}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            </Group>
          ))}
        </Stack>
      )}
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('checkout.addCard')} size="lg">
        <CardForm onSaved={() => setAdding(false)} />
      </Modal>
    </>
  );
}
