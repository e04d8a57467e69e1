import { useRef, useState } from 'react';
import { ActionIcon, Badge, Button, Card, Container, Group, Modal, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { savedAddressInput, type SavedAddress, type SavedAddressInput } from '@masar/shared';
import { fieldErrors, notifySuccess, showApiError } from '../../../lib/form';
import { inDigitSystem } from '../../../lib/digits';
import { useAddresses, useDeleteAddress, useSaveAddress } from '../api/profile';
import { AddressFields, NationalAddressFields, detailsToBody, detailsValues, emptyDetails, type AddressDetailsValues } from '../components/AddressFields';

interface Values {
  label: string;
  cityId: number | null;
  districtId: string | null;
  address: string;
  /** Whether the national address (building number, street, zip …) is given: off = a light address. */
  national: boolean;
  addressDetails: AddressDetailsValues;
}
const newKey = () => (globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID() : `${Date.now()}-${Math.random()}`);
const toBody = (v: Values) =>
  ({
    label: v.label,
    cityId: v.cityId,
    districtId: v.districtId ? Number(v.districtId) : null,
    address: v.address || undefined,
    addressDetails: v.national ? (detailsToBody(v.addressDetails) ?? {}) : null,
  }) as unknown as SavedAddressInput;
const toValues = (a?: SavedAddress): Values => ({
  label: a?.label ?? '',
  cityId: a?.cityId ?? null,
  districtId: a?.districtId == null ? null : String(a.districtId),
  address: a?.address ?? '',
  national: !!a?.addressDetails,
  addressDetails: a ? detailsValues(a.addressDetails) : emptyDetails(),
});

/** Add or edit one saved address (the spec §3 address form). */
function AddressModal({ editing, onClose }: { editing: SavedAddress | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('profile');
  const save = useSaveAddress();
  // one Idempotency-Key per new address, kept across retries of the same one
  const key = useRef(newKey());
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: toValues(editing ?? undefined),
    validate: (values) => {
      const r = savedAddressInput.safeParse(toBody(values));
      return r.success ? {} : fieldErrors(r.error.issues, i18n.language);
    },
  });
  const values = form.getValues();
  const submit = form.onSubmit(async (v) => {
    try {
      await save.mutateAsync({ id: editing?.id, body: savedAddressInput.parse(toBody(v)), key: key.current });
      notifySuccess(t('book.saved'));
      onClose();
    } catch (e) {
      showApiError(e, form);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('book.label')}
          placeholder={t('book.labelPlaceholder')}
          withAsterisk
          maxLength={60}
          key={form.key('label')}
          {...form.getInputProps('label')}
          data-testid="address-label"
        />
        <AddressFields form={form} cityId={values.cityId} district={values.addressDetails.district} national={false} errors={form.errors} required />
        <TextInput
          label={t('book.address')}
          description={t('book.addressHint')}
          withAsterisk={!values.national}
          maxLength={200}
          key={form.key('address')}
          {...form.getInputProps('address')}
          data-testid="address-text"
        />
        <Switch
          label={t('book.national')}
          description={t('book.nationalHint')}
          key={form.key('national')}
          {...form.getInputProps('national', { type: 'checkbox' })}
          data-testid="address-national"
        />
        {values.national && <NationalAddressFields form={form} cityId={values.cityId} required />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="address-save">
            {t('common:actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /shippers|carriers|brokers/account/addresses — the address book (issue 8; at most 200; used by the post form). */
export default function AddressBookPage() {
  const { t, i18n } = useTranslation('profile');
  const sep = i18n.language === 'ar' ? '، ' : ', ';
  const list = useAddresses();
  const remove = useDeleteAddress();
  const [open, setOpen] = useState<{ editing: SavedAddress | null } | null>(null);
  const items = list.data?.items ?? [];
  const full = !!list.data && list.data.total >= list.data.max;
  return (
    <Container size="md" py="xl">
      <Group justify="space-between" mb="xs">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('book.title')}
        </Title>
        <Button leftSection={<IconPlus size={16} />} disabled={full} onClick={() => setOpen({ editing: null })} data-testid="address-add">
          {t('book.add')}
        </Button>
      </Group>
      <Text c="dimmed" mb="lg">
        {t('book.hint')}
        {list.data && (
          <Badge component="span" ms="sm" variant="light">
            {t('book.count', { n: list.data.total, max: list.data.max })}
          </Badge>
        )}
      </Text>
      {list.isLoading ? (
        <Skeleton h={120} radius="lg" />
      ) : items.length === 0 ? (
        <Text c="dimmed">{t('book.empty')}</Text>
      ) : (
        <Stack gap="sm">
          {items.map((a) => (
            <Card key={a.id} withBorder radius="md" padding="md" data-testid="address-item">
              <Group justify="space-between" wrap="nowrap">
                <div>
                  <Text fw={600}>
                    <bdi>{a.label}</bdi>
                  </Text>
                  {/* street, district and free-text addresses are shown as typed; the building number and postal code follow the digit setting (e2e/digits.test.ts) */}
                  <Text size="sm" c="dimmed">
                    <bdi data-latin-digits>
                      {a.addressDetails
                        ? [
                            inDigitSystem(a.addressDetails.buildingNumber),
                            a.addressDetails.streetName,
                            a.addressDetails.district,
                            a.addressDetails.region,
                            inDigitSystem(a.addressDetails.zipCode),
                          ].join(sep)
                        : a.address}
                    </bdi>
                  </Text>
                </div>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon variant="subtle" aria-label={t('book.editNamed', { label: a.label })} onClick={() => setOpen({ editing: a })}>
                    <IconPencil size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="masarRed"
                    aria-label={t('book.deleteNamed', { label: a.label })}
                    loading={remove.isPending && remove.variables === a.id}
                    onClick={() => {
                      if (!window.confirm(t('book.deleteConfirm', { label: a.label }))) return;
                      remove.mutate(a.id, { onSuccess: () => notifySuccess(t('book.deleted')), onError: (e) => showApiError(e) });
                    }}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      <Modal opened={!!open} onClose={() => setOpen(null)} title={open?.editing ? t('book.edit') : t('book.add')} size="lg">
        {open && <AddressModal editing={open.editing} onClose={() => setOpen(null)} />}
      </Modal>
    </Container>
  );
}
