import { Badge, Button, Checkbox, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { cardAddBody, type SavedCard } from '@masar/shared';
import { NumberInput } from '../../../components/NumberInput';
import { masar, unwrap, type BodyOf } from '../../../lib/api';
import { digits } from '../../../lib/digits';
import { notifySuccess, showApiError, zodValidate } from '../../../lib/form';
import { BILLING } from '../api';

/**
 * Add a card (POST /paymentMethod). Validated with the shared schema (Luhn, brand, expiry, CVC
 * length) before it is sent; the number goes to the payment gateway and is never stored.
 */
export function CardForm({ onSaved }: { onSaved?: (card: SavedCard) => void }) {
  const { t } = useTranslation('billing');
  const qc = useQueryClient();
  const form = useForm({
    mode: 'controlled',
    initialValues: { number: '', holderName: '', expMonth: '' as number | string, expYear: '' as number | string, cvc: '', makeDefault: false },
    // the expiry inputs are '' until typed: check them as 0 so the shared message says why
    validate: (v) => zodValidate(cardAddBody)({ ...v, expMonth: Number(v.expMonth) || 0, expYear: Number(v.expYear) || 0 }),
    transformValues: (v) => ({ ...v, expMonth: Number(v.expMonth) || 0, expYear: Number(v.expYear) || 0 }),
  });
  const add = useMutation({
    mutationFn: (body: BodyOf<'/api/v1/paymentMethod', 'post'>) => unwrap(masar.POST('/api/v1/paymentMethod', { body })),
    // awaited by the mutation: Save stays busy until the card list is fresh
    onSuccess: async (card) => {
      notifySuccess(t('card.saved'));
      form.reset();
      await qc.invalidateQueries({ queryKey: BILLING.cards });
      onSaved?.(card);
    },
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await add.mutateAsync(cardAddBody.parse(values));
    } catch (e) {
      showApiError(e, form);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="card-form">
      <Stack gap="sm">
        <TextInput
          label={t('card.number')}
          inputMode="numeric"
          autoComplete="cc-number"
          dir="ltr"
          withAsterisk
          {...form.getInputProps('number')}
          key={form.key('number')}
        />
        <TextInput label={t('card.holder')} autoComplete="cc-name" withAsterisk {...form.getInputProps('holderName')} key={form.key('holderName')} />
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <NumberInput
            label={t('card.expMonth')}
            min={1}
            max={12}
            autoComplete="cc-exp-month"
            withAsterisk
            hideControls
            {...form.getInputProps('expMonth')}
            key={form.key('expMonth')}
          />
          <NumberInput
            label={t('card.expYear')}
            min={2000}
            max={2100}
            autoComplete="cc-exp-year"
            withAsterisk
            hideControls
            {...form.getInputProps('expYear')}
            key={form.key('expYear')}
          />
          <TextInput
            label={t('card.cvc')}
            inputMode="numeric"
            autoComplete="cc-csc"
            dir="ltr"
            withAsterisk
            {...form.getInputProps('cvc')}
            key={form.key('cvc')}
          />
        </SimpleGrid>
        <Checkbox label={t('card.makeDefault')} {...form.getInputProps('makeDefault', { type: 'checkbox' })} key={form.key('makeDefault')} />
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconLock size={16} aria-hidden style={{ flexShrink: 0, marginBlockStart: 2 }} />
          <Text fz="sm" c="dimmed">
            {t('card.secureNote', { n: 4 })}
          </Text>
        </Group>
        <Group>
          <Button type="submit" loading={add.isPending} data-testid="card-save">
            {t('card.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "mada •••• 0007, expires 12/2030" in the user's language and digit system (the last 4 stay as printed on the card). */
export function CardLabel({ card }: { card: Pick<SavedCard, 'brand' | 'last4' | 'expMonth' | 'expYear'> & Partial<Pick<SavedCard, 'lastChargeFailedAt'>> }) {
  const { t } = useTranslation('billing');
  return (
    <span>
      <Text span fw={600}>
        {t(`card.brand.${card.brand}`)}
      </Text>{' '}
      <bdi dir="ltr" style={{ whiteSpace: 'nowrap' }} data-latin-digits>
        •••• {card.last4}
      </bdi>
      {'  '}
      {/* "Expires 12/2030" as one piece: a narrow row wraps before it, not inside it */}
      <Text span c="dimmed" fz="sm" style={{ whiteSpace: 'nowrap' }}>
        {t('card.expires', { month: String(card.expMonth).padStart(2, '0').replace(/\d/g, digits), year: card.expYear })}
      </Text>
      {card.lastChargeFailedAt && (
        <>
          {' '}
          {/* the bank declined its last charge (issue 22): never the renewal card nor preselected */}
          <Badge color="red" variant="light" title={t('card.declinedNote')} data-testid={`card-declined-${card.last4}`}>
            {t('card.declined')}
          </Badge>
        </>
      )}
    </span>
  );
}
