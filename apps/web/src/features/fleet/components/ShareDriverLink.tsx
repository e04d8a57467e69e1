import { useEffect, useState } from 'react';
import { Anchor, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBrandWhatsapp, IconCopy, IconMessage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { fetchDriverLink, useSendDriverLinkSms } from '../api/fleet';

/** wa.me wants the number in international form, digits only (no +, spaces or leading zeros). */
export function whatsAppShareUrl(phone: string, text: string) {
  return `https://wa.me/${phone.replace(/\D/g, '')}?text=${encodeURIComponent(text)}`;
}

/**
 * "Share driver link" (spec §2; issue 23): the signed job link, to copy, to send to the driver's
 * phone by SMS through our SMS gateway (POST /drivers/:id/link/sms), or to share on WhatsApp.
 */
export function ShareDriverLinkModal({ driver, onClose }: { driver: { id: string; phone: string } | null; onClose: () => void }) {
  const { t } = useTranslation('fleet');
  const [url, setUrl] = useState<string | null>(null);
  const sms = useSendDriverLinkSms();
  const id = driver?.id;
  useEffect(() => {
    setUrl(null);
    if (!id) return;
    let live = true;
    fetchDriverLink(id)
      .then(({ url: path }) => live && setUrl(path.startsWith('http') ? path : `${window.location.origin}${path}`))
      .catch((e: unknown) => {
        notifications.show({ color: 'masarRed', message: e instanceof Error ? e.message : t('error') });
        onClose();
      });
    return () => {
      live = false;
    };
  }, [id, onClose, t]);

  const sendSms = async () => {
    if (!driver) return;
    try {
      await sms.mutateAsync(driver.id);
      notifications.show({ color: 'masar', message: t('share.smsSent', { phone: `\u2066${driver.phone}\u2069` }) });
      onClose();
    } catch (e) {
      notifications.show({ color: 'masarRed', message: e instanceof Error ? e.message : t('error') });
    }
  };

  return (
    <Modal opened={!!driver} onClose={onClose} title={t('driver.link')} centered>
      <Stack>
        <Text size="sm">{t('share.intro')}</Text>
        <Group align="end" wrap="nowrap">
          <TextInput label={t('driver.link')} value={url ?? ''} readOnly dir="ltr" style={{ flex: 1 }} data-testid="driver-link-url" />
          <CopyButton value={url ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" leftSection={<IconCopy size={16} />} onClick={copy} disabled={!url}>
                {copied ? t('share.copied') : t('share.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Group grow>
          <Button leftSection={<IconMessage size={16} />} onClick={() => void sendSms()} loading={sms.isPending} disabled={!url} data-testid="driver-link-sms">
            {t('share.sms')}
          </Button>
          <Button
            component="a"
            variant="default"
            leftSection={<IconBrandWhatsapp size={16} />}
            href={url && driver ? whatsAppShareUrl(driver.phone, t('share.whatsAppText', { url })) : undefined}
            target="_blank"
            rel="noopener noreferrer"
            data-disabled={!url || undefined}
            data-testid="driver-link-whatsapp"
          >
            {t('share.whatsApp')}
          </Button>
        </Group>
        {driver && (
          <Text size="xs" c="dimmed">
            {t('share.toPhone')}{' '}
            <Anchor href={`tel:${driver.phone}`} dir="ltr" size="xs">
              {driver.phone}
            </Anchor>
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
