import { useState, type ReactNode } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Center,
  Container,
  Drawer,
  Group,
  Menu,
  Modal,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconDots, IconEdit, IconEye, IconLink, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { paymentTermDays, VENDOR_STATUSES, VENDOR_USER_TYPES, type Vendor } from '@masar/shared';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CsvExportMenu, CsvImportButton } from '../../../components/CsvTransfer';
import { useCitiesByIds, useEquipmentTypes, useRegions } from '../../../components/reference';
import { useDeleteVendor, useShareLink, useSaveVendor, useVendor, useVendorRequestAction, useVendorRequests, useVendors } from '../api/vendors';
import { VendorForm } from '../components/VendorForm';
import { isolate } from '../../../components/bidi';
import { digits } from '../../../lib/digits';
import { SearchBox } from '../../../components/SearchBox';
import { TableHead } from '../../../components/TableHead';
import { Loading } from '../../../components/Loading';

const PAGE_SIZE = 20;
const STATUS_COLOR: Record<string, string> = { verified: 'masar', not_verified: 'red', pending_approval: 'yellow', request_submitted: 'blue' };

export function VendorStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('vendors');
  return (
    <Badge color={STATUS_COLOR[status] ?? 'gray'} variant="light">
      {t(`status.${status}`, { defaultValue: status })}
    </Badge>
  );
}

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  const empty = children === null || children === undefined || children === '' || (Array.isArray(children) && children.length === 0);
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {empty ? '—' : children}
      </Text>
    </Stack>
  );
}

function VendorView({ v }: { v: Vendor }) {
  const { t, i18n } = useTranslation('vendors');
  const ar = i18n.language === 'ar';
  const cities = useCitiesByIds(v.officeLocations.map((o) => o.cityId));
  const regions = useRegions();
  const eq = useEquipmentTypes();
  const sep = ar ? '، ' : ', ';
  const eqName = (c: string) => {
    const e = eq.data?.find((x) => x.code === c);
    return e ? (ar ? e.nameAr : e.nameEn) : c;
  };
  const list = (xs: string[], ns: string) => xs.map((x) => t(`${ns}.${x}`, { defaultValue: x })).join(sep);
  return (
    <Stack>
      <Group gap="xs">
        <VendorStatusBadge status={v.status} />
        <Badge variant="outline">{t(`userType.${v.userType}`)}</Badge>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Field label={t('field.companyName')}>
          <bdi>{v.companyName}</bdi>
        </Field>
        <Field label={t('field.vendorName')}>
          <bdi>{v.vendorName}</bdi>
        </Field>
        <Field label={t('field.phone')}>
          <span dir="ltr">{v.phone}</span>
        </Field>
        <Field label={t('field.email')}>{v.email}</Field>
        <Field label={t('field.jobTitle')}>{v.jobTitle}</Field>
        <Field label={t('field.preferredContactMethod')}>{v.preferredContactMethod && t(`contact.${v.preferredContactMethod}`)}</Field>
        <Field label={t('field.crNumber')}>{v.crNumber}</Field>
        <Field label={t('field.vatNumber')}>{v.vatNumber}</Field>
        <Field label={t('field.tlNumber')}>{v.tlNumber}</Field>
        <Field label={t('field.paymentTerms')}>{v.paymentTerms && t(`paymentTerms.${v.paymentTerms}`, { days: paymentTermDays(v.paymentTerms) })}</Field>
        <Field label={t('field.preferredLanguages')}>{list(v.preferredLanguages, 'language')}</Field>
        <Field label={t('field.shipmentTypes')}>{list(v.shipmentTypes, 'shipmentType')}</Field>
        <Field label={t('field.regions')}>
          {v.regions
            .map((id) => regions.data?.find((r) => r.id === id))
            .filter(Boolean)
            .map((r) => (ar ? r!.nameAr : r!.nameEn))
            .join(sep)}
        </Field>
        <Field label={t('field.numberOfTrucks')}>{v.numberOfTrucks}</Field>
        <Field label={t('field.numberOfTrailers')}>{v.numberOfTrailers}</Field>
        <Field label={t('field.fleetSize')}>{v.fleetSize}</Field>
        <Field label={t('field.fleetTypes')}>{v.fleetTypes.map(eqName).join(sep)}</Field>
        <Field label={t('field.equipmentTypes')}>{v.equipmentTypes.map(eqName).join(sep)}</Field>
        <Field label={t('field.customsClearance')}>{v.customsClearance ? t('yes') : t('no')}</Field>
        <Field label={t('field.serviceArea')}>{v.serviceArea}</Field>
        <Field label={t('field.insurance')}>{v.insurance}</Field>
        <Field label={t('field.rateAgreement')}>{v.rateAgreement}</Field>
        <Field label={t('field.paymentHistory')}>{v.paymentHistory}</Field>
        <Field label={t('field.pastExperience')}>{v.pastExperience}</Field>
      </SimpleGrid>
      <Field label={t('section.offices')}>
        {v.officeLocations.length ? (
          <Stack gap={2}>
            {v.officeLocations.map((o, i) => {
              const c = cities.data?.find((x) => x.id === o.cityId);
              return (
                <Text key={i} size="sm">
                  {[c ? (ar ? c.nameAr : c.nameEn) : '', o.address].filter(Boolean).join(sep)}
                </Text>
              );
            })}
          </Stack>
        ) : null}
      </Field>
      <Field label={t('field.notes')}>{v.notes}</Field>
    </Stack>
  );
}

/** /{role}/contact — "My vendors" (spec §2 Vendors): list, add, edit, view, delete, share link, requests. */
export default function VendorsPage() {
  const { t } = useTranslation('vendors');
  // Mantine mirrors the drawer side in RTL: "right" is the end side in both directions.
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'requests' ? 'requests' : 'vendors';
  const open = params.get('open');
  const mode = params.get('mode') === 'edit' || open === 'new' ? 'edit' : 'view';
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [status, setStatus] = useState<string | null>(null);
  const [userType, setUserType] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [toDelete, setToDelete] = useState<Vendor | null>(null);
  const shareLink = useShareLink();
  const sharing = shareLink.isPending;

  const filters = { search: debounced || undefined, status: status ?? undefined, userType: userType ?? undefined, page, pageSize: PAGE_SIZE };
  const vendors = useVendors(filters);
  const requests = useVendorRequests({ ...filters, status: undefined });
  const list = tab === 'requests' ? requests : vendors;
  const current = useVendor(open);
  const save = useSaveVendor();
  const del = useDeleteVendor();
  const act = useVendorRequestAction();
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));

  const setParam = (changes: Record<string, string | null>) =>
    setParams((p) => {
      for (const [k, v] of Object.entries(changes)) {
        if (v) p.set(k, v);
        else p.delete(k);
      }
      return p;
    });
  const openVendor = (id: string | null, m: 'view' | 'edit' = 'view') => setParam({ open: id, mode: id && m === 'edit' && id !== 'new' ? 'edit' : null });

  const share = async () => {
    try {
      const { url } = await shareLink.mutateAsync();
      const full = url.startsWith('http') ? url : `${window.location.origin}${url}`;
      const ok = await copy(full);
      notifications.show({ color: 'masar', title: ok ? t('share.copied') : t('share.title'), message: full, autoClose: 8000 });
    } catch (e) {
      notifications.show({ color: 'red', message: e instanceof Error ? e.message : t('error') });
    }
  };

  const remove = async () => {
    if (!toDelete) return;
    try {
      await del.mutateAsync(toDelete.id);
      notifications.show({ color: 'masar', message: t('deleted') });
      setToDelete(null);
      if (open === toDelete.id) openVendor(null);
    } catch (e) {
      // Spec §8: "failed to delete vendor".
      notifications.show({ color: 'red', title: t('deleteFailed'), message: e instanceof Error && e.message !== t('deleteFailed') ? e.message : '' });
    }
  };

  const decide = async (v: Vendor, action: 'approve' | 'reject') => {
    try {
      await act.mutateAsync({ id: v.id, action });
      notifications.show({ color: 'masar', message: t(`requests.${action}d`) });
    } catch (e) {
      notifications.show({ color: 'red', message: e instanceof Error ? e.message : t('error') });
    }
  };

  const drawerTitle = open === 'new' ? t('add') : mode === 'edit' ? t('edit') : (current.data?.companyName ?? '');

  return (
    <Container size="xl" py="md">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2}>{t('title')}</Title>
        <Group gap="xs" wrap="wrap">
          <Button variant="light" leftSection={<IconLink size={16} />} loading={sharing} onClick={() => void share()} data-testid="vendor-share-link">
            {t('share.button')}
          </Button>
          <CsvImportButton types={['vendors']} />
          <CsvExportMenu types={['vendors']} />
          <Button leftSection={<IconPlus size={16} />} onClick={() => openVendor('new')} data-testid="vendor-add">
            {t('add')}
          </Button>
        </Group>
      </Group>

      <Tabs
        value={tab}
        onChange={(v) => {
          setPage(1);
          setParam({ tab: v === 'requests' ? 'requests' : null });
        }}
        mb="sm"
      >
        <Tabs.List>
          <Tabs.Tab value="vendors" data-testid="vendors-tab">
            {t('tabs.vendors')}
          </Tabs.Tab>
          <Tabs.Tab
            value="requests"
            data-testid="vendor-requests-tab"
            rightSection={
              requests.data?.total ? (
                <Badge size="xs" variant="filled" color="yellow">
                  {digits(requests.data.total)}
                </Badge>
              ) : undefined
            }
          >
            {t('tabs.requests')}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>

      <Group gap="xs" mb="md" wrap="wrap">
        <SearchBox
          label={t('search')}
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
          testId="vendor-search"
        />
        <Select
          placeholder={t('field.userType')}
          aria-label={t('field.userType')}
          clearable
          data={VENDOR_USER_TYPES.map((u) => ({ value: u, label: t(`userType.${u}`) }))}
          value={userType}
          onChange={(v) => {
            setUserType(v);
            setPage(1);
          }}
          w={160}
        />
        {tab === 'vendors' && (
          <Select
            placeholder={t('field.status')}
            aria-label={t('field.status')}
            clearable
            data={VENDOR_STATUSES.map((u) => ({ value: u, label: t(`status.${u}`) }))}
            value={status}
            onChange={(v) => {
              setStatus(v);
              setPage(1);
            }}
            w={190}
          />
        )}
      </Group>

      {list.isLoading ? (
        <Center py="xl">
          <Loading />
        </Center>
      ) : list.isError ? (
        <Alert color="red">{list.error.message}</Alert>
      ) : !list.data?.items.length ? (
        // an empty list says what to do next: add a vendor, or share the link vendors join by
        <Stack align="center" py="xl" gap="xs" data-testid="vendors-empty">
          <Text c="dimmed" ta="center">
            {tab === 'requests' ? `${t('requests.empty')} ${t('requests.emptyHint')}` : t('empty')}
          </Text>
          {tab === 'requests' ? (
            <Button variant="light" leftSection={<IconLink size={16} />} loading={sharing} onClick={() => void share()}>
              {t('share.button')}
            </Button>
          ) : (
            <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => openVendor('new')}>
              {t('add')}
            </Button>
          )}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table highlightOnHover verticalSpacing="sm" data-testid="vendors-table">
            <TableHead
              titles={[t('field.companyName'), t('field.vendorName'), t('field.phone'), t('field.email'), t('field.userType'), t('field.status')]}
              last={null}
            />
            <Table.Tbody>
              {list.data.items.map((v) => (
                <Table.Tr key={v.id} data-testid={`vendor-row-${v.id}`}>
                  <Table.Td>
                    <Text fw={600} size="sm" style={{ cursor: 'pointer' }} onClick={() => openVendor(v.id)}>
                      <bdi>{v.companyName}</bdi>
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <bdi>{v.vendorName}</bdi>
                  </Table.Td>
                  <Table.Td>
                    <span dir="ltr">{v.phone}</span>
                  </Table.Td>
                  <Table.Td>{v.email}</Table.Td>
                  <Table.Td>{t(`userType.${v.userType}`)}</Table.Td>
                  <Table.Td>
                    <VendorStatusBadge status={v.status} />
                  </Table.Td>
                  <Table.Td>
                    {tab === 'requests' ? (
                      <Group gap={4} wrap="nowrap">
                        <ActionIcon
                          variant="light"
                          color="masar"
                          aria-label={t('requests.approve')}
                          onClick={() => void decide(v, 'approve')}
                          data-testid="vendor-approve"
                        >
                          <IconCheck size={16} />
                        </ActionIcon>
                        <ActionIcon
                          variant="light"
                          color="red"
                          aria-label={t('requests.reject')}
                          onClick={() => void decide(v, 'reject')}
                          data-testid="vendor-reject"
                        >
                          <IconX size={16} />
                        </ActionIcon>
                        <ActionIcon variant="subtle" color="gray" aria-label={t('view')} onClick={() => openVendor(v.id)}>
                          <IconEye size={16} />
                        </ActionIcon>
                      </Group>
                    ) : (
                      <Menu position="bottom-end">
                        <Menu.Target>
                          <ActionIcon variant="subtle" color="gray" aria-label={t('actions')} data-testid={`vendor-actions-${v.id}`}>
                            <IconDots size={18} />
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item leftSection={<IconEye size={16} />} onClick={() => openVendor(v.id)}>
                            {t('view')}
                          </Menu.Item>
                          <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => openVendor(v.id, 'edit')}>
                            {t('edit')}
                          </Menu.Item>
                          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setToDelete(v)} data-testid="vendor-delete">
                            {t('delete')}
                          </Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && (
        <Group justify="center" mt="md">
          <Pagination total={pages} value={page} onChange={setPage} />
        </Group>
      )}

      <Drawer opened={!!open} onClose={() => openVendor(null)} position="right" size="xl" title={<Text fw={700}>{drawerTitle}</Text>}>
        {open && open !== 'new' && current.isLoading ? (
          <Loading />
        ) : open && open !== 'new' && current.isError ? (
          <Alert color="red">{current.error.message}</Alert>
        ) : open && mode === 'edit' ? (
          <VendorForm
            key={open}
            vendor={open === 'new' ? null : current.data}
            submitLabel={open === 'new' ? t('add') : t('save')}
            onCancel={() => (open === 'new' ? openVendor(null) : openVendor(open, 'view'))}
            onSubmit={async (v) => {
              await save.mutateAsync(v);
              notifications.show({ color: 'masar', message: t('saved') });
              openVendor(null);
            }}
          />
        ) : current.data ? (
          <Stack>
            <VendorView v={current.data} />
            <Group justify="flex-end">
              <Button variant="default" color="red" leftSection={<IconTrash size={16} />} onClick={() => setToDelete(current.data)}>
                {t('delete')}
              </Button>
              <Button leftSection={<IconEdit size={16} />} onClick={() => openVendor(open, 'edit')}>
                {t('edit')}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Drawer>

      <Modal opened={!!toDelete} onClose={() => setToDelete(null)} title={t('confirmDelete.title')} centered>
        <Text mb="md">{t('confirmDelete.text', { name: isolate(toDelete?.companyName ?? '') })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setToDelete(null)}>
            {t('cancel')}
          </Button>
          <Button color="red" loading={del.isPending} onClick={() => void remove()} data-testid="vendor-confirm-delete">
            {t('delete')}
          </Button>
        </Group>
      </Modal>
    </Container>
  );
}
