import { useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, MultiSelect, Select, Stack, Switch, Text } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { createTenderBody, TENDER_STEP_MINUTES } from '@masar/shared';
import { DateTimePicker } from '../../../components/DateTimePicker';
import { NumberInput } from '../../../components/NumberInput';
import { asLang, isoToPicker, pickerToIso } from '../../../components/format';
import { notifyError, notifySuccess } from '../../../components/notify';
import { useDatesLocale } from '../../../components/useDatesLocale';
import { fieldErrors } from '../../../lib/form';
import { useCreateTender, useTenderableLoads, useTenderCandidates } from '../api/tenders';

/** The form of a new tender (strings as the inputs hold them). */
export interface TenderFormValues {
  loadId: string | null;
  /** Picked carriers: `u:<userId>` (a favourite or the fixed carrier) or `v:<vendorId>` (a vendor). */
  picked: string[];
  deadline: string | null;
  targetRateSar: number | string;
  waterfall: boolean;
  stepMinutes: number | string;
  postToBoardOnClose: boolean;
}

/** The API body of the form (validated with createTenderBody by the caller). */
export function tenderFormToBody(v: TenderFormValues): Record<string, unknown> {
  return {
    loadId: v.loadId ?? '',
    carrierIds: v.picked.filter((p) => p.startsWith('u:')).map((p) => p.slice(2)),
    vendorIds: v.picked.filter((p) => p.startsWith('v:')).map((p) => p.slice(2)),
    deadline: pickerToIso(v.deadline),
    ...(v.targetRateSar !== '' ? { targetRateSar: String(v.targetRateSar) } : {}),
    mode: v.waterfall ? 'waterfall' : 'broadcast',
    ...(v.waterfall && v.stepMinutes !== '' ? { stepMinutes: Number(v.stepMinutes) } : {}),
    postToBoardOnClose: v.postToBoardOnClose,
  };
}

/**
 * "Tender": offer one of my loads to chosen carriers (issue 19 "Tendering"). `load` fixes the
 * load (from a load), `carrier` adds a carrier (from a truck on the truck board); otherwise both
 * are picked here — loads among my posted and unposted ones, carriers among my favourites and my
 * vendors. Deadline (Riyadh time), optional target rate, waterfall with minutes per carrier,
 * post to the board when it closes.
 */
export function TenderDialog({
  opened,
  onClose,
  load,
  carrier,
}: {
  opened: boolean;
  onClose: () => void;
  load?: { id: string; referenceId: string };
  carrier?: { id: string; name: string };
}) {
  const { t, i18n } = useTranslation('tenders');
  const lang = asLang(i18n.language);
  const datesLocale = useDatesLocale(lang);
  const loads = useTenderableLoads(opened && !load);
  const candidates = useTenderCandidates(opened);
  const create = useCreateTender();
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [v, setV] = useState<TenderFormValues>(() => ({
    loadId: load?.id ?? null,
    picked: carrier ? [`u:${carrier.id}`] : [],
    deadline: isoToPicker(new Date(Date.now() + 86_400_000).toISOString()),
    targetRateSar: '',
    waterfall: false,
    stepMinutes: TENDER_STEP_MINUTES.default,
    postToBoardOnClose: false,
  }));
  const set = (patch: Partial<TenderFormValues>) => setV((x) => ({ ...x, ...patch }));

  const carrierOptions = useMemo(() => {
    const fav = candidates.data?.favourites ?? [];
    const groups = [
      ...(carrier ? [{ group: t('dialog.fromTruck'), items: [{ value: `u:${carrier.id}`, label: carrier.name }] }] : []),
      { group: t('dialog.favourites'), items: fav.filter((f) => f.id !== carrier?.id).map((f) => ({ value: `u:${f.id}`, label: f.name })) },
      { group: t('dialog.vendors'), items: (candidates.data?.vendors ?? []).map((x) => ({ value: `v:${x.id}`, label: x.name })) },
    ];
    return groups.filter((g) => g.items.length);
  }, [candidates.data, carrier, t]);

  const submit = () => {
    if (create.isPending) return;
    const r = createTenderBody.safeParse(tenderFormToBody(v));
    if (!r.success) {
      setErrors(fieldErrors(r.error.issues, lang));
      return;
    }
    setErrors({});
    create.mutate(
      { body: r.data, key },
      {
        onSuccess: () => {
          notifySuccess(t('dialog.sent'));
          setKey(crypto.randomUUID());
          onClose();
        },
        onError: notifyError,
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('dialog.title')} size="lg" data-testid="tender-dialog">
      <DatesProvider settings={{ locale: datesLocale, firstDayOfWeek: 0, weekendDays: [5, 6] }}>
        <Stack gap="sm">
          {load ? (
            <Text size="sm">{t('dialog.forLoad', { ref: load.referenceId })}</Text>
          ) : (
            <Select
              label={t('dialog.load')}
              placeholder={t('dialog.pickLoad')}
              data={(loads.data ?? []).map((l) => ({
                value: l.id,
                label: `${l.referenceId} · ${t(`loadStatus.${l.status === 'posted' ? 'posted' : 'unposted'}`)}`,
              }))}
              value={v.loadId}
              onChange={(x) => set({ loadId: x })}
              error={errors.loadId}
              searchable
              nothingFoundMessage={t('dialog.noLoads')}
              data-testid="tender-load"
            />
          )}
          <MultiSelect
            label={t('dialog.carriers')}
            description={v.waterfall ? t('dialog.orderHint') : undefined}
            placeholder={t('dialog.pickCarriers')}
            data={carrierOptions}
            value={v.picked}
            onChange={(x) => set({ picked: x })}
            error={errors.carrierIds ?? errors.vendorIds}
            searchable
            nothingFoundMessage={t('dialog.noCarriers')}
            data-testid="tender-carriers"
          />
          <DateTimePicker
            label={t('dialog.deadline')}
            valueFormat="DD/MM/YYYY HH:mm"
            minDate={new Date()}
            value={v.deadline}
            onChange={(x) => set({ deadline: x })}
            error={errors.deadline}
            data-testid="tender-deadline"
          />
          <NumberInput
            label={t('dialog.targetRate')}
            description={t('dialog.targetRateHint')}
            value={v.targetRateSar}
            onChange={(x) => set({ targetRateSar: x })}
            error={errors.targetRateSar}
            min={0}
            decimalScale={2}
            data-testid="tender-target"
          />
          <Switch
            label={t('dialog.waterfall')}
            description={t('dialog.waterfallHint')}
            checked={v.waterfall}
            onChange={(e) => set({ waterfall: e.currentTarget.checked })}
            data-testid="tender-waterfall"
          />
          {v.waterfall && (
            <NumberInput
              label={t('dialog.stepMinutes')}
              value={v.stepMinutes}
              onChange={(x) => set({ stepMinutes: x })}
              error={errors.stepMinutes}
              min={TENDER_STEP_MINUTES.min}
              max={TENDER_STEP_MINUTES.max}
              allowDecimal={false}
              data-testid="tender-step"
            />
          )}
          <Checkbox label={t('dialog.postOnClose')} checked={v.postToBoardOnClose} onChange={(e) => set({ postToBoardOnClose: e.currentTarget.checked })} />
          {errors._form && <Alert color="masarRed">{errors._form}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('dialog.cancel')}
            </Button>
            <Button onClick={submit} loading={create.isPending} data-testid="tender-submit">
              {t('dialog.submit')}
            </Button>
          </Group>
        </Stack>
      </DatesProvider>
    </Modal>
  );
}
