import { useEffect } from 'react';
import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { waybillConfigSchema } from '@masar/shared';
import { CitySelect } from '../../../components/CitySelect';
import { masar, unwrap, type BodyOf } from '../../../lib/api';
import { notifySuccess, showApiError, zodValidate } from '../../../lib/form';
import { BAYAN, useWaybillConfig } from '../api';

/** Waybill config in the account (spec §2): the sender defaults of this user's waybills. */
export function WaybillConfigForm() {
  const { t } = useTranslation('bayan');
  const qc = useQueryClient();
  const { data } = useWaybillConfig();
  const saveConfig = useMutation({
    mutationFn: (body: BodyOf<'/api/v1/account/waybill-config', 'put'>) => unwrap(masar.PUT('/api/v1/account/waybill-config', { body })),
    // awaited by the mutation: Save stays busy until the saved config is read again
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: BAYAN.config });
      notifySuccess(t('config.saved'));
    },
  });
  const form = useForm<{ senderName: string; senderPhone: string; senderAddress: string; senderCityId: number | null }>({
    mode: 'controlled',
    initialValues: { senderName: '', senderPhone: '', senderAddress: '', senderCityId: null },
    validate: zodValidate(waybillConfigSchema),
  });
  // the account page links here (/<role>/bayan#waybill-config): bring the form into view once
  useEffect(() => {
    if (window.location.hash === '#waybill-config') document.getElementById('waybill-config')?.scrollIntoView({ block: 'start' });
  }, []);
  useEffect(() => {
    if (data) form.setValues(data);
    // only when the saved config arrives
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data]);
  const save = form.onSubmit(async (values) => {
    try {
      await saveConfig.mutateAsync(waybillConfigSchema.parse(values));
    } catch (e) {
      showApiError(e, form);
    }
  });
  return (
    <Card withBorder padding="lg" data-testid="waybill-config" id="waybill-config">
      <form onSubmit={save} noValidate>
        <Stack gap="sm">
          <Title order={3}>{t('config.title')}</Title>
          <Text fz="sm" c="dimmed">
            {t('config.help')}
          </Text>
          <Group grow align="flex-start">
            <TextInput label={t('config.senderName')} required {...form.getInputProps('senderName')} />
            <TextInput label={t('config.senderPhone')} required dir="ltr" {...form.getInputProps('senderPhone')} />
          </Group>
          <Group grow align="flex-start">
            <TextInput label={t('config.senderAddress')} required {...form.getInputProps('senderAddress')} />
            <CitySelect
              label={t('config.senderCity')}
              required
              value={form.values.senderCityId}
              onChange={(id) => form.setFieldValue('senderCityId', id)}
              error={form.errors.senderCityId}
            />
          </Group>
          <Group justify="flex-end">
            <Button type="submit" loading={saveConfig.isPending}>
              {t('config.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
