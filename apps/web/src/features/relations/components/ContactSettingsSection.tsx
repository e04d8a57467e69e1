import { Card, Select, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CONTACT_AUDIENCES, REACH_CHANNELS, type ContactAudience, type ReachChannel } from '@masar/shared';
import { notifySuccess, showApiError } from '../../../lib/form';
import { useAccountSettings, useSaveAccountSettings } from '../api/relations';

/**
 * "Who may contact me" (spec §2 settings, §6 "settings control who may contact by video, audio or
 * chat"): one choice per channel, saved as soon as it changes (PATCH /account/settings).
 */
export function ContactSettingsSection() {
  const { t } = useTranslation('relations');
  const settings = useAccountSettings();
  const save = useSaveAccountSettings();
  const options = CONTACT_AUDIENCES.map((a) => ({ value: a, label: t(`settings.audience.${a}`) }));
  const change = async (channel: ReachChannel, value: string | null) => {
    if (!value || value === settings.data?.[channel]) return;
    try {
      await save.mutateAsync({ [channel]: value as ContactAudience });
      notifySuccess(t('settings.contact.saved'));
    } catch (e) {
      showApiError(e);
    }
  };
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="contact-settings">
      <Title order={2} size="h3">
        {t('settings.contact.title')}
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        {t('settings.contact.hint')}
      </Text>
      {settings.data ? (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {REACH_CHANNELS.map((c) => (
            <Select
              key={c}
              label={t(`settings.contact.${c}`)}
              data={options}
              value={settings.data[c]}
              allowDeselect={false}
              disabled={save.isPending}
              onChange={(v) => void change(c, v)}
              data-testid={`setting-${c}`}
            />
          ))}
        </SimpleGrid>
      ) : (
        <Skeleton h={60} />
      )}
    </Card>
  );
}
