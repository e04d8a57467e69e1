import { useState } from 'react';
import { ActionIcon, Button, Group, Menu, Modal, MultiSelect, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { IconArchive, IconCalendarPlus, IconCopy, IconDots, IconPencil, IconStar, IconStarFilled, IconTrash, IconUpload } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EXTEND_DATES_MAX_DAYS, SHIPMENT_TYPE, type Load, type LoadOption, type ShipmentType } from '@masar/shared';
import { asLang, isoToPicker, pickerToIso } from '../../../components/format';
import { notifyError, notifySuccess } from '../../../components/notify';
import { rolePaths, useRoleBase } from '../../../components/useViewer';
import { useDatesLocale } from '../../../components/useDatesLocale';
import { DateTimePicker } from '../../../components/DateTimePicker';
import { useBookmark, useChangeAudience, useExtendDates, useLoadAction, useMyVendorOptions, type LoadAction } from '../api/loads';

/** Options handled here; every other option opens the details page with `?action=<option>` (its dialog lives there). */
const HANDLED: readonly LoadOption[] = ['edit', 'extend_dates', 'unpost', 'repost', 'duplicate', 'cancel'];
const ICONS: Partial<Record<LoadOption, React.ReactNode>> = {
  edit: <IconPencil size={16} />,
  extend_dates: <IconCalendarPlus size={16} />,
  unpost: <IconArchive size={16} />,
  repost: <IconUpload size={16} />,
  duplicate: <IconCopy size={16} />,
  cancel: <IconTrash size={16} />,
};

/**
 * "More Options" of a shipment (spec §2 my shipments): exactly `load.options`, computed by the
 * server for the viewer (lifecycle.ts loadOptionsFor). Edit, extend dates, unpost, repost,
 * duplicate and cancel run here; the trip options (assign, Bayan, complete, track …) navigate
 * to the details page with `?action=<option>`.
 */
export function LoadOptionsMenu({ load }: { load: Load }) {
  const { t } = useTranslation('loads');
  const navigate = useNavigate();
  const paths = rolePaths(useRoleBase());
  const action = useLoadAction();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [extendOpen, setExtendOpen] = useState(false);

  const run = (a: LoadAction) =>
    action.mutate(
      { id: load.id, action: a },
      {
        onSuccess: (res) => {
          notifySuccess(t(`myLoads.done.${a}`, { ref: load.referenceId }));
          setConfirmCancel(false);
          if (a === 'duplicate' && res && typeof res === 'object' && 'id' in res) void navigate(`${paths.postLoad}?edit=${res.id}`);
        },
        onError: notifyError,
      },
    );

  const choose = (o: LoadOption) => {
    if (o === 'edit') void navigate(`${paths.postLoad}?edit=${load.id}`);
    else if (o === 'extend_dates') setExtendOpen(true);
    else if (o === 'cancel') setConfirmCancel(true);
    else if (o === 'unpost' || o === 'repost' || o === 'duplicate') run(o);
    else if (o === 'track') void navigate(`${paths.load(load.id)}/track`);
    else void navigate(`${paths.load(load.id)}?action=${o}`);
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={t('myLoads.moreOptions')} data-testid={`load-actions-${load.referenceId}`}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {load.options.length === 0 && <Menu.Label>{t('myLoads.noOptions')}</Menu.Label>}
          {load.options.map((o) => (
            <Menu.Item
              key={o}
              color={o === 'cancel' || o === 'cancel_bayan' ? 'masarRed' : undefined}
              leftSection={ICONS[o]}
              onClick={() => choose(o)}
              data-testid={`option-${o}`}
              data-handled={HANDLED.includes(o) ? 'here' : 'details'}
            >
              {t(`option.${o}`)}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Modal opened={confirmCancel} onClose={() => setConfirmCancel(false)} title={t('myLoads.deleteTitle')} centered>
        <Text mb="md">{t('myLoads.deleteText', { ref: load.referenceId })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirmCancel(false)}>
            {t('action.cancel')}
          </Button>
          <Button color="masarRed" loading={action.isPending} onClick={() => run('delete')} data-testid="confirm-delete">
            {t('action.delete')}
          </Button>
        </Group>
      </Modal>
      {extendOpen && <ExtendDatesModal load={load} onClose={() => setExtendOpen(false)} />}
    </>
  );
}

/** Extend the pickup (first stop) or delivery (last stop) date by at most EXTEND_DATES_MAX_DAYS days. */
export function ExtendDatesModal({ load, onClose }: { load: Load; onClose: () => void }) {
  const { t, i18n } = useTranslation('loads');
  const datesLocale = useDatesLocale(asLang(i18n.language));
  const extend = useExtendDates();
  const first = load.stops[0];
  const last = load.stops[load.stops.length - 1];
  const [pickup, setPickup] = useState<string | null>(isoToPicker(first.date));
  const [delivery, setDelivery] = useState<string | null>(isoToPicker(last.date));
  const max = (iso: string) => new Date(Date.parse(iso) + EXTEND_DATES_MAX_DAYS * 86_400_000);
  const submit = () => {
    const body = {
      ...(pickup && pickup !== isoToPicker(first.date) ? { pickupDate: pickerToIso(pickup) } : {}),
      ...(delivery && delivery !== isoToPicker(last.date) ? { deliveryDate: pickerToIso(delivery) } : {}),
    };
    extend.mutate(
      { id: load.id, body },
      {
        onSuccess: () => {
          notifySuccess(t('myLoads.done.extend_dates', { ref: load.referenceId }));
          onClose();
        },
        onError: notifyError,
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('extend.title')} centered>
      <DatesProvider settings={{ locale: datesLocale, firstDayOfWeek: 0, weekendDays: [5, 6] }}>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('extend.hint', { days: EXTEND_DATES_MAX_DAYS })}
          </Text>
          <DateTimePicker
            label={t('extend.pickup')}
            valueFormat="DD/MM/YYYY HH:mm"
            value={pickup}
            onChange={setPickup}
            minDate={new Date(first.date)}
            maxDate={max(first.date)}
            data-testid="extend-pickup"
          />
          <DateTimePicker
            label={t('extend.delivery')}
            valueFormat="DD/MM/YYYY HH:mm"
            value={delivery}
            onChange={setDelivery}
            minDate={new Date(last.date)}
            maxDate={max(last.date)}
            data-testid="extend-delivery"
          />
          <Group justify="flex-end">
            <Button onClick={submit} loading={extend.isPending} data-testid="extend-submit">
              {t('extend.submit')}
            </Button>
          </Group>
        </Stack>
      </DatesProvider>
    </Modal>
  );
}

/** Change where a posted, unposted or expired shipment goes (marketplace, my vendors, own vehicle). */
export function AudienceModal({ load, onClose }: { load: Load; onClose: () => void }) {
  const { t } = useTranslation('loads');
  const change = useChangeAudience();
  const [type, setType] = useState<ShipmentType>(load.shipmentType as ShipmentType);
  const [vendorIds, setVendorIds] = useState<string[]>(load.vendorIds);
  const vendors = useMyVendorOptions(type === SHIPMENT_TYPE.vendor);
  const submit = () =>
    change.mutate(
      { id: load.id, body: { shipmentType: type, ...(type === SHIPMENT_TYPE.vendor ? { vendorIds } : {}) } },
      {
        onSuccess: () => {
          notifySuccess(t('myLoads.done.audience', { ref: load.referenceId }));
          onClose();
        },
        onError: notifyError,
      },
    );
  return (
    <Modal opened onClose={onClose} title={t('audience.title')} centered>
      <Stack>
        <SegmentedControl
          fullWidth
          value={String(type)}
          onChange={(v) => setType(Number(v) as ShipmentType)}
          data={[1, 2, 3].map((n) => ({ value: String(n), label: t(`shipmentType.${n}`) }))}
          data-testid="audience-type"
        />
        <Text size="xs" c="dimmed">
          {t(`shipmentTypeHint.${type}`)}
        </Text>
        {type === SHIPMENT_TYPE.vendor && (
          <MultiSelect
            label={t('field.vendors')}
            searchable
            data={(vendors.data ?? []).map((v) => ({ value: v.id, label: `${v.companyName} — ${v.vendorName}` }))}
            value={vendorIds}
            onChange={setVendorIds}
            nothingFoundMessage={t('form.noVendors')}
          />
        )}
        <Group justify="flex-end">
          <Button onClick={submit} loading={change.isPending} disabled={type === SHIPMENT_TYPE.vendor && vendorIds.length === 0} data-testid="audience-submit">
            {t('audience.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The bookmark star of a load (spec §2 bookmarks). */
export function BookmarkButton({ load }: { load: Load }) {
  const { t } = useTranslation('loads');
  const bookmark = useBookmark();
  const on = load.bookmarked;
  const label = on ? t('bookmark.remove') : t('bookmark.add');
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color={on ? 'yellow' : 'gray'}
        aria-label={label}
        aria-pressed={on}
        loading={bookmark.isPending}
        onClick={() => bookmark.mutate({ id: load.id, on: !on }, { onError: notifyError })}
        data-testid={`bookmark-${load.referenceId}`}
      >
        {on ? <IconStarFilled size={18} /> : <IconStar size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}
