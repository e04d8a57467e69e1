import { Button, Group, Stack, Text } from '@mantine/core';
import { IconBrandApple, IconMapPin, IconNavigation, IconPhone } from '@tabler/icons-react';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { useTranslation } from 'react-i18next';
import type { DriverStop } from '@masar/shared';
import { isolate } from '../../../components/bidi';
import { formatClock, formatDate } from '../../../components/format';

/**
 * Google Maps' navigation deep link to a stop, by coordinates (an address may not be geocodable):
 * the Maps app on Android and iOS, the web elsewhere.
 */
export const navigateHref = (p: { lat: number; lng: number }) => `https://www.google.com/maps/dir/?api=1&destination=${p.lat},${p.lng}`;

/** Apple Maps' directions deep link to a stop (the Maps app on iPhone, issue 49). */
export const appleMapsHref = (p: { lat: number; lng: number }) => `https://maps.apple.com/?daddr=${p.lat},${p.lng}`;

/** tel: link of a phone (E.164 as stored), digits and the plus only. */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** A phone as people write it (+966 55 123 4567; libphonenumber-js), else as stored. Identifiers keep Western digits. */
export const displayPhone = (phone: string) => parsePhoneNumberFromString(phone, 'SA')?.formatInternational() ?? phone;

/** 'HH:MM' → the reader's clock ("8:00" / "٨:٠٠"); anything else as it is. */
function clock(hhmm: string, lang: 'en' | 'ar') {
  const m = /^(\d{1,2}):(\d{2})/.exec(hhmm);
  return m ? formatClock(Number(m[1]), Number(m[2]), lang) : hhmm;
}

/** Whom to call about a stop: a name and a phone (the shipper's shared line, by the contact rules). */
export type StopContact = { name: string; phone: string } | null;

/**
 * A stop of the driver's job (issue 49: the stop, not just the city): the city, the district in the
 * reader's language, the street and the free-text address; the window (from the earliest time to the
 * pickup's latest, opening hours when set) in the reader's digits; navigation deep links to Google
 * Maps and Apple Maps by coordinates, and a call button for the stop's contact. 390 px first: the
 * buttons wrap under the text.
 */
export function StopDetails({ kind, stop, lang, contact }: { kind: 'pickup' | 'drop'; stop: DriverStop; lang: 'en' | 'ar'; contact: StopContact }) {
  const { t } = useTranslation('trips');
  const district = lang === 'ar' ? stop.districtAr : stop.districtEn;
  const from = formatDate(stop.date, lang);
  const span = stop.latestAt ? t('driver.windowRange', { from, to: formatDate(stop.latestAt, lang) }) : from;
  return (
    <Stack gap={6} data-testid={`trip-${kind}`}>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <IconMapPin size={18} style={{ flexShrink: 0, marginBlockStart: 2 }} aria-hidden />
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed">
            {t(`driver.${kind}`)}
          </Text>
          <Text fw={600}>
            {isolate(lang === 'ar' ? stop.cityAr : stop.cityEn)}
            {district ? ` · ${t('driver.district', { name: isolate(district) })}` : ''}
          </Text>
          {stop.street && (
            <Text size="sm" data-testid={`trip-${kind}-street`}>
              {isolate(stop.street)}
            </Text>
          )}
          {stop.address && <Text size="sm">{stop.address}</Text>}
          <Text size="sm" data-testid={`trip-${kind}-window`}>
            {t('driver.window', { window: span })}
            {stop.hours ? ` · ${t('driver.hours', { from: clock(stop.hours.from, lang), to: clock(stop.hours.to, lang) })}` : ''}
          </Text>
        </Stack>
      </Group>
      <Group gap="xs">
        <MapButton href={navigateHref(stop)} variant="light" icon={<IconNavigation size={16} />} testId={`trip-navigate-${kind}`}>
          {t('driver.navigate')}
        </MapButton>
        <MapButton href={appleMapsHref(stop)} variant="default" icon={<IconBrandApple size={16} />} testId={`trip-apple-${kind}`}>
          {t('driver.appleMaps')}
        </MapButton>
        {contact && (
          <Button
            component="a"
            href={telHref(contact.phone)}
            variant="default"
            size="sm"
            leftSection={<IconPhone size={16} />}
            aria-label={`${t('driver.callStop')}${contact.name ? ` · ${contact.name}` : ''} · ${contact.phone}`}
            data-testid={`trip-call-${kind}`}
          >
            <span dir="ltr">{displayPhone(contact.phone)}</span>
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/** A navigation link to a maps app, opened in a new tab (Google Maps or Apple Maps). */
function MapButton(props: { href: string; variant: 'light' | 'default'; icon: React.ReactNode; testId: string; children: React.ReactNode }) {
  return (
    <Button
      component="a"
      href={props.href}
      target="_blank"
      rel="noopener noreferrer"
      variant={props.variant}
      size="sm"
      leftSection={props.icon}
      data-testid={props.testId}
    >
      {props.children}
    </Button>
  );
}
