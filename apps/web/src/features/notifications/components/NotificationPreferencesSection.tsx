import { Button, Card, Group, Loader, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_CATEGORIES, NOTIFICATION_CHANNELS, SMS_CATEGORIES, type NotificationPreferences } from '@masar/shared';
import { NumberInput } from '../../../components/NumberInput';
import { notifyError, notifySuccess } from '../../../components/notify';
import { usePreferences, useSavePreferences } from '../api/notifications';
import { PushSwitch } from './PushSwitch';

/**
 * Notification preferences on the settings page (issue 21): a table category × channel with
 * switches (SMS only where an event warrants it), quiet hours (Riyadh time) and the e-mail digest.
 * Lent to the settings page through the NotificationPreferences slot.
 */
export function NotificationPreferencesSection() {
  const { t } = useTranslation('notifications');
  const q = usePreferences();
  const save = useSavePreferences();
  const [p, setP] = useState<NotificationPreferences | null>(null);
  useEffect(() => {
    if (q.data) setP(q.data);
  }, [q.data]);
  if (!p)
    return (
      <Card withBorder>
        <Loader size="sm" />
      </Card>
    );
  const flip = (c: (typeof NOTIFICATION_CATEGORIES)[number], ch: (typeof NOTIFICATION_CHANNELS)[number], v: boolean) =>
    setP({ ...p, channels: { ...p.channels, [c]: { ...p.channels[c], [ch]: v } } });
  const submit = async () => {
    try {
      setP(await save.mutateAsync(p));
      notifySuccess(t('prefs.saved'));
    } catch (err) {
      notifyError(err);
    }
  };
  return (
    <Card withBorder component="section" aria-labelledby="notification-prefs-title" data-testid="notification-preferences">
      <Title order={2} fz="lg" id="notification-prefs-title" mb={4}>
        {t('prefs.title')}
      </Title>
      <Text c="dimmed" fz="sm" mb="sm">
        {t('prefs.intro')}
      </Text>
      <PushSwitch />
      <Table.ScrollContainer minWidth={420}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('prefs.category')}</Table.Th>
              {NOTIFICATION_CHANNELS.map((ch) => (
                <Table.Th key={ch} ta="center">
                  {t(`prefs.channel.${ch}`)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {NOTIFICATION_CATEGORIES.map((c) => (
              <Table.Tr key={c}>
                <Table.Td>{t(`category.${c}`)}</Table.Td>
                {NOTIFICATION_CHANNELS.map((ch) => (
                  <Table.Td key={ch}>
                    {ch === 'sms' && !SMS_CATEGORIES.includes(c) ? null : (
                      <Group justify="center">
                        <Switch
                          checked={p.channels[c][ch]}
                          onChange={(e) => flip(c, ch, e.currentTarget.checked)}
                          aria-label={t('prefs.switch', { category: t(`category.${c}`), channel: t(`prefs.channel.${ch}`) })}
                          data-testid={`pref-${c}-${ch}`}
                        />
                      </Group>
                    )}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Stack gap="sm" mt="md">
        <div>
          <Text fw={600} fz="sm">
            {t('prefs.quietHours')}
          </Text>
          <Text c="dimmed" fz="xs" mb={4}>
            {t('prefs.quietHint')}
          </Text>
          <Group gap="sm">
            <TextInput
              type="time"
              label={t('prefs.quietFrom')}
              value={p.quietFrom ?? ''}
              onChange={(e) => setP({ ...p, quietFrom: e.currentTarget.value || null })}
              w={140}
            />
            <TextInput
              type="time"
              label={t('prefs.quietTo')}
              value={p.quietTo ?? ''}
              onChange={(e) => setP({ ...p, quietTo: e.currentTarget.value || null })}
              w={140}
            />
          </Group>
        </div>
        <NumberInput
          label={t('prefs.digest')}
          description={t('prefs.digestHint')}
          min={1}
          max={1440}
          allowDecimal={false}
          value={p.digestMinutes}
          onChange={(v) => setP({ ...p, digestMinutes: typeof v === 'number' ? v : Number(v) || 1 })}
          w={{ base: '100%', sm: 280 }}
        />
        <Group>
          <Button onClick={() => void submit()} loading={save.isPending} data-testid="save-notification-preferences">
            {t('prefs.save')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
