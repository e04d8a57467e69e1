import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  createLoadBody,
  DELIVERY_TYPES,
  DETENTION_FREE_HOURS_MAX,
  LIMITS,
  LOAD_TYPES,
  PAID_BY,
  PAYMENT_METHODS,
  PAYMENT_TERMS_DAYS_MAX,
  SHIPMENT_TYPE,
  STOP_TYPE,
  type CreateLoadBody,
  type ShipmentType,
} from '@masar/shared';
import { NumberInput } from '../../../components/NumberInput';
import { DateTimePicker } from '../../../components/DateTimePicker';
import { LaneRateHint } from '../../../components/LaneRateHint';
import { CitySelect } from '../../../components/CitySelect';
import { asLang } from '../../../components/format';
import { digits } from '../../../lib/digits';
import { StopBadge } from '../../../components/Lane';
import { useEquipmentTypes, useGoodsTypes, useRegions } from '../../../components/reference';
import { fieldErrors } from '../../../lib/form';
import {
  canAddCargo,
  canAddStop,
  emptyAddress,
  emptyCargo,
  emptyStop,
  formToBody,
  laneOrEquipmentChanged,
  type AddressValues,
  type LoadFormValues,
} from '../utils/loadForm';
import { useMyVendorOptions } from '../api/loads';
import { AddressBookPicker } from './AddressBookPicker';
import { useDatesLocale } from '../../../components/useDatesLocale';
import { MoreTerms } from './MoreTerms';

interface Props {
  initialValues: LoadFormValues;
  editing: boolean;
  /** Editing a load that is not on the board (unposted, expired): offer "save and post". */
  canPostOnSave?: boolean;
  submitting: boolean;
  /** Called with a body the shared schema accepted. Returns field errors of the server, if any. */
  onSubmit: (body: CreateLoadBody) => void;
  serverErrors?: Record<string, string>;
}

/** Post / edit a load (spec §2 post shipment; §3 stop and cargo fields; §5 rules, checked inline with the shared schema). */
export function LoadForm({ initialValues, editing, canPostOnSave = false, submitting, onSubmit, serverErrors }: Props) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const datesLocale = useDatesLocale(lang);
  const equipment = useEquipmentTypes();
  const goods = useGoodsTypes();
  const [post, setPost] = useState(true);
  /** An edit of the lane or equipment waits here for the user's confirmation (spec §4). */
  const [confirmBody, setConfirmBody] = useState<CreateLoadBody | null>(null);
  const [openAddress, setOpenAddress] = useState<Record<string, boolean>>({});

  const form = useForm<LoadFormValues>({
    mode: 'controlled',
    initialValues,
    validate: (values) => {
      const r = createLoadBody.safeParse(formToBody(values, post));
      return r.success ? {} : fieldErrors(r.error.issues, lang);
    },
  });
  const errors = { ...serverErrors, ...form.errors };
  const err = (path: string) => errors[path] as string | undefined;

  const submit = (asPost: boolean) => {
    setPost(asPost);
    const r = createLoadBody.safeParse(formToBody(form.getValues(), asPost));
    if (!r.success) {
      form.setErrors(fieldErrors(r.error.issues, lang));
      return;
    }
    form.clearErrors();
    const body = formToBody(form.getValues(), asPost);
    if (editing && laneOrEquipmentChanged(initialValues, form.getValues())) setConfirmBody(body);
    else onSubmit(body);
  };

  const regions = useRegions();
  const eqData = (equipment.data ?? []).map((e) => ({ value: e.code, label: lang === 'ar' ? e.nameAr : e.nameEn }));
  const goodsData = (goods.data ?? []).map((g) => ({ value: g.code, label: lang === 'ar' ? g.nameAr : g.nameEn }));
  const values = form.getValues();
  const nowPicker = new Date();
  const vendors = useMyVendorOptions(!editing && values.shipmentType === SHIPMENT_TYPE.vendor);
  const vendorData = (vendors.data ?? []).map((v) => ({ value: v.id, label: `${v.companyName} — ${v.vendorName}` }));
  const addressField = (i: number, field: keyof AddressValues, maxLength: number, required = true) => (
    <TextInput
      key={field}
      label={t(`address.${field}`)}
      withAsterisk={required}
      maxLength={maxLength}
      {...form.getInputProps(`stops.${i}.details.${field}`)}
      error={err(`stops.${i}.addressDetails.${field}`)}
      data-testid={`stop-${i}-${field}`}
    />
  );
  const hoursField = (name: 'pickupHoursFrom' | 'pickupHoursTo' | 'dropHoursFrom' | 'dropHoursTo', errPath: string) => (
    <TextInput type="time" label={t(`field.${name}`)} {...form.getInputProps(name)} error={err(errPath)} data-testid={`hours-${name}`} />
  );

  return (
    <DatesProvider settings={{ locale: datesLocale, firstDayOfWeek: 0, weekendDays: [5, 6] }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit(true);
        }}
        noValidate
      >
        <Stack gap="lg">
          <Paper withBorder p="md">
            <Title order={4} mb="sm">
              {t('form.section.load')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('field.loadType')}
                </Text>
                <SegmentedControl
                  fullWidth
                  data={LOAD_TYPES.map((lt) => ({ value: lt, label: t(`loadType.${lt}`) }))}
                  {...form.getInputProps('loadType')}
                  data-testid="load-type"
                />
              </Stack>
              <Select
                label={t('field.equipment')}
                placeholder={t('form.choose')}
                data={eqData}
                searchable
                withAsterisk
                {...form.getInputProps('equipmentType')}
                error={err('equipmentType')}
                data-testid="equipment-select"
              />
            </SimpleGrid>
          </Paper>

          <Paper withBorder p="md">
            <Group justify="space-between" mb="sm">
              <Title order={4}>{t('form.section.stops')}</Title>
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="light"
                  color="masar"
                  leftSection={<IconPlus size={14} />}
                  disabled={!canAddStop(values)}
                  onClick={() => {
                    const firstDrop = values.stops.findIndex((s) => s.stopType === STOP_TYPE.drop);
                    form.insertListItem('stops', emptyStop(STOP_TYPE.pickup), firstDrop < 0 ? values.stops.length : firstDrop);
                  }}
                  data-testid="add-pickup"
                >
                  {t('form.addPickup')}
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  color="masarRed"
                  leftSection={<IconPlus size={14} />}
                  disabled={!canAddStop(values)}
                  onClick={() => form.insertListItem('stops', emptyStop(STOP_TYPE.drop))}
                  data-testid="add-drop"
                >
                  {t('form.addDrop')}
                </Button>
              </Group>
            </Group>
            {err('stops') && (
              <Alert color="masarRed" variant="light" mb="sm" data-testid="stops-error">
                {err('stops')}
              </Alert>
            )}
            <Stack gap="sm">
              {values.stops.map((s, i) => (
                <Paper key={s.key} withBorder p="sm" radius="sm" data-testid={`stop-${i}`}>
                  <Group justify="space-between" mb="xs" wrap="nowrap">
                    <Group gap="xs">
                      <StopBadge stopType={s.stopType} size="lg" />
                      <SegmentedControl
                        size="xs"
                        value={String(s.stopType)}
                        onChange={(v) => form.setFieldValue(`stops.${i}.stopType`, Number(v) === STOP_TYPE.drop ? 2 : 1)}
                        data={[
                          { value: '1', label: t('stop.pickup') },
                          { value: '2', label: t('stop.drop') },
                        ]}
                      />
                    </Group>
                    <Group gap={4} wrap="nowrap">
                      <Tooltip label={t('form.moveUp')}>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          disabled={i === 0}
                          onClick={() => form.reorderListItem('stops', { from: i, to: i - 1 })}
                          aria-label={t('form.moveUp')}
                        >
                          <IconArrowUp size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('form.moveDown')}>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          disabled={i === values.stops.length - 1}
                          onClick={() => form.reorderListItem('stops', { from: i, to: i + 1 })}
                          aria-label={t('form.moveDown')}
                        >
                          <IconArrowDown size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('form.removeStop')}>
                        <ActionIcon
                          variant="subtle"
                          color="masarRed"
                          disabled={values.stops.length <= 2}
                          onClick={() => form.removeListItem('stops', i)}
                          aria-label={t('form.removeStop')}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Group>
                  {err(`stops.${i}.stopType`) && (
                    <Text c="masarRed" size="xs" mb={4}>
                      {err(`stops.${i}.stopType`)}
                    </Text>
                  )}
                  <AddressBookPicker
                    testId={`stop-${i}-book`}
                    onPick={(a) => {
                      form.setFieldValue(`stops.${i}.cityId`, a.cityId);
                      form.setFieldValue(`stops.${i}.address`, a.address ?? '');
                      form.setFieldValue(`stops.${i}.details`, { ...emptyAddress(), ...(a.addressDetails ?? {}) });
                      setOpenAddress((o) => ({ ...o, [s.key]: true }));
                    }}
                  />
                  <SimpleGrid cols={{ base: 1, sm: 3 }}>
                    <CitySelect
                      label={t('field.city')}
                      withAsterisk
                      value={s.cityId}
                      onChange={(id, city) => {
                        form.setFieldValue(`stops.${i}.cityId`, id);
                        // the region follows the city (issue 23: it was typed by hand after the city)
                        const region = city ? regions.data?.find((r) => r.id === city.regionId) : undefined;
                        if (region) form.setFieldValue(`stops.${i}.details.region`, lang === 'ar' ? region.nameAr : region.nameEn);
                      }}
                      error={err(`stops.${i}.cityId`)}
                      data-testid={`stop-${i}-city`}
                    />
                    <DateTimePicker
                      label={s.stopType === STOP_TYPE.pickup ? t('field.pickupDate') : t('field.dropDate')}
                      withAsterisk
                      placeholder={t('form.pickDate')}
                      valueFormat="DD/MM/YYYY HH:mm"
                      minDate={nowPicker}
                      value={s.date}
                      onChange={(v) => form.setFieldValue(`stops.${i}.date`, v)}
                      error={err(`stops.${i}.date`)}
                      clearable
                      data-testid={`stop-${i}-date`}
                    />
                    <TextInput
                      label={t('field.address')}
                      placeholder={t('form.addressPlaceholder')}
                      maxLength={200}
                      {...form.getInputProps(`stops.${i}.address`)}
                      error={err(`stops.${i}.address`)}
                      data-testid={`stop-${i}-address`}
                    />
                  </SimpleGrid>
                  <Button
                    variant="subtle"
                    size="compact-xs"
                    mt="xs"
                    onClick={() => setOpenAddress((o) => ({ ...o, [s.key]: !o[s.key] }))}
                    data-testid={`stop-${i}-address-toggle`}
                  >
                    {t('address.toggle')}
                  </Button>
                  {(openAddress[s.key] || Object.keys(errors).some((k) => k.startsWith(`stops.${i}.addressDetails`))) && (
                    <SimpleGrid cols={{ base: 2, sm: 4 }} mt="xs" data-testid={`stop-${i}-address-details`}>
                      {addressField(i, 'buildingNumber', 4)}
                      {addressField(i, 'streetName', 100)}
                      {addressField(i, 'district', 100)}
                      {addressField(i, 'region', 60)}
                      {addressField(i, 'zipCode', 5)}
                      {addressField(i, 'additionalNumber', 4, false)}
                      {addressField(i, 'unitNumber', 10, false)}
                      <TextInput
                        label={s.stopType === STOP_TYPE.pickup ? t('address.senderBusiness') : t('address.receiverBusiness')}
                        maxLength={100}
                        {...form.getInputProps(`stops.${i}.details.businessName`)}
                        error={err(`stops.${i}.addressDetails.businessName`)}
                        data-testid={`stop-${i}-businessName`}
                      />
                    </SimpleGrid>
                  )}
                </Paper>
              ))}
            </Stack>
          </Paper>

          <Paper withBorder p="md">
            <Group justify="space-between" mb="sm">
              <Title order={4}>
                {t('form.section.cargo')}{' '}
                <Text component="span" c="dimmed" size="sm">
                  ({digits(values.cargo.length)}/{digits(LIMITS.cargoLinesMax)})
                </Text>
              </Title>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconPlus size={14} />}
                disabled={!canAddCargo(values)}
                onClick={() => form.insertListItem('cargo', emptyCargo())}
                data-testid="add-cargo"
              >
                {t('form.addCargo')}
              </Button>
            </Group>
            {err('cargo') && (
              <Alert color="masarRed" variant="light" mb="sm">
                {err('cargo')}
              </Alert>
            )}
            <Stack gap="sm">
              {values.cargo.map((c, i) => (
                <Paper key={c.key} withBorder p="sm" radius="sm" data-testid={`cargo-${i}`}>
                  <Group justify="space-between" mb="xs">
                    <Text fw={600} size="sm">
                      {t('form.cargoLine', { n: i + 1 })}
                    </Text>
                    <ActionIcon
                      variant="subtle"
                      color="masarRed"
                      disabled={values.cargo.length <= 1}
                      onClick={() => form.removeListItem('cargo', i)}
                      aria-label={t('form.removeCargo')}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                  <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }}>
                    <Select
                      label={t('field.goodsType')}
                      withAsterisk
                      searchable
                      data={goodsData}
                      placeholder={t('form.choose')}
                      {...form.getInputProps(`cargo.${i}.goodsType`)}
                      error={err(`cargo.${i}.goodsType`)}
                      data-testid={`cargo-${i}-goods`}
                    />
                    {(
                      [
                        ['lengthCm', 'length'],
                        ['widthCm', 'width'],
                        ['heightCm', 'height'],
                      ] as const
                    ).map(([field, dim]) => (
                      <NumberInput
                        key={dim}
                        label={t(`field.${dim}`)}
                        withAsterisk
                        min={0}
                        decimalScale={1}
                        rightSection={<Text size="xs">{t('unit.cm')}</Text>}
                        {...form.getInputProps(`cargo.${i}.${field}`)}
                        error={err(`cargo.${i}.${field}`)}
                        data-testid={`cargo-${i}-${dim}`}
                      />
                    ))}
                    <NumberInput
                      label={t('field.quantity')}
                      withAsterisk
                      min={1}
                      allowDecimal={false}
                      {...form.getInputProps(`cargo.${i}.quantity`)}
                      error={err(`cargo.${i}.quantity`)}
                      data-testid={`cargo-${i}-quantity`}
                    />
                    <NumberInput
                      label={t('field.weightPerItem')}
                      withAsterisk
                      min={0}
                      decimalScale={2}
                      rightSection={<Text size="xs">{t('unit.kgShort')}</Text>}
                      {...form.getInputProps(`cargo.${i}.weightPerItemKg`)}
                      error={err(`cargo.${i}.weightPerItemKg`)}
                      data-testid={`cargo-${i}-weight`}
                    />
                  </SimpleGrid>
                  <Group mt="xs" gap="lg">
                    <Checkbox label={t('field.stackable')} {...form.getInputProps(`cargo.${i}.stackable`, { type: 'checkbox' })} />
                    <Checkbox label={t('field.adr')} {...form.getInputProps(`cargo.${i}.adr`, { type: 'checkbox' })} />
                  </Group>
                </Paper>
              ))}
            </Stack>
          </Paper>

          <Paper withBorder p="md">
            <Title order={4} mb="sm">
              {t('form.section.price')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NumberInput
                label={t('field.price')}
                description={t('form.priceHint')}
                withAsterisk
                min={0}
                thousandSeparator=","
                decimalScale={2}
                rightSection={<Text size="xs">{t('unit.sar')}</Text>}
                rightSectionWidth={48}
                {...form.getInputProps('priceSar')}
                error={err('priceSar')}
                data-testid="price-input"
              />
              <Textarea
                label={t('field.comments')}
                description={t('form.commentsCounter', { n: values.comments.length, max: LIMITS.commentsMax })}
                autosize
                minRows={2}
                maxLength={LIMITS.commentsMax}
                {...form.getInputProps('comments')}
                error={err('comments')}
                data-testid="comments-input"
              />
            </SimpleGrid>
            <LaneRateHint
              mt="xs"
              origin={values.stops.find((x) => x.stopType === STOP_TYPE.pickup)?.cityId}
              destination={values.stops.findLast((x) => x.stopType === STOP_TYPE.drop)?.cityId}
              equipment={values.equipmentType || null}
              price={values.priceSar}
            />
          </Paper>

          <Paper withBorder p="md">
            <Title order={4} mb="sm">
              {t('form.section.timing')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <DateTimePicker
                label={t('field.pickupLatest')}
                description={t('form.pickupLatestHint')}
                placeholder={t('form.pickDate')}
                valueFormat="DD/MM/YYYY HH:mm"
                minDate={nowPicker}
                value={values.pickupLatest}
                onChange={(v) => form.setFieldValue('pickupLatest', v)}
                error={err('pickupLatest')}
                clearable
                data-testid="pickup-latest"
              />
              <Group grow align="flex-start">
                {hoursField('pickupHoursFrom', 'pickupHours.from')}
                {hoursField('pickupHoursTo', 'pickupHours.to')}
              </Group>
              <Group grow align="flex-start">
                {hoursField('dropHoursFrom', 'dropHours.from')}
                {hoursField('dropHoursTo', 'dropHours.to')}
              </Group>
            </SimpleGrid>
          </Paper>

          <Paper withBorder p="md">
            <Title order={4} mb="sm">
              {t('form.section.payment')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Select
                label={t('field.paymentMethod')}
                placeholder={t('form.choose')}
                data={PAYMENT_METHODS.map((m) => ({ value: m, label: t(`paymentMethod.${m}`) }))}
                clearable
                {...form.getInputProps('paymentMethod')}
                error={err('paymentMethod')}
                data-testid="payment-method"
              />
              <Select
                label={t('field.paidBy')}
                placeholder={t('form.choose')}
                data={PAID_BY.map((m) => ({ value: m, label: t(`paidBy.${m}`) }))}
                clearable
                {...form.getInputProps('paidBy')}
                error={err('paidBy')}
                data-testid="paid-by"
              />
              <NumberInput
                label={t('field.paymentTermsDays')}
                min={0}
                max={PAYMENT_TERMS_DAYS_MAX}
                allowDecimal={false}
                rightSection={<Text size="xs">{t('unit.days')}</Text>}
                rightSectionWidth={48}
                {...form.getInputProps('paymentTermsDays')}
                error={err('paymentTermsDays')}
                data-testid="payment-terms"
              />
              <NumberInput
                label={t('field.detentionFreeHours')}
                min={0}
                max={DETENTION_FREE_HOURS_MAX}
                allowDecimal={false}
                {...form.getInputProps('detentionFreeHours')}
                error={err('detentionFreeHours')}
                data-testid="detention-hours"
              />
              <NumberInput
                label={t('field.detentionRate')}
                min={0}
                decimalScale={2}
                rightSection={<Text size="xs">{t('unit.sarPerHour')}</Text>}
                rightSectionWidth={72}
                {...form.getInputProps('detentionRateSar')}
                error={err('detentionRateSar')}
                data-testid="detention-rate"
              />
            </SimpleGrid>
          </Paper>

          <Paper withBorder p="md">
            <Title order={4} mb="sm">
              {t('form.section.delivery')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Select
                label={t('field.deliveryType')}
                placeholder={t('form.choose')}
                data={DELIVERY_TYPES.map((d) => ({ value: d, label: t(`deliveryType.${d}`) }))}
                clearable
                {...form.getInputProps('deliveryType')}
                error={err('deliveryType')}
                data-testid="delivery-type"
              />
              <TextInput
                label={t('field.deliveryTo')}
                maxLength={100}
                {...form.getInputProps('deliveryTo')}
                error={err('deliveryTo')}
                data-testid="delivery-to"
              />
              <MoreTerms form={form} err={err} ownVehicle={values.shipmentType === SHIPMENT_TYPE.ownVehicle} />
            </SimpleGrid>
          </Paper>

          {values.shipmentType !== SHIPMENT_TYPE.ownVehicle && (
            <Paper withBorder p="md" data-testid="book-now-section">
              <Title order={4} mb="sm">
                {t('bookNow.section')}
              </Title>
              <Checkbox
                label={t('bookNow.field')}
                description={t('bookNow.fieldHint')}
                {...form.getInputProps('bookNow', { type: 'checkbox' })}
                data-testid="book-now"
              />
              {values.bookNow && (
                <SegmentedControl
                  mt="sm"
                  fullWidth
                  value={values.bookNowFor}
                  onChange={(v) => form.setFieldValue('bookNowFor', v === 'vendors' ? 'vendors' : 'verified')}
                  data={[
                    { value: 'verified', label: t('bookNow.for.verified') },
                    { value: 'vendors', label: t('bookNow.for.vendors') },
                  ]}
                  data-testid="book-now-for"
                />
              )}
            </Paper>
          )}

          {!editing && (
            <Paper withBorder p="md">
              <Title order={4} mb="sm">
                {t('form.section.audience')}
              </Title>
              <SegmentedControl
                fullWidth
                value={String(values.shipmentType)}
                onChange={(v) => form.setFieldValue('shipmentType', Number(v) as ShipmentType)}
                data={[
                  { value: String(SHIPMENT_TYPE.marketplace), label: t('shipmentType.1') },
                  { value: String(SHIPMENT_TYPE.vendor), label: t('shipmentType.2') },
                  { value: String(SHIPMENT_TYPE.ownVehicle), label: t('shipmentType.3') },
                ]}
                data-testid="shipment-type"
              />
              <Text size="xs" c="dimmed" mt={4}>
                {t(`shipmentTypeHint.${values.shipmentType}`)}
              </Text>
              {values.shipmentType === SHIPMENT_TYPE.vendor && (
                <MultiSelect
                  mt="sm"
                  label={t('field.vendors')}
                  withAsterisk
                  searchable
                  data={vendorData}
                  value={values.vendorIds}
                  onChange={(ids) => form.setFieldValue('vendorIds', ids)}
                  error={err('vendorIds')}
                  nothingFoundMessage={t('form.noVendors')}
                  data-testid="vendor-select"
                />
              )}
            </Paper>
          )}

          {Object.keys(errors).length > 0 && (
            <Alert color="masarRed" variant="light" data-testid="form-errors">
              {t('form.fixErrors')}
            </Alert>
          )}
          <Group justify="flex-end">
            {(!editing || canPostOnSave) && (
              <Button variant="default" loading={submitting && !post} disabled={submitting} onClick={() => submit(false)} data-testid="post-load-save-unposted">
                {editing ? t('form.saveChanges') : t('form.saveUnposted')}
              </Button>
            )}
            <Button type="submit" loading={submitting && post} disabled={submitting} data-testid="post-load-submit">
              {!editing ? t('form.postNow') : canPostOnSave ? t('form.saveAndPost') : t('form.saveChanges')}
            </Button>
          </Group>
        </Stack>
      </form>
      <Modal opened={confirmBody !== null} onClose={() => setConfirmBody(null)} title={t('form.laneChangeTitle')} centered>
        <Text size="sm" data-testid="lane-change-warning">
          {t('form.laneChangeBody')}
        </Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirmBody(null)} data-testid="lane-change-cancel">
            {t('form.back')}
          </Button>
          <Button
            color="masarRed"
            onClick={() => {
              const b = confirmBody;
              setConfirmBody(null);
              if (b) onSubmit(b);
            }}
            data-testid="lane-change-confirm"
          >
            {t('form.laneChangeConfirm')}
          </Button>
        </Group>
      </Modal>
    </DatesProvider>
  );
}
