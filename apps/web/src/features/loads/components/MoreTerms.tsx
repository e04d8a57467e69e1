import { Checkbox, Text } from '@mantine/core';
import { NumberInput } from '../../../components/NumberInput';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { LoadFormValues } from '../utils/loadForm';

/**
 * The post form's last terms: the detention cap per stop and payment protection (issue 50), with
 * tradable. Payment protection is not offered on an own-vehicle shipment (it pays no one).
 */
export function MoreTerms({
  form,
  err,
  ownVehicle,
}: {
  form: UseFormReturnType<LoadFormValues>;
  err: (path: string) => string | undefined;
  ownVehicle: boolean;
}) {
  const { t } = useTranslation('loads');
  return (
    <>
      <NumberInput
        label={t('field.detentionCap')}
        min={0}
        decimalScale={2}
        rightSection={<Text size="xs">{t('unit.sar')}</Text>}
        {...form.getInputProps('detentionCapSar')}
        error={err('detentionCapSar')}
        data-testid="detention-cap"
      />
      <Checkbox mt="xl" label={t('field.tradable')} {...form.getInputProps('tradable', { type: 'checkbox' })} data-testid="tradable" />
      {!ownVehicle && (
        <Checkbox
          mt="xl"
          label={t('protection.field')}
          description={t('protection.fieldHint')}
          {...form.getInputProps('paymentProtection', { type: 'checkbox' })}
          data-testid="payment-protection"
        />
      )}
    </>
  );
}
